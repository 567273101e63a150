import { lazy, Suspense } from "react";
import { useAmountFormat } from "~/commerce/use-money";
import {
  BackOfficeTable,
  tableCellClasses,
  tableHeadClasses,
} from "~/components/back-office/back-office-page";
import type { DayFigures } from "../dashboard.server";
import { shortDay } from "./dashboard-days";

const DashboardChartDrawing = lazy(() => import("./dashboard-chart-drawing"));

/**
 * The last 30 days: orders as bars (left axis) and revenue as a line (right
 * axis), told apart by shape and legend as well as colour. recharts draws it
 * in the browser (on the server it is an empty frame of its size, so nothing
 * moves); screen readers and pages without JavaScript get the same numbers in
 * the table under it, so the drawing is hidden from them.
 */
export function DashboardChart({ days }: { days: DayFigures[] }) {
  const formatAmount = useAmountFormat();
  return (
    <section aria-labelledby="last-30-days" className="space-y-3">
      <h2 id="last-30-days" className="text-lg font-bold text-slate-900">
        The last 30 days
      </h2>
      <div aria-hidden="true" className="h-[296px] rounded-lg border border-slate-300 p-2">
        {/* recharts (about 120 kB gzipped) loads on its own, after the page's figures and links work. */}
        <Suspense fallback={null}>
          <DashboardChartDrawing days={days} />
        </Suspense>
      </div>
      <noscript>
        <p className="text-sm text-slate-700">
          The chart is drawn with JavaScript: the table below has its numbers.
        </p>
      </noscript>
      <details className="group">
        <summary className="cursor-pointer text-sm font-semibold text-indigo-700 underline underline-offset-4">
          Show the 30 days as a table
        </summary>
        <div className="mt-3">
          <BackOfficeTable caption="Orders and revenue per day, the last 30 days (UTC)">
            <thead className={tableHeadClasses}>
              <tr>
                <th scope="col" className="px-3 py-2">
                  Day (UTC)
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Orders
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Revenue
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.day}>
                  <th scope="row" className={`${tableCellClasses} font-medium`}>
                    <time dateTime={day.day}>{shortDay(day.day)}</time>
                  </th>
                  <td className={`${tableCellClasses} text-right tabular-nums`}>{day.orders}</td>
                  <td className={`${tableCellClasses} text-right tabular-nums`}>
                    {formatAmount(day.revenueCents)}
                  </td>
                </tr>
              ))}
            </tbody>
          </BackOfficeTable>
        </div>
      </details>
    </section>
  );
}
