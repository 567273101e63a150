import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { ErrorPage, NOT_FOUND_MESSAGE } from "~/components/layout/error-page";
import { SiteShell } from "~/components/layout/site-shell";
import { servicesContext } from "~/context.server";
import { AccountNav, SignInLinks } from "~/features/auth/components/account-nav";
import { rootSession } from "~/features/auth/session.server";
import { useNonce } from "~/utils/nonce";
import { ToastHost } from "~/utils/toast";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  // The signed-in shopper, known at first render (no flash of the signed-out
  // navbar), and a toast left by a redirect ("Logged out.").
  const { user, toast, headers } = await rootSession(request, context.get(servicesContext).auth);
  return data({ user, toast }, { headers });
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

/** The shell of every page, with the account corner for whoever is signed in. */
function Shell({ children }: { children: React.ReactNode }) {
  const user = useRouteLoaderData<typeof loader>("root")?.user ?? null;
  return (
    <SiteShell
      account={<AccountNav user={user} />}
      phoneMenuEnd={user ? null : <SignInLinks placement="phone-menu" />}
    >
      {children}
    </SiteShell>
  );
}

export default function App() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

/** Used by pages without their own meta, and by the error page below. */
export function meta({ error }: Route.MetaArgs) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const title = error
    ? notFound
      ? "Page not found | Backline"
      : "Something went wrong | Backline"
    : "Backline";
  return [
    { title },
    {
      name: "description",
      content: "Backline, a small online shop for electronics, fitness, home and outdoor gear.",
    },
    ...(error ? [{ name: "robots", content: "noindex" }] : []),
  ];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let page = {
    eyebrow: "Error",
    title: "Something went wrong",
    message: "Sorry, this page could not be shown. Please try again in a moment.",
  };
  if (isRouteErrorResponse(error)) {
    page =
      error.status === 404
        ? { eyebrow: "404", title: "Page not found", message: NOT_FOUND_MESSAGE }
        : {
            ...page,
            eyebrow: `Error ${error.status}`,
            message: typeof error.data === "string" && error.data ? error.data : page.message,
          };
  }
  // A stack trace helps a developer and nobody else: development builds only.
  const detail = import.meta.env.DEV && error instanceof Error ? (error.stack ?? error.message) : undefined;
  return (
    <Shell>
      <ErrorPage {...page} detail={detail} />
    </Shell>
  );
}
