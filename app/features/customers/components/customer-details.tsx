import {
  BackOfficeTable,
  OrderNumberCell,
  OrderTotalCell,
  TableHead,
  tableCellClasses,
} from "~/components/back-office/back-office-page";
import { Pagination } from "~/components/ui/pagination";
import { useShopperLocale } from "~/utils/locale";
import type { CustomerPageData } from "../customers.server";
import { AmountSpent } from "./amount-spent";

const DATES = new Map<string, Intl.DateTimeFormat>();

function dayOf(iso: string, locale: string): string {
  let format = DATES.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
    DATES.set(locale, format);
  }
  return format.format(new Date(iso));
}

/** A customer's orders as the page lists them: the status already in words (the orders feature's). */
export type CustomerOrderRow = CustomerPageData["orders"][number] & { statusLabel: string };

/**
 * One customer (/admin/customers/<id>): who they are, how many orders and
 * what they spent, and their orders, newest first, each linking to its page
 * in the back office.
 */
export function CustomerDetails({
  customer,
  orders,
  page,
  totalPages,
}: Omit<CustomerPageData, "orders" | "badPage"> & { orders: CustomerOrderRow[] }) {
  const locale = useShopperLocale();
  return (
    <div className="space-y-6">
      <dl className="grid gap-4 rounded-lg border border-slate-300 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <dt className="text-sm text-slate-700">Email</dt>
          <dd className="font-medium break-all text-slate-900">{customer.email}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">Customer since</dt>
          <dd className="font-medium text-slate-900">{dayOf(customer.since, locale)}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">Orders</dt>
          <dd className="font-medium text-slate-900 tabular-nums">{customer.orderCount}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">Total spent (cancelled orders left out)</dt>
          <dd className="font-medium text-slate-900 tabular-nums">
            <AmountSpent spent={customer.spent} />
          </dd>
        </div>
      </dl>

      <section aria-labelledby="customer-orders" className="space-y-3">
        <h2 id="customer-orders" className="text-lg font-bold text-slate-900">
          Orders
        </h2>
        {orders.length === 0 ? (
          <p className="text-slate-700">
            {page > 1 ? `There is no page ${page} of this customer's orders.` : "No orders yet."}
          </p>
        ) : (
          <BackOfficeTable caption={`Orders of ${customer.name || customer.email}, newest first`}>
            <TableHead
              columns={[
                { label: "Order" },
                { label: "Placed (UTC)" },
                { label: "Status" },
                { label: "Total", numeric: true },
              ]}
            />
            <tbody>
              {orders.map((order) => (
                <tr key={order.number}>
                  <OrderNumberCell number={order.number} />
                  <td className={tableCellClasses}>{dayOf(order.placedAt, locale)}</td>
                  <td className={tableCellClasses}>{order.statusLabel}</td>
                  <OrderTotalCell totalCents={order.totalCents} currency={order.currency} />
                </tr>
              ))}
            </tbody>
          </BackOfficeTable>
        )}
        <Pagination
          page={page}
          totalPages={totalPages}
          hrefFor={(to) =>
            to === 1
              ? `/admin/customers/${encodeURIComponent(customer.id)}`
              : `/admin/customers/${encodeURIComponent(customer.id)}?page=${to}`
          }
          label="Pages of this customer's orders"
        />
      </section>
    </div>
  );
}
