import { data } from "react-router";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { pageMeta } from "~/components/layout/page-meta";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { DashboardChart } from "~/features/back-office/components/dashboard-chart";
import { DashboardPeriods, DashboardToDo } from "~/features/back-office/components/dashboard-figures";
import { dashboardOf } from "~/features/back-office/dashboard.server";
import type { Route } from "./+types/admin.dashboard";

/** `/admin` (staff and owners): sales today, over 7 and 30 days and per day; what waits; what runs out. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const { database, settings } = context.get(servicesContext);
  const { lowStockAt, currency } = await settings.current();
  return data(await dashboardOf(database.db, { lowStockAt, currency }), {
    headers: { "Cache-Control": "no-store" },
  });
}

export function meta() {
  return pageMeta({
    title: "Dashboard | Back office | Backline",
    description: "The shop at a glance.",
    noindex: true,
  });
}

export default function DashboardPage({ loaderData }: Route.ComponentProps) {
  return (
    <BackOfficePage title="Dashboard" intro="The shop at a glance: sales, what waits for you, what runs out.">
      <div className="space-y-10">
        <DashboardPeriods dashboard={loaderData} />
        <DashboardToDo dashboard={loaderData} />
        <DashboardChart days={loaderData.days} />
      </div>
    </BackOfficePage>
  );
}
