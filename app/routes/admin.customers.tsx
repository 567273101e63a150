import { data } from "react-router";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { pageMeta } from "~/components/layout/page-meta";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { CustomerList } from "~/features/customers/components/customer-list";
import { customerListData } from "~/features/customers/customers.server";
import type { Route } from "./+types/admin.customers";

/** /admin/customers?q=…&page=N: the shop's accounts with their orders and spending; a bad parameter is a 400 naming it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const list = await customerListData(context.get(servicesContext).database.db, new URL(request.url));
  return data(list, { status: list.ok ? 200 : 400, headers: { "Cache-Control": "no-store" } });
}

export function meta() {
  return pageMeta({
    title: "Customers | Back office | Backline",
    description: "The shop's customers.",
    noindex: true,
  });
}

export default function AdminCustomers({ loaderData }: Route.ComponentProps) {
  return (
    <BackOfficePage title="Customers" intro="Accounts, with their orders and what they spent.">
      <CustomerList list={loaderData} />
    </BackOfficePage>
  );
}
