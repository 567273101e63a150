import type { ReactNode } from "react";
import { Link } from "react-router";
import { useAmountFormat } from "~/commerce/use-money";
import {
  BackOfficePage,
  BackOfficeTable,
  tableCellClasses,
  tableHeadClasses,
} from "~/components/back-office/back-office-page";
import { useFocusWhenShown } from "~/components/forms/use-focus-when-shown";
import { useShopperLocale } from "~/utils/locale";
import type { AdminOrderPageData } from "../order-admin-view.server";
import { AdminCardPayments } from "./admin-card-payments";
import { AdminOrderActions, answerMessage, type OrderActionAnswer } from "./admin-order-actions";
import { AdminOrderStatus, adminDateTime } from "./admin-order-status";
import { LineOptions } from "./line-options";
import { OrderTotals } from "./order-totals";

const DONE_WORDS: Readonly<Record<string, string>> = {
  paid: "Marked paid. The customer was sent an email.",
  shipped: "Marked shipped. The customer was sent an email.",
  cancelled: "Cancelled, and its stock put back. The customer was sent an email.",
};

function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-300 bg-white p-4 sm:p-5">
      <h2 id={id} className="text-lg font-bold text-slate-900">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-slate-700">{term}</dt>
      <dd className="font-medium wrap-anywhere text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * One order in the back office (/admin/orders/BL-7Q4K9): what was done just
 * now or why it was refused, the actions that fit, the lines and totals,
 * the customer, shipping and payment, and the timeline of its changes.
 */
export function AdminOrderPage({
  order,
  changed,
  mayRefund,
  answer,
}: {
  order: AdminOrderPageData;
  /** Owners only: staff see the payments, not the Refund button. */
  mayRefund: boolean;
  /** The status just set (the redirect's `?changed=`). */
  changed: string | null;
  answer: OrderActionAnswer | undefined;
}) {
  const locale = useShopperLocale();
  const refusal = answerMessage(answer);
  // With JavaScript the answer comes without a page load: the message takes the focus as it is shown.
  const refusalRef = useFocusWhenShown<HTMLParagraphElement>(refusal ? answer : null);
  const done =
    changed === "refunded"
      ? "Refunded through Stripe. The customer was sent an email."
      : changed && changed === order.status
        ? DONE_WORDS[changed]
        : undefined;
  return (
    <BackOfficePage
      title={`Order ${order.number}`}
      intro={
        <span className="flex flex-wrap items-center gap-2">
          <AdminOrderStatus status={order.status} label={order.statusLabel} />
          <span>Placed {adminDateTime(order.placedAt, locale)} UTC</span>
        </span>
      }
      actions={
        <Link to="/admin/orders" className="font-semibold text-indigo-700 underline underline-offset-4">
          All orders
        </Link>
      }
    >
      <div className="space-y-6">
        {refusal ? (
          <p
            ref={refusalRef}
            // The reason the change was refused: where the focus goes, with or without JavaScript.
            tabIndex={-1}
            // biome-ignore lint/a11y/noAutofocus: a refused action's message, focused as the page comes back
            autoFocus
            role="alert"
            className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 font-medium text-red-800"
          >
            {refusal}
          </p>
        ) : null}
        <p
          role="status"
          className={
            done
              ? "rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 font-medium text-emerald-900"
              : "sr-only"
          }
        >
          {done ?? ""}
        </p>

        <Panel id="order-actions" title="Actions">
          <AdminOrderActions order={order} answer={answer} />
        </Panel>

        {order.cardPayments ? (
          <Panel id="order-card-payments" title="Card payments (Stripe)">
            <AdminCardPayments order={order} payments={order.cardPayments} mayRefund={mayRefund} />
          </Panel>
        ) : null}

        <OrderLines order={order} />

        <div className="grid gap-6 lg:grid-cols-2">
          <Panel id="order-customer" title="Customer">
            <dl className="space-y-3">
              <Fact term="Email">{order.email}</Fact>
              <Fact term="Account">
                {order.customer ? (
                  <Link
                    to={`/admin/customers/${encodeURIComponent(order.customer.id)}`}
                    className="text-indigo-700 underline underline-offset-4"
                  >
                    {order.customer.name}
                  </Link>
                ) : (
                  "None: placed as a guest"
                )}
              </Fact>
            </dl>
          </Panel>
          <Panel id="order-shipping" title="Shipping and payment">
            <dl className="space-y-3">
              <Fact term="Address">
                {order.address.map((line, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: an address's lines are fixed in order
                  <span key={index} className="block">
                    {line}
                  </span>
                ))}
              </Fact>
              <Fact term="Shipping method">{order.shippingMethod}</Fact>
              <Fact term="Tracking number">{order.trackingNumber ?? "None given"}</Fact>
              <Fact term="Payment method">{order.paymentMethod}</Fact>
              <Fact term="Invoice">
                {order.documents.length === 0
                  ? "None yet: issued once the order is paid"
                  : order.documents.map((document) => (
                      <span key={document.number} className="block">
                        {`${document.kind} ${document.number}, `}
                        <time dateTime={document.issuedAt}>
                          {adminDateTime(document.issuedAt, locale)} UTC
                        </time>
                      </span>
                    ))}
              </Fact>
            </dl>
          </Panel>
        </div>

        <Panel id="order-timeline" title="Timeline">
          <ol className="space-y-3 border-l-2 border-slate-300 pl-4">
            {order.timeline.map((entry, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the timeline only grows at its end
              <li key={index}>
                <p className="font-semibold text-slate-900">
                  {entry.change} <span className="font-normal text-slate-700">by {entry.by}</span>
                </p>
                <p className="text-sm text-slate-700">
                  <time dateTime={entry.at}>{adminDateTime(entry.at, locale)} UTC</time>
                  {entry.detail ? ` · ${entry.detail}` : null}
                </p>
              </li>
            ))}
          </ol>
        </Panel>
      </div>
    </BackOfficePage>
  );
}

/** The lines as sold, and the totals. */
function OrderLines({ order }: { order: AdminOrderPageData }) {
  const formatAmount = useAmountFormat();
  return (
    <Panel id="order-lines" title="Lines">
      <BackOfficeTable caption={`Lines of order ${order.number}`}>
        <thead className={tableHeadClasses}>
          <tr>
            <th scope="col" className="px-3 py-2">
              Product
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Unit price
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Quantity
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Line total
            </th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((line) => (
            <tr key={line.variantId}>
              <td className={`${tableCellClasses} break-words`}>
                {line.name}
                <LineOptions options={line.options} />
                <span className="block text-sm text-slate-700">{`SKU ${line.sku}`}</span>
              </td>
              <td className={`${tableCellClasses} text-right tabular-nums`}>
                {formatAmount(line.unitPriceCents, order.currency)}
              </td>
              <td className={`${tableCellClasses} text-right tabular-nums`}>{line.quantity}</td>
              <td className={`${tableCellClasses} text-right tabular-nums`}>
                {formatAmount(line.lineTotalCents, order.currency)}
              </td>
            </tr>
          ))}
        </tbody>
      </BackOfficeTable>
      <OrderTotals
        order={order}
        className="mt-4 ml-auto max-w-xs space-y-1"
        totalClassName="font-bold text-slate-900"
      />
    </Panel>
  );
}
