import { data, Link } from "react-router";
import { isOrderStatus, STATUS_LABELS } from "~/commerce/order-states";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { pageMeta } from "~/components/layout/page-meta";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { CustomerDetails } from "~/features/customers/components/customer-details";
import { customerPageData } from "~/features/customers/customers.server";
import type { Route } from "./+types/admin.customer";

/**
 * /admin/customers/<account id>: one customer and their orders. The
 * customers feature reads them; the orders feature words their statuses.
 * An id nobody has is a 404; a page parameter that does not read, a 400.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const found = await customerPageData(
    context.get(servicesContext).database.db,
    params,
    new URL(request.url),
  );
  if (!found) throw data(null, { status: 404 });
  if (found.badPage) throw data(found.badPage, { status: 400 });
  const { badPage: _badPage, ...page } = found;
  return data(
    {
      ...page,
      orders: page.orders.map((order) => ({
        ...order,
        statusLabel: isOrderStatus(order.status) ? STATUS_LABELS[order.status] : order.status,
      })),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return pageMeta({
    title: `${loaderData?.customer.name || "Customer"} | Back office | Backline`,
    description: "A customer and their orders.",
    noindex: true,
  });
}

export default function AdminCustomer({ loaderData }: Route.ComponentProps) {
  return (
    <BackOfficePage
      title={loaderData.customer.name || loaderData.customer.email}
      intro="A customer and their orders."
      actions={
        <Link to="/admin/customers" className="font-semibold text-indigo-700 underline underline-offset-4">
          All customers
        </Link>
      }
    >
      <CustomerDetails {...loaderData} />
    </BackOfficePage>
  );
}
