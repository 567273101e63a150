import { Outlet } from "react-router";
import { BackOfficeNav } from "~/components/back-office/back-office-nav";
import { pageMeta } from "~/components/layout/page-meta";
import { backOfficeVisitorOf } from "~/context.server";
import { ROLE_LABELS } from "~/features/auth/roles";
import type { Route } from "./+types/admin";

/*
 * The back office's frame (`/admin/*`): who is signed in and the sections
 * they may open. Its loader checks the role, and so does every page's and
 * action's below it — loaders run side by side, so none relies on this one.
 */

export function meta() {
  return pageMeta({ title: "Back office | Backline", description: "Run the shop.", noindex: true });
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
    <main id="main" className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6">
      <p className="text-sm text-slate-700">
        <span className="font-bold text-indigo-700">Back office</span> · {loaderData.name} (
        {loaderData.roleLabel})
      </p>
      <div className="mt-4 flex flex-col gap-6 md:flex-row md:gap-8">
        <div className="md:w-48 md:shrink-0">
          <BackOfficeNav isOwner={loaderData.role === "owner"} />
        </div>
        <Outlet />
      </div>
    </main>
  );
}
