import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import { pageMeta } from "~/components/layout/page-meta";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { AdminOrderPage } from "~/features/orders/components/admin-order-page";
import { orderActionFormAction } from "~/features/orders/order-admin-form.server";
import { adminOrderPage } from "~/features/orders/order-admin-view.server";
import type { Route } from "./+types/admin.order";

/**
 * /admin/orders/BL-7Q4K9: one order, its timeline, and the actions that fit
 * it now (mark paid, mark shipped, cancel), each a POST to this page.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const order = await adminOrderPage(context.get(servicesContext).database.db, params);
  if (!order) throw data(null, { status: 404 });
  return data(
    { order, changed: new URL(request.url).searchParams.get("changed") },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { actor } = await backOfficeVisitorOf(request, context);
  return orderActionFormAction(request, params, context.get(servicesContext).orders, actor);
}

/** A refused change (409) means the order moved on: the page is read again to show it as it is now. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}

export function meta({ loaderData }: Route.MetaArgs) {
  return pageMeta({
    title: `Order ${loaderData?.order.number ?? ""} | Back office | Backline`,
    description: "An order in the back office.",
    noindex: true,
  });
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  return <AdminOrderPage order={loaderData.order} changed={loaderData.changed} answer={actionData} />;
}
