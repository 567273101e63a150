import { Link } from "react-router";
import { useAmountFormat } from "~/commerce/use-money";
import type { Dashboard, PeriodFigures } from "../dashboard.server";

/** A count the dashboard stopped at its bound reads "10,000 or more". */
const counted = (n: number, upTo: number) => `${n.toLocaleString("en-US")}${n >= upTo ? " or more" : ""}`;

const linkClasses = "font-semibold text-indigo-700 underline underline-offset-4 hover:text-indigo-900";

function Period({ title, figures, currency }: { title: string; figures: PeriodFigures; currency: string }) {
  const formatAmount = useAmountFormat();
  return (
    <div className="rounded-lg border border-slate-300 p-4">
      <h3 className="text-sm font-semibold text-slate-700">{title}</h3>
      <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1">
        <div>
          <dt className="text-sm text-slate-700">Orders</dt>
          <dd className="text-2xl font-bold text-slate-900 tabular-nums">
            {figures.orders.toLocaleString("en-US")}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">Revenue</dt>
          <dd className="text-2xl font-bold text-slate-900 tabular-nums">
            {formatAmount(figures.revenueCents, currency)}
          </dd>
        </div>
      </dl>
      {figures.otherCurrencySales > 0 ? (
        <p className="mt-2 text-sm text-slate-700">
          {figures.otherCurrencySales.toLocaleString("en-US")}{" "}
          {figures.otherCurrencySales === 1 ? "sale" : "sales"} in another currency, not in this revenue.
        </p>
      ) : null}
    </div>
  );
}

/** Orders and revenue today, over 7 and over 30 days (UTC days; revenue without cancelled orders). */
export function DashboardPeriods({ dashboard }: { dashboard: Dashboard }) {
  const { periods } = dashboard;
  return (
    <section aria-labelledby="sales" className="space-y-3">
      <h2 id="sales" className="text-lg font-bold text-slate-900">
        Sales
      </h2>
      <p className="text-sm text-slate-700">
        Days are UTC days (today is <time dateTime={dashboard.today}>{dashboard.today}</time> UTC). Orders
        count every order placed; revenue is their totals with shipping in {dashboard.currency}, leaving out
        cancelled orders.
      </p>
      <div className="grid gap-3 sm:grid-cols-3">
        <Period title="Today" figures={periods.today} currency={dashboard.currency} />
        <Period title="Last 7 days" figures={periods.last7Days} currency={dashboard.currency} />
        <Period title="Last 30 days" figures={periods.last30Days} currency={dashboard.currency} />
      </div>
    </section>
  );
}

/** What needs someone: orders not yet paid or not yet shipped, and products running out. */
export function DashboardToDo({ dashboard }: { dashboard: Dashboard }) {
  const formatAmount = useAmountFormat();
  const { waiting, lowStock, countedUpTo } = dashboard;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section aria-labelledby="waiting" className="space-y-2 rounded-lg border border-slate-300 p-4">
        <h2 id="waiting" className="text-lg font-bold text-slate-900">
          Orders waiting for action
        </h2>
        <ul className="space-y-1 text-slate-900">
          <li>
            <Link to="/admin/orders?status=placed" className={linkClasses}>
              {counted(waiting.placed, countedUpTo)} placed, not yet paid
            </Link>
          </li>
          <li>
            <Link to="/admin/orders?status=paid" className={linkClasses}>
              {counted(waiting.paid, countedUpTo)} paid, not yet shipped
            </Link>
          </li>
        </ul>
        {waiting.oldest.length > 0 ? (
          <>
            <h3 className="pt-2 text-sm font-semibold text-slate-700">Waiting longest for payment</h3>
            <ul className="space-y-1 text-sm text-slate-900">
              {waiting.oldest.map((order) => (
                <li key={order.number}>
                  <Link to={`/admin/orders/${order.number}`} className={linkClasses}>
                    {order.number}
                  </Link>{" "}
                  — {formatAmount(order.totalCents, order.currency)}, placed{" "}
                  <time dateTime={order.placedAt}>{order.placedAt.slice(0, 16).replace("T", " ")} UTC</time>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {dashboard.toRefund.length > 0 ? (
          <>
            <h3 className="pt-2 text-sm font-semibold text-slate-700">Card payments to refund</h3>
            <ul className="space-y-1 text-sm text-slate-900">
              {dashboard.toRefund.map((payment) => (
                <li key={`${payment.number}-${payment.amountCents}`}>
                  <Link to={`/admin/orders/${payment.number}`} className={linkClasses}>
                    {payment.number}
                  </Link>{" "}
                  — {formatAmount(payment.amountCents, payment.currency)} to give back to the card
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
      <section aria-labelledby="low-stock" className="space-y-2 rounded-lg border border-slate-300 p-4">
        <h2 id="low-stock" className="text-lg font-bold text-slate-900">
          Low stock
        </h2>
        <p className="text-sm text-slate-700">
          <Link to="/admin/products?stock=low" className={linkClasses}>
            {counted(lowStock.count, countedUpTo)} {lowStock.count === 1 ? "product has" : "products have"}{" "}
            {lowStock.at} or fewer on hand
          </Link>
        </p>
        {lowStock.products.length > 0 ? (
          <ul className="space-y-1 text-sm text-slate-900">
            {lowStock.products.map((product) => (
              <li key={product.variantId} className="flex flex-wrap justify-between gap-x-3">
                <Link to={`/admin/products/${product.id}`} className={`${linkClasses} break-words`}>
                  {product.options ? `${product.name}, ${product.options}` : product.name}
                </Link>
                <span className="tabular-nums">
                  {product.onHand === 0 ? "Out of stock" : `${product.onHand} on hand`}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}
