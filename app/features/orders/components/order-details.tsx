import type { ReactNode } from "react";
import { Link } from "react-router";
import { useAmountFormat } from "~/commerce/use-money";
import { buttonClasses } from "~/components/ui/button";
import { useShopperLocale } from "~/utils/locale";
import { orderDate } from "../order-format";
import type { OrderPageData } from "../order-view.server";
import { CardPaymentStatus } from "./card-payment-status";
import { LineOptions } from "./line-options";
import { OrderTotals } from "./order-totals";

function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id={id} className="text-xl font-bold text-slate-900">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The page's heading, by the order's status. */
const HEADINGS: Readonly<Record<string, string>> = {
  "awaiting-payment": "Your order is waiting for payment",
  placed: "Thank you for your order",
  paid: "Thank you for your order",
  shipped: "Your order is on its way",
  cancelled: "This order is cancelled",
};

/**
 * An order's confirmation and status (/orders/<number>): what was ordered at
 * which prices, the totals (prices include tax), where it goes and how to
 * pay. Every part reflows to one column on a phone; long names and address
 * lines wrap rather than run off the screen.
 */
export function OrderDetails({ order }: { order: OrderPageData }) {
  const formatAmount = useAmountFormat();
  const locale = useShopperLocale();
  return (
    <main id="main" className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6">
      <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">Order {order.number}</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900">
        {HEADINGS[order.state] ?? HEADINGS.placed}
      </h1>
      <dl className="mt-6 grid gap-x-8 gap-y-3 rounded-2xl bg-indigo-50 p-5 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-slate-600">Order number</dt>
          <dd className="font-semibold text-slate-900">{order.number}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">Placed on</dt>
          <dd className="font-semibold text-slate-900">{orderDate(order.placedAt, locale)}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">Status</dt>
          <dd className="font-semibold text-slate-900">{order.status}</dd>
        </div>
      </dl>

      {order.card && order.state === "awaiting-payment" ? (
        <section
          aria-labelledby="order-pay"
          className="mt-6 rounded-2xl border-2 border-indigo-600 bg-white p-5 sm:p-6"
        >
          <h2 id="order-pay" className="text-xl font-bold text-slate-900">
            Pay for your order
          </h2>
          <div className="mt-3">
            <CardPaymentStatus card={order.card} />
          </div>
        </section>
      ) : null}

      <div className="mt-8 space-y-8">
        <Panel id="order-lines" title="What you ordered">
          <ul className="divide-y divide-slate-200">
            {order.lines.map((line) => (
              <li key={line.variantId} className="flex flex-wrap items-baseline justify-between gap-x-4 py-3">
                <div className="min-w-0">
                  <p className="font-semibold break-words text-slate-900">{line.name}</p>
                  <LineOptions options={line.options} />
                  <p className="text-sm text-slate-600">
                    {formatAmount(line.unitPriceCents, order.currency)} each · Quantity {line.quantity}
                  </p>
                </div>
                <p className="font-semibold text-slate-900 tabular-nums">
                  {formatAmount(line.lineTotalCents, order.currency)}
                </p>
              </li>
            ))}
          </ul>
          <OrderTotals
            order={order}
            className="mt-4 space-y-2 border-t border-slate-200 pt-4"
            totalClassName="text-lg font-bold text-slate-900"
          />
        </Panel>

        <div className="grid gap-8 sm:grid-cols-2">
          <Panel id="order-shipping" title="Shipping to">
            <address className="break-words text-slate-800 not-italic">
              {order.address.map((line, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one address, in order, never reordered
                <span key={index} className="block">
                  {line}
                </span>
              ))}
            </address>
            <p className="mt-3 text-slate-700">{order.shippingMethod}</p>
          </Panel>
          <Panel id="order-payment" title="Payment">
            <p className="font-semibold text-slate-900">{order.payment.label}</p>
            {order.card && order.state !== "awaiting-payment" ? (
              <div className="mt-2">
                <CardPaymentStatus card={order.card} />
              </div>
            ) : null}
            {order.card && order.state === "awaiting-payment" ? (
              <p className="mt-2 text-slate-700">Not paid yet: pay on Stripe's secure page (above).</p>
            ) : null}
            {order.card
              ? null
              : order.payment.paragraphs.map((paragraph) => (
                  <p key={paragraph} className="mt-2 text-slate-700">
                    {paragraph}
                  </p>
                ))}
            {order.payment.details.length > 0 ? (
              <p className="mt-3 rounded-lg bg-slate-100 p-3 font-mono text-sm break-words text-slate-900">
                {order.payment.details.map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
              </p>
            ) : null}
          </Panel>
        </div>
      </div>

      <p className="mt-10">
        <Link to="/" className={buttonClasses("primary")}>
          Continue shopping
        </Link>
      </p>
    </main>
  );
}
