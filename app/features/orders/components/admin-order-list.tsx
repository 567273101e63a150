import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { ORDER_STATUSES, STATUS_LABELS } from "~/commerce/order-states";
import {
  BackOfficeTable,
  OrderNumberCell,
  OrderTotalCell,
  TableHead,
  tableCellClasses,
} from "~/components/back-office/back-office-page";
import { buttonClasses } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import { useShopperLocale } from "~/utils/locale";
import type { AdminOrderListData } from "../order-search.server";
import { AdminOrderStatus, adminDateTime } from "./admin-order-status";

export const FILTER_INPUT =
  "block h-11 w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-sm outline-none " +
  "focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30";

/** The filters in the order they appear: the first one in error takes the focus. */
const FILTER_ORDER = ["q", "status", "from", "to", "page"] as const;

/** The list's address with these filters and page (empty ones left out). */
function orderListHref(filters: AdminOrderListData["filters"], page = 1): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  if (page > 1) query.set("page", String(page));
  const search = query.toString();
  return search ? `/admin/orders?${search}` : "/admin/orders";
}

/**
 * The back office's orders: a search and filter form (a GET: the URL is the
 * list's state, and it works without JavaScript), then the orders, newest
 * first, each number linking to its page, and the pages.
 */
export function AdminOrderList({ list }: { list: AdminOrderListData }) {
  const locale = useShopperLocale();
  const problems: Record<string, string | undefined> = list.problems;
  const firstProblem = FILTER_ORDER.find((name) => problems[name]);
  const filtered = Object.values(list.filters).some(Boolean);
  return (
    <div className="space-y-6">
      <Form method="get" action="/admin/orders" className="rounded-lg border border-slate-300 bg-white p-4">
        {problems.page ? (
          <p
            id="page-problem"
            tabIndex={-1}
            // biome-ignore lint/a11y/noAutofocus: the one problem, focused as the page comes back
            autoFocus={firstProblem === "page"}
            className="mb-3 text-sm font-medium text-red-700"
          >
            {problems.page}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <FilterField
            name="q"
            label="Search orders"
            hint="Order number, email or name"
            list={list}
            focus={firstProblem}
          >
            {(props) => <input {...props} type="search" defaultValue={list.filters.q} />}
          </FilterField>
          <FilterField name="status" label="Status" list={list} focus={firstProblem}>
            {(props) => (
              <select {...props} defaultValue={list.filters.status}>
                <option value="">Any status</option>
                {ORDER_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {STATUS_LABELS[status]}
                  </option>
                ))}
              </select>
            )}
          </FilterField>
          <FilterField name="from" label="Placed from" list={list} focus={firstProblem}>
            {(props) => <input {...props} type="date" defaultValue={list.filters.from} />}
          </FilterField>
          <FilterField name="to" label="Placed to (inclusive)" list={list} focus={firstProblem}>
            {(props) => <input {...props} type="date" defaultValue={list.filters.to} />}
          </FilterField>
        </div>
        <div className="mt-4 flex flex-wrap gap-2">
          <button type="submit" className={buttonClasses("primary", "md")}>
            Show orders
          </button>
          {filtered ? (
            <Link to="/admin/orders" className={buttonClasses("secondary", "md")}>
              Clear filters
            </Link>
          ) : null}
        </div>
      </Form>

      <p role="status" className="text-sm text-slate-700">
        {list.ok ? orderCountWords(list.total, filtered) : "Fix the filter above to see orders."}
      </p>

      {list.orders.length > 0 ? (
        <BackOfficeTable caption="Orders, newest first">
          <TableHead
            columns={[
              { label: "Order" },
              { label: "Placed (UTC)" },
              { label: "Customer" },
              { label: "Status" },
              { label: "Total", numeric: true },
            ]}
          />
          <tbody>
            {list.orders.map((order) => (
              <tr key={order.number}>
                <OrderNumberCell number={order.number} />
                <td className={`${tableCellClasses} whitespace-nowrap`}>
                  {adminDateTime(order.placedAt, locale)}
                </td>
                <td className={tableCellClasses}>
                  <span className="block font-medium text-slate-900">{order.name}</span>
                  <span className="block break-all text-slate-700">{order.email}</span>
                </td>
                <td className={tableCellClasses}>
                  <AdminOrderStatus status={order.status} label={order.statusLabel} />
                  <span className="mt-1 block text-xs text-slate-700">{order.paymentMethod}</span>
                </td>
                <OrderTotalCell totalCents={order.totalCents} currency={order.currency} />
              </tr>
            ))}
          </tbody>
        </BackOfficeTable>
      ) : list.ok && list.page > 1 ? (
        <p className="text-slate-700">
          There is no page {list.page} of these orders.{" "}
          <Link
            to={orderListHref(list.filters)}
            className="font-semibold text-indigo-700 underline underline-offset-4"
          >
            Go to the first page
          </Link>
        </p>
      ) : null}

      <Pagination
        page={list.page}
        totalPages={list.totalPages}
        hrefFor={(page) => orderListHref(list.filters, page)}
        label="Pages of orders"
      />
    </div>
  );
}

function orderCountWords(total: number, filtered: boolean): string {
  if (total === 0) return filtered ? "No order matches these filters." : "No orders yet.";
  const orders = total === 1 ? "1 order" : `${total.toLocaleString("en-US")} orders`;
  return filtered ? `${orders} match these filters.` : `${orders} in all.`;
}

/** A labelled filter with its problem (from the URL's parameter of the same name) beside it. */
function FilterField({
  name,
  label,
  hint,
  list,
  focus,
  children,
}: {
  name: string;
  label: string;
  hint?: string;
  list: AdminOrderListData;
  focus: string | undefined;
  children: (props: Record<string, unknown>) => ReactNode;
}) {
  const problem = (list.problems as Record<string, string | undefined>)[name];
  const described = [problem ? `${name}-problem` : null, hint ? `${name}-hint` : null]
    .filter(Boolean)
    .join(" ");
  return (
    <div>
      <label htmlFor={`filter-${name}`} className="block text-sm font-semibold text-slate-800">
        {label}
      </label>
      <div className="mt-1.5">
        {children({
          id: `filter-${name}`,
          name,
          className: `${FILTER_INPUT} ${problem ? "border-red-600" : "border-slate-500"}`,
          "aria-invalid": problem ? true : undefined,
          "aria-describedby": described || undefined,
          autoFocus: focus === name ? true : undefined,
        })}
      </div>
      {problem ? (
        <p id={`${name}-problem`} className="mt-1.5 text-sm font-medium text-red-700">
          {problem}
        </p>
      ) : null}
      {hint ? (
        <p id={`${name}-hint`} className="mt-1.5 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
