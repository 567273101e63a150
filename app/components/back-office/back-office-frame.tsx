import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { BrandLogo } from "~/components/layout/brand-mark";
import { CloseIcon, MenuIcon } from "~/components/ui/icons";
import { usePopover } from "~/components/ui/popover";
import { BackOfficeNav } from "./back-office-nav";

/** Who is signed in, as the frame shows them. */
export interface BackOfficePerson {
  name: string;
  email: string;
  /** "Owner", "Staff". */
  roleLabel: string;
}

/** From this width (Tailwind's `md`) the sections sit in a column beside the page; below it, behind Menu. */
const SECTIONS_BESIDE_PAGE = "(width >= 48rem)";

/**
 * Who is signed in: name, email and role. In the bar (`inBar`) the name and
 * email keep to a line each, a long one cut with an ellipsis (the whole of it
 * is still read out, and shown in full in a phone's menu); the role is never cut.
 */
function SignedIn({ person, inBar }: { person: BackOfficePerson; inBar: boolean }) {
  const role = "shrink-0 rounded px-2 py-0.5 text-xs font-bold tracking-wide uppercase";
  if (!inBar) {
    return (
      <p className="text-sm leading-5 [overflow-wrap:anywhere]">
        <span className="sr-only">Signed in as </span>
        <span className="block font-semibold">{person.name}</span>
        <span className="block">{person.email}</span>
        <span className="sr-only">, </span>
        <span className={`mt-1.5 inline-block bg-slate-200 text-slate-900 ${role}`}>{person.roleLabel}</span>
      </p>
    );
  }
  return (
    <p className="flex min-w-0 items-center justify-end gap-3 text-right text-sm leading-5">
      <span className="min-w-0">
        <span className="sr-only">Signed in as </span>
        <span className="block truncate font-semibold">{person.name}</span>
        <span className="block truncate">{person.email}</span>
      </span>
      <span className="sr-only">, </span>
      <span className={`bg-white/15 ${role}`}>{person.roleLabel}</span>
    </p>
  );
}

/** Log out ends the session (a POST) and leaves for the shop's home page: the back office is no one's after it. */
function LogOut({ className }: { className: string }) {
  return (
    <Form method="post" action="/logout">
      <input type="hidden" name="returnTo" value="/" />
      <button type="submit" className={className}>
        Log out
      </button>
    </Form>
  );
}

const ON_DARK_LINK =
  "shrink-0 rounded-md text-sm font-semibold text-white underline underline-offset-4 hover:text-indigo-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white";

/**
 * The back office's own frame, for staff and owners: a dark bar with the
 * shop's name, the way to the storefront and who is signed in (name, email,
 * role, Log out); the sections in a column beside the page, or behind a Menu
 * button on a phone (the browser's own popover, so without JavaScript too);
 * the page in the one `main`, which the skip link and focus after a
 * navigation (use-focus-after-navigation.ts: `#content h1`) reach.
 */
export function BackOfficeFrame({
  person,
  isOwner,
  children,
}: {
  person: BackOfficePerson;
  isOwner: boolean;
  children: ReactNode;
}) {
  const menu = usePopover({ closeWhenMatches: SECTIONS_BESIDE_PAGE });
  return (
    <>
      <header className="sticky top-0 z-30 bg-slate-900 text-white">
        <a
          href="#content"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:font-semibold focus:text-indigo-700 focus:shadow"
        >
          Skip to content
        </a>
        <div className="mx-auto flex h-16 w-full max-w-7xl items-center gap-3 px-4 sm:px-6">
          <Link
            to="/admin"
            className="inline-flex min-w-0 items-center gap-2 rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            <BrandLogo className="size-8" />
            <span className="text-lg font-extrabold tracking-tight">Backline</span>
            <span className="rounded bg-white/15 px-2 py-0.5 text-xs font-bold tracking-wide whitespace-nowrap uppercase">
              Back office
            </span>
          </Link>
          <div className="ml-auto hidden min-w-0 flex-1 items-center justify-end gap-5 whitespace-nowrap md:flex">
            <Link to="/" className={ON_DARK_LINK}>
              View the shop
            </Link>
            <div className="min-w-0 lg:max-w-sm">
              <SignedIn person={person} inBar />
            </div>
            <LogOut className="shrink-0 rounded-lg border border-white/60 px-3 py-1.5 text-sm font-semibold hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white" />
          </div>
          <button
            {...menu.trigger}
            className="ml-auto inline-flex size-10 shrink-0 items-center justify-center rounded-lg hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white md:hidden"
          >
            <span className="sr-only">Menu</span>
            {menu.open ? <CloseIcon className="size-6" /> : <MenuIcon className="size-6" />}
          </button>
        </div>
        <div
          {...menu.panel}
          className="fixed inset-x-0 top-16 bottom-auto m-0 max-h-[calc(100dvh-4rem)] w-full overflow-y-auto border-0 border-b border-slate-300 bg-white p-0 text-slate-900 shadow-md md:hidden"
        >
          <div className="space-y-4 px-4 py-4">
            <BackOfficeNav isOwner={isOwner} placement="menu" />
            <div className="space-y-3 border-t border-slate-200 pt-4">
              <SignedIn person={person} inBar={false} />
              <div className="flex flex-wrap items-center gap-3">
                <Link
                  to="/"
                  className="rounded-lg border border-slate-500 px-3 py-2 text-sm font-semibold hover:bg-slate-50"
                >
                  View the shop
                </Link>
                <LogOut className="rounded-lg bg-slate-900 px-3 py-2 text-sm font-semibold text-white hover:bg-slate-700" />
              </div>
            </div>
          </div>
        </div>
      </header>
      <div className="mx-auto flex w-full max-w-7xl flex-1 gap-8 px-4 py-8 sm:px-6">
        <div className="hidden w-48 shrink-0 md:block">
          <BackOfficeNav isOwner={isOwner} />
        </div>
        <main id="content" tabIndex={-1} className="min-w-0 flex-1 outline-none">
          {children}
        </main>
      </div>
    </>
  );
}
