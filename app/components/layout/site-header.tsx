import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { CloseIcon, MenuIcon, SearchIcon } from "~/components/ui/icons";
import { usePopover } from "~/components/ui/popover";
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

export interface SiteHeaderProps {
  /** The navbar's right-hand corner (the account menu, or Login and Sign Up). */
  account: ReactNode;
  /** The cart link, beside the account corner (the shell knows nothing of carts). */
  cart?: ReactNode;
  /** Shown at the end of the phone menu (Login and Sign Up for a visitor), if anything. */
  phoneMenuEnd?: ReactNode;
  /**
   * The search form (the shell knows nothing of the catalogue); `closeOnEscape`
   * is set while it is open over the page below 1024 px, for Escape to close it.
   */
  search?: (controls: { closeOnEscape?: () => void }) => ReactNode;
}

/** From this width (Tailwind's `lg`) the search sits in the navbar; below it, behind a button. */
const SEARCH_IN_NAVBAR_FROM = "(width >= 64rem)";

/**
 * The navbar: brand, Home / About / Contact, the search and the account
 * corner it is given (the shell knows nothing of accounts or the catalogue).
 * Below 768 px the links fold behind a menu button, and below 1024 px the
 * search behind a search button, each on the browser's own popover.
 */
export function SiteHeader({ account, cart, phoneMenuEnd, search }: SiteHeaderProps) {
  const menu = usePopover();
  // Below 1024 px the search opens under the navbar from its button (on the browser's popover, so
  // without JavaScript too), its field focused; it stays open while the shop's listing follows the typing.
  const searchPanel = usePopover({
    keepOpenOnNavigation: "same-page",
    focusOnOpen: true,
    closeWhenMatches: SEARCH_IN_NAVBAR_FROM,
  });

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
          <BrandMark nameFromSmallPhones />

          <ul className="ml-6 hidden items-center gap-1 md:flex">
            {LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end className={navLinkClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>

          {search ? (
            <div
              {...searchPanel.panel}
              // A search sent (Enter) closes it onto the results.
              onSubmit={searchPanel.hide}
              className={[
                // Below 1024 px: a bar under the navbar.
                "fixed inset-x-0 top-16 bottom-auto m-0 h-auto w-full overflow-visible border-0 border-y border-slate-200 bg-white p-0 shadow-md",
                // From 1024 px: part of the navbar, whatever the popover's own styles say.
                "lg:static lg:ml-auto lg:block lg:w-72 lg:border-0 lg:bg-transparent lg:shadow-none xl:w-80",
              ].join(" ")}
            >
              <div className="mx-auto max-w-7xl px-4 py-3 sm:px-6 lg:p-0">
                {search({ closeOnEscape: searchPanel.open ? searchPanel.hide : undefined })}
              </div>
            </div>
          ) : null}

          <div className="ml-auto flex items-center gap-2 lg:ml-0">
            {search ? (
              <button
                {...searchPanel.trigger}
                className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 lg:hidden"
              >
                <span className="sr-only">Search</span>
                {searchPanel.open ? <CloseIcon className="size-6" /> : <SearchIcon className="size-6" />}
              </button>
            ) : null}
            {cart}
            {account}
            <button
              {...menu.trigger}
              className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 md:hidden"
            >
              <span className="sr-only">Menu</span>
              {menu.open ? <CloseIcon className="size-6" /> : <MenuIcon className="size-6" />}
            </button>
          </div>
        </div>

        <div
          {...menu.panel}
          className="fixed inset-x-0 top-16 bottom-auto m-0 h-auto w-full border-0 border-t border-b border-slate-200 bg-white p-0 shadow-md md:hidden"
        >
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
            {phoneMenuEnd ? <li className="mt-2 border-t border-slate-200 pt-3">{phoneMenuEnd}</li> : null}
          </ul>
        </div>
      </nav>
    </header>
  );
}
