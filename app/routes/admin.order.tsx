import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import { pageMeta } from "~/components/layout/page-meta";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { mayAct } from "~/features/auth/roles";
import { AdminOrderPage } from "~/features/orders/components/admin-order-page";
import { orderActionFormAction } from "~/features/orders/order-admin-form.server";
import { adminOrderPage } from "~/features/orders/order-admin-view.server";
import type { Route } from "./+types/admin.order";

/**
 * /admin/orders/BL-7Q4K9: one order, its timeline, and the actions that fit
 * it now (mark paid, mark shipped, cancel; refund a card payment, owners
 * only), each a POST to this page.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { role } = await backOfficeVisitorOf(request, context);
  const order = await adminOrderPage(context.get(servicesContext).database.db, params);
  if (!order) throw data(null, { status: 404 });
  return data(
    // Money goes back to a card only by an owner's hand; staff see the payments.
    { order, changed: new URL(request.url).searchParams.get("changed"), mayRefund: mayAct(role, "owner") },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { actor, role } = await backOfficeVisitorOf(request, context);
  return orderActionFormAction(request, params, context.get(servicesContext).orders, actor, {
    mayRefund: mayAct(role, "owner"),
  });
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
  return (
    <AdminOrderPage
      order={loaderData.order}
      changed={loaderData.changed}
      mayRefund={loaderData.mayRefund}
      answer={actionData}
    />
  );
}
