import { useEffect } from "react";
import {
  data,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { shopMoney } from "~/commerce/shop-money.server";
import { ErrorPage, errorPageMeta, errorPageProps } from "~/components/layout/error-page";
import { SiteShell } from "~/components/layout/site-shell";
import { useFocusAfterNavigation } from "~/components/layout/use-focus-after-navigation";
import { accountsFor, cartItemCountOf, servicesContext } from "~/context.server";
import { AccountNav, SignInLinks } from "~/features/auth/components/account-nav";
import { VerifyEmailReminder } from "~/features/auth/components/verify-email-reminder";
import { rootSession } from "~/features/auth/session.server";
import { CartLink } from "~/features/cart/components/cart-link";
import { HeaderSearch } from "~/features/catalog/browsing/components/header-search";
import { shopperLocale } from "~/utils/locale.server";
import { logFailure } from "~/utils/logger.server";
import { useNonce } from "~/utils/nonce";
import { ToastHost } from "~/utils/toast";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  // The signed-in shopper, known at first render (no flash of the signed-out
  // navbar), and a toast left by a redirect ("Logged out.").
  const { user, toast, headers } = await rootSession(request, accountsFor(request, context).sessions);
  const { settings } = context.get(servicesContext);
  const [cartItems, { fewLeftAt }] = await Promise.all([
    cartItemCountOf(request, context, user?.id ?? null).catch((error: unknown) => {
      // The catalogue can still be browsed while carts cannot be read: the cart link shows no count.
      logFailure(error, "cart count look-up failed; the navbar shows none");
      return null;
    }),
    settings.current().catch((error: unknown) => {
      logFailure(error, "settings look-up failed; shoppers' pages use the configured ones");
      return settings.defaults;
    }),
  ]);
  // The shop speaks English; dates are written the way the shopper's browser writes them, amounts
  // in the shop's currency the way the shop writes them (the owner's settings, once the catalogue is
  // in them: shopMoney; useAmountFormat).
  // Every page tells shoppers how many are left from the owner's `fewLeftAt` down (useFewLeftAt).
  return data(
    {
      user,
      toast,
      cartItems,
      locale: shopperLocale(request),
      shop: { fewLeftAt },
      money: shopMoney(),
    },
    { headers },
  );
}

/**
 * The root's data (who is signed in, a toast, the locale, the owner's few-left
 * line) does not change when only the shop's filters do: a filter change asks
 * for the listing alone, one request, and a failed listing stays the shop's
 * own inline error instead of taking the whole page down with the root. A new
 * page, a form sent (an owner's new settings), or a Retry of the root's own
 * data still reads it again.
 */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) {
    return false;
  }
  return defaultShouldRevalidate;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#4f46e5" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col bg-slate-50 font-sans text-slate-900 antialiased">
        {children}
        <ToastHost />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** The shell of every page, with the account corner for whoever is signed in and the shop's search. */
function Shell({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const user = root?.user ?? null;
  return (
    <SiteShell
      account={<AccountNav user={user} />}
      cart={<CartLink itemCount={root?.cartItems ?? null} />}
      phoneMenuEnd={user ? null : <SignInLinks placement="phone-menu" />}
      search={({ closeOnEscape }) => <HeaderSearch onEscape={closeOnEscape} />}
      notice={<VerifyEmailReminder user={user} />}
      signedIn={user !== null}
    >
      {children}
    </SiteShell>
  );
}

/** The back office's layout route: when its loader let the visitor in, the page has the back office's frame. */
const BACK_OFFICE_ROUTE = "routes/admin";

export default function App() {
  useFocusAfterNavigation();
  // Marks the page interactive: a change made before this is lost to React's
  // first render, so the end-to-end tests wait for it before they act.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  // Staff and owners in /admin get its own frame (routes/admin.tsx); a shopper or a visitor whom its
  // loader turned away (the shop's 404) gets the storefront's, as for any address that does not exist.
  if (useRouteLoaderData(BACK_OFFICE_ROUTE) !== undefined) return <Outlet />;
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

/** Used by pages without their own meta, and by the error page below. */
export function meta({ error }: Route.MetaArgs) {
  if (error) return errorPageMeta(error);
  return [
    { title: "Backline" },
    {
      name: "description",
      content: "Backline, a small online shop for electronics, fitness, home and outdoor gear.",
    },
  ];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <Shell>
      <ErrorPage {...errorPageProps(error)} />
    </Shell>
  );
}
