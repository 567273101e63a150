import { Form, Link } from "react-router";
import {
  BackOfficeTable,
  tableCellClasses,
  tableHeadClasses,
} from "~/components/back-office/back-office-page";
import { buttonClasses } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import type { CustomerListData } from "../customers.server";
import { AmountSpent } from "./amount-spent";

const INPUT =
  "block h-11 w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-sm outline-none " +
  "focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30";

function listHref(q: string, page = 1): string {
  const query = new URLSearchParams();
  if (q) query.set("q", q);
  if (page > 1) query.set("page", String(page));
  const search = query.toString();
  return search ? `/admin/customers?${search}` : "/admin/customers";
}

/**
 * The shop's customers (accounts): a search by email or name (a GET, so it
 * works without JavaScript and the URL is the list's state), then each
 * customer with their orders and what they spent, newest account first.
 */
export function CustomerList({ list }: { list: CustomerListData }) {
  const problems: Record<string, string | undefined> = list.problems;
  const problem = problems.q ?? problems.page;
  return (
    <div className="space-y-6">
      <Form
        method="get"
        action="/admin/customers"
        role="search"
        className="rounded-lg border border-slate-300 bg-white p-4"
      >
        <label htmlFor="customer-search" className="block text-sm font-semibold text-slate-800">
          Search customers
        </label>
        <div className="mt-1.5 flex flex-wrap gap-2">
          <input
            id="customer-search"
            name="q"
            type="search"
            defaultValue={list.q}
            aria-describedby={
              problem ? "customer-search-problem customer-search-hint" : "customer-search-hint"
            }
            aria-invalid={problem ? true : undefined}
            // biome-ignore lint/a11y/noAutofocus: the field the URL got wrong, focused as the page comes back
            autoFocus={Boolean(problem)}
            className={`${INPUT} min-w-0 flex-1 basis-56 ${problem ? "border-red-600" : "border-slate-500"}`}
          />
          <button type="submit" className={buttonClasses("primary", "md")}>
            Search
          </button>
        </div>
        {problem ? (
          <p id="customer-search-problem" className="mt-1.5 text-sm font-medium text-red-700">
            {problem}
          </p>
        ) : null}
        <p id="customer-search-hint" className="mt-1.5 text-sm text-slate-600">
          Email or name. Guests have no account: find their orders by email on{" "}
          <Link to="/admin/orders" className="font-semibold text-indigo-700 underline underline-offset-4">
            Orders
          </Link>
          .
        </p>
      </Form>

      <p role="status" className="text-sm text-slate-700">
        {list.total === 0
          ? list.q
            ? "No customer matches this search."
            : "No customers yet."
          : list.total === 1
            ? `1 customer${list.q ? " matches this search." : " in all."}`
            : `${list.total.toLocaleString("en-US")} customers${list.q ? " match this search." : " in all."}`}
      </p>

      {list.customers.length > 0 ? (
        <BackOfficeTable caption="Customers, newest account first">
          <thead className={tableHeadClasses}>
            <tr>
              <th scope="col" className="px-3 py-2">
                Customer
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Orders
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Total spent
              </th>
            </tr>
          </thead>
          <tbody>
            {list.customers.map((customer) => (
              <tr key={customer.id}>
                <td className={tableCellClasses}>
                  <Link
                    to={`/admin/customers/${encodeURIComponent(customer.id)}`}
                    className="font-semibold text-indigo-700 underline underline-offset-4"
                  >
                    {customer.name || "(no name)"}
                  </Link>
                  <span className="block break-all text-slate-700">{customer.email}</span>
                </td>
                <td className={`${tableCellClasses} text-right tabular-nums`}>{customer.orderCount}</td>
                <td className={`${tableCellClasses} text-right tabular-nums`}>
                  <AmountSpent spent={customer.spent} />
                </td>
              </tr>
            ))}
          </tbody>
        </BackOfficeTable>
      ) : null}

      <Pagination
        page={list.page}
        totalPages={list.totalPages}
        hrefFor={(page) => listHref(list.q, page)}
        label="Pages of customers"
      />
    </div>
  );
}
