import { Outlet, useRouteLoaderData } from "react-router";
import { BackOfficeError, backOfficeErrorContent } from "~/components/back-office/back-office-error";
import { BackOfficeFrame } from "~/components/back-office/back-office-frame";
import { ErrorPage, errorPageMeta, errorPageProps } from "~/components/layout/error-page";
import { pageMeta } from "~/components/layout/page-meta";
import { backOfficeVisitorOf } from "~/context.server";
import { ROLE_LABELS } from "~/features/auth/roles";
import type { Route } from "./+types/admin";

/*
 * The back office's frame (`/admin/*`): who is signed in and the sections
 * they may open, in a frame of its own rather than the storefront's
 * (root.tsx gives the page no other when this loader let the visitor in).
 * Its loader checks the role, and so does every page's and action's below
 * it — loaders run side by side, so none relies on this one.
 */

export function meta({ error, loaderData, location }: Route.MetaArgs) {
  // Turned away by this loader (a shopper's 404): the shop's own error page, which says nothing of a back office.
  if (error && !loaderData) return errorPageMeta(error);
  const title = error
    ? `${backOfficeErrorContent(error, location).title} | Back office | Backline`
    : "Back office | Backline";
  return pageMeta({ title, description: "Run the shop.", noindex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, role } = await backOfficeVisitorOf(request, context);
  return { name: user.name, email: user.email, role, roleLabel: ROLE_LABELS[role] };
}

export function headers() {
  return { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };
}

export default function BackOffice({ loaderData }: Route.ComponentProps) {
  return (
    <BackOfficeFrame person={loaderData} isOwner={loaderData.role === "owner"}>
      <Outlet />
    </BackOfficeFrame>
  );
}

/**
 * A page or action below that failed, for staff and owners: what happened
 * (a 403 names what is for owners only), inside the frame, with the way back.
 * When this loader itself turned the visitor away (a shopper: the shop's
 * 404; or the database down), root.tsx gives the storefront's frame, and the
 * page is the shop's own error page.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const frame = useRouteLoaderData<typeof loader>("routes/admin");
  if (!frame) return <ErrorPage {...errorPageProps(error)} />;
  return (
    <BackOfficeFrame person={frame} isOwner={frame.role === "owner"}>
      <BackOfficeError error={error} />
    </BackOfficeFrame>
  );
}
