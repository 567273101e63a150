import { Form } from "react-router";
import { useAmountFormat } from "~/commerce/use-money";
import {
  BackOfficeTable,
  tableCellClasses,
  tableHeadClasses,
} from "~/components/back-office/back-office-page";
import { buttonClasses } from "~/components/ui/button";
import { useShopperLocale } from "~/utils/locale";
import type { AdminCardPayment } from "../card-payments/card-payment-view.server";
import type { AdminOrderPageData } from "../order-admin-view.server";
import { adminDateTime } from "./admin-order-status";

const STATUS_WORDS: Readonly<Record<string, string>> = {
  open: "Open: not paid yet",
  paid: "Paid",
  expired: "Expired unpaid",
  failed: "Failed",
  refunded: "Refunded",
};

/**
 * A card order's payments in the back office: every Stripe Checkout session
 * it had (Stripe's session and payment ids, the amount, when it was opened,
 * paid, refunded), a payment that needs a refund said in words, and for
 * each payment that may be refunded a Refund button behind a confirmation —
 * a disclosure that works with the keyboard and without JavaScript.
 */
export function AdminCardPayments({
  order,
  payments,
  mayRefund,
}: {
  order: AdminOrderPageData;
  payments: AdminCardPayment[];
  mayRefund: boolean;
}) {
  const formatAmount = useAmountFormat();
  const locale = useShopperLocale();
  const when = (iso: string | null) => (iso ? `${adminDateTime(iso, locale)} UTC` : "—");
  if (payments.length === 0) {
    return <p className="text-slate-700">No Stripe Checkout session was opened for this order.</p>;
  }
  const toRefund = payments.filter((payment) => payment.needsRefund);
  return (
    <div className="space-y-4">
      {toRefund.length > 0 ? (
        <p className="rounded-lg border border-amber-400 bg-amber-50 px-3 py-2 font-medium text-amber-950">
          <span aria-hidden="true">⚠ </span>
          Needs a refund:{" "}
          {toRefund
            .map((payment) => formatAmount(payment.amountCents, payment.currency.toUpperCase()))
            .join(", ")}{" "}
          was paid by card for this order after it was cancelled or already paid. Refund it below.
        </p>
      ) : null}
      <BackOfficeTable caption={`Card payments of order ${order.number}`}>
        <thead className={tableHeadClasses}>
          <tr>
            <th scope="col" className="px-3 py-2">
              Attempt
            </th>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Amount
            </th>
            <th scope="col" className="px-3 py-2">
              Stripe ids
            </th>
            <th scope="col" className="px-3 py-2">
              When
            </th>
          </tr>
        </thead>
        <tbody>
          {payments.map((payment) => (
            <tr key={payment.id}>
              <td className={tableCellClasses}>{payment.attempt}</td>
              <td className={tableCellClasses}>
                {STATUS_WORDS[payment.status] ?? payment.status}
                {payment.needsRefund ? " (to refund)" : ""}
              </td>
              <td className={`${tableCellClasses} text-right tabular-nums`}>
                {formatAmount(payment.amountCents, payment.currency.toUpperCase())}
              </td>
              <td className={`${tableCellClasses} font-mono text-sm break-all`}>
                <span className="block">Session {payment.checkoutSessionId}</span>
                {payment.paymentIntentId ? (
                  <span className="block">Payment {payment.paymentIntentId}</span>
                ) : null}
                {payment.refundId ? <span className="block">Refund {payment.refundId}</span> : null}
              </td>
              <td className={`${tableCellClasses} text-sm`}>
                <span className="block">Opened {when(payment.openedAt)}</span>
                {payment.paidAt ? <span className="block">Paid {when(payment.paidAt)}</span> : null}
                {payment.refundedAt ? (
                  <span className="block">Refunded {when(payment.refundedAt)}</span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </BackOfficeTable>
      {mayRefund ? (
        payments
          .filter((payment) => payment.refundable)
          .map((payment) => <RefundForm key={payment.id} order={order} payment={payment} />)
      ) : payments.some((payment) => payment.refundable) ? (
        <p className="text-slate-700">Only an owner of the shop can refund a card payment.</p>
      ) : null}
    </div>
  );
}

function RefundForm({ order, payment }: { order: AdminOrderPageData; payment: AdminCardPayment }) {
  const formatAmount = useAmountFormat();
  const amount = formatAmount(payment.amountCents, payment.currency.toUpperCase());
  const consequence = payment.needsRefund
    ? "The order stays as it is."
    : "The order is cancelled and its stock put back.";
  return (
    <details className="rounded-lg border border-slate-300 bg-white p-4">
      <summary className="cursor-pointer font-semibold text-slate-900">
        Refund {amount} (attempt {payment.attempt}) to the card…
      </summary>
      <Form method="post" className="mt-3 space-y-3">
        <input type="hidden" name="intent" value="refund" />
        <input type="hidden" name="shownStatus" value={order.status} />
        <input type="hidden" name="paymentId" value={payment.id} />
        <p id={`refund-${payment.id}-hint`} className="text-sm text-slate-700">
          Stripe returns the whole payment to the customer's card. {consequence} The customer is emailed. This
          cannot be undone.
        </p>
        <button
          type="submit"
          aria-describedby={`refund-${payment.id}-hint`}
          className={buttonClasses("danger", "md", "w-full sm:w-auto")}
        >
          Refund {amount} through Stripe
        </button>
      </Form>
    </details>
  );
}
