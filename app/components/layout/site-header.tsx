import { useEffect, useId, useState } from "react";
import { Link, NavLink, useLocation, useRouteLoaderData } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { CloseIcon, MenuIcon } from "~/components/ui/icons";
import { AccountMenu } from "~/features/auth/components/account-menu";
import { loginPath } from "~/features/auth/redirect";
import type { SessionUser } from "~/features/auth/session-user";
import { BrandMark } from "./brand-mark";

const LINKS = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/contact", label: "Contact" },
] as const;

function navLinkClass({ isActive }: { isActive: boolean }): string {
  return `rounded-lg px-3 py-2 text-sm font-semibold transition-colors ${
    isActive ? "bg-indigo-50 text-indigo-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
  }`;
}

/**
 * The navbar: brand, Home / About / Contact, and Login + Sign Up for a
 * visitor or the account menu for a signed-in shopper. Below 768 px the
 * links fold behind a menu button.
 */
export function SiteHeader() {
  const rootData = useRouteLoaderData("root") as { user?: SessionUser | null } | undefined;
  const user = rootData?.user ?? null;
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const location = useLocation();
  // Logging in brings the visitor back to the page they were on.
  const loginHref = loginPath(location.pathname + location.search);

  // A link in the open menu was followed: fold it away again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every new location
  useEffect(() => setOpen(false), [location.key]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open]);

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/80">
      <a
        href="#content"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:font-semibold focus:text-indigo-700 focus:shadow"
      >
        Skip to content
      </a>
      <nav aria-label="Main">
        <div className="mx-auto flex h-16 w-full max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8">
          <BrandMark />

          <ul className="ml-6 hidden items-center gap-1 md:flex">
            {LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end className={navLinkClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>

          <div className="ml-auto flex items-center gap-2">
            {user ? (
              <AccountMenu user={user} />
            ) : (
              <div className="hidden items-center gap-2 md:flex">
                <Link to={loginHref} className={buttonClasses("ghost", "sm")}>
                  Login
                </Link>
                <Link to="/sign-up" className={buttonClasses("primary", "sm")}>
                  Sign Up
                </Link>
              </div>
            )}
            <button
              type="button"
              aria-expanded={open}
              aria-controls={menuId}
              onClick={() => setOpen((value) => !value)}
              className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 md:hidden"
            >
              <span className="sr-only">Menu</span>
              {open ? <CloseIcon className="size-6" /> : <MenuIcon className="size-6" />}
            </button>
          </div>
        </div>

        <div id={menuId} hidden={!open} className="border-t border-slate-200 bg-white md:hidden">
          <ul className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-3 sm:px-6">
            {LINKS.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end
                  className={(state) => `block ${navLinkClass(state)} py-2.5 text-base`}
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
            {user ? null : (
              <li className="mt-2 grid grid-cols-2 gap-2 border-t border-slate-200 pt-3">
                <Link to={loginHref} className={buttonClasses("secondary", "md")}>
                  Login
                </Link>
                <Link to="/sign-up" className={buttonClasses("primary", "md")}>
                  Sign Up
                </Link>
              </li>
            )}
          </ul>
        </div>
      </nav>
    </header>
  );
}
