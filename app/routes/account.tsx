import { Link, Outlet, redirect, useLocation } from "react-router";
import { pageMeta } from "~/components/layout/page-meta";
import { accountsFor } from "~/context.server";
import { loginPath } from "~/features/auth/redirect";
import { retryAfterHeaders } from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/account";

/*
 * The signed-in shopper's account (`/account`): one page with a form per
 * task, each form sent to a route of its own below this one (app/routes.ts:
 * /account/profile, /account/email, …), whose page is this one again with
 * that form's answer. This layout reads what they all show and takes no form
 * itself: a post to `/account` (a page from before the forms had their own
 * routes) is answered 405 by the router.
 */

export function meta() {
  return pageMeta({
    title: "Your account | Backline",
    description: "Your Backline account: profile, email, password, sessions.",
    noindex: true,
  });
}

export const headers = retryAfterHeaders;

/** A visitor is sent to log in and comes back to the account page they asked for (/account/orders…). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const accounts = accountsFor(request, context);
  const [overview, sessions, backOffice] = await Promise.all([
    accounts.account.overview(),
    accounts.sessions.list(),
    accounts.backOffice.visitor(),
  ]);
  if (!overview || !sessions) {
    const { pathname, search } = new URL(request.url);
    throw redirect(loginPath(pathname + search));
  }
  // Staff and owners find the back office from their account.
  const entersBackOffice = backOffice !== null && backOffice.role !== "shopper";
  return { ...overview, sessions, google: accounts.google.availability, entersBackOffice };
}

/** The account's two parts: its settings (/account and each form's route) and its orders. */
const accountTab = (current: boolean) =>
  `rounded-lg px-4 py-2 text-sm font-semibold ${
    current ? "bg-indigo-600 text-white" : "border border-slate-500 bg-white text-slate-800 hover:bg-slate-50"
  }`;

export default function Account({ loaderData }: Route.ComponentProps) {
  const { user } = loaderData;
  const onOrders = useLocation().pathname.startsWith("/account/orders");
  return (
    <main id="main" className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900">Your account</h1>
      <p className="mt-2 text-slate-700">
        Signed in as <strong className="font-semibold break-all">{user.email}</strong>
        {user.emailVerified ? " (confirmed)" : " (not confirmed yet)"}.
      </p>
      <nav aria-label="Your account" className="mt-6 flex flex-wrap gap-2">
        <Link to="/account" aria-current={onOrders ? undefined : "page"} className={accountTab(!onOrders)}>
          Settings
        </Link>
        <Link
          to="/account/orders"
          aria-current={onOrders ? "page" : undefined}
          className={accountTab(onOrders)}
        >
          Orders
        </Link>
        {loaderData.entersBackOffice ? (
          <Link to="/admin" className={accountTab(false)}>
            Back office
          </Link>
        ) : null}
      </nav>
      <Outlet />
    </main>
  );
}
