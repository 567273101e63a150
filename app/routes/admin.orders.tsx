import { data } from "react-router";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { pageMeta } from "~/components/layout/page-meta";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { AdminOrderList } from "~/features/orders/components/admin-order-list";
import { adminOrderListData } from "~/features/orders/order-search.server";
import type { Route } from "./+types/admin.orders";

/**
 * /admin/orders: every order, newest first, filtered and searched by URL
 * parameters (status, from, to, q, page). A parameter that does not read is
 * a 400 whose page names it beside its field, the rest of the form kept.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const list = await adminOrderListData(context.get(servicesContext).database.db, new URL(request.url));
  return data(list, { status: list.ok ? 200 : 400, headers: { "Cache-Control": "no-store" } });
}

export function meta() {
  return pageMeta({
    title: "Orders | Back office | Backline",
    description: "The shop's orders.",
    noindex: true,
  });
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  return (
    <BackOfficePage title="Orders" intro="Search by order number, email or the customer's name.">
      <AdminOrderList list={loaderData} />
    </BackOfficePage>
  );
}
