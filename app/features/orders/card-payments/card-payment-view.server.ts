import type { OrderStatus } from "~/commerce/order-states";
import type { Database } from "~/db/client.server";
import { type CardPaymentRow, paymentsOf } from "./card-payments.server";

/**
 * A card order's payment as its pages show it (docs/decisions/0032): to the
 * shopper, where their payment stands and what they can do (pay, pay again,
 * wait for Stripe's word); to the back office, every Checkout session the
 * order had, with Stripe's ids, the amounts and when.
 */

/** What the order's page says of a card payment, and offers. */
type ShopperCardState =
  /** Waiting for a payment: the Pay by card button. */
  | "to-pay"
  /** Back from Stripe's page, Stripe's word not here yet: the page looks again by itself. */
  | "confirming"
  /** The last attempt failed (a delayed method refused): pay again. */
  | "failed"
  /** Back from Stripe's page without paying: pay again. */
  | "left"
  /** Stripe did not answer when the payment was to be opened: try again. */
  | "unavailable"
  | "paid"
  /** Paid, then the order was cancelled: the money is on its way back. */
  | "refund-pending"
  | "refunded"
  /** Cancelled before any payment. */
  | "not-charged";

export interface ShopperCardPayment {
  state: ShopperCardState;
  amountCents: number;
  paidAt: string | null;
  refundedAt: string | null;
  /** When an unpaid order is cancelled (ISO), while it waits. */
  dueAt: string | null;
}

/** How the shopper came back to the order's page (`?payment=`), from Stripe's page or the checkout. */
const RETURNS = ["returned", "cancelled", "unavailable"] as const;
type Return = (typeof RETURNS)[number];

export function returnOf(url: URL): Return | null {
  const value = url.searchParams.get("payment");
  return (RETURNS as readonly string[]).includes(value ?? "") ? (value as Return) : null;
}

export async function shopperCardPayment(
  db: Database,
  order: { id: number; status: OrderStatus; totalCents: number; paymentDueAt: Date | null },
  back: Return | null,
): Promise<ShopperCardPayment> {
  const payments = await paymentsOf(db, order.id);
  const paid = payments.find((payment) => payment.status === "paid" && !payment.needsRefund);
  const refundPending = payments.find((payment) => payment.status === "paid" && payment.needsRefund);
  const refunded = payments.findLast((payment) => payment.status === "refunded");
  const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;
  const facts = {
    amountCents: order.totalCents,
    paidAt: iso((paid ?? refundPending ?? refunded)?.paidAt),
    refundedAt: iso(refunded?.refundedAt),
    dueAt: order.status === "awaiting-payment" ? iso(order.paymentDueAt) : null,
  };
  return { state: stateOf(order.status, payments, { paid, refundPending, refunded }, back), ...facts };
}

function stateOf(
  status: OrderStatus,
  payments: CardPaymentRow[],
  found: { paid?: CardPaymentRow; refundPending?: CardPaymentRow; refunded?: CardPaymentRow },
  back: Return | null,
): ShopperCardState {
  if (status === "awaiting-payment") {
    const last = payments.at(-1);
    // What Stripe said wins over how the shopper came back: a failed payment is failed, whatever the address says.
    if (last?.status === "failed") return "failed";
    // Back from paying with the session still open: Stripe's word is on its way. With no open
    // session (it expired meanwhile), there is nothing to wait for: pay again.
    if (back === "returned" && last?.status === "open") return "confirming";
    if (back === "cancelled") return "left";
    if (back === "unavailable") return "unavailable";
    return "to-pay";
  }
  // The order's own state first: a paid order is paid, even if a second payment waits to be refunded.
  if (status === "paid" || status === "shipped") return "paid";
  if (found.refundPending) return "refund-pending";
  return found.refunded ? "refunded" : "not-charged";
}

/** One Checkout session of the order, for the back office. */
export interface AdminCardPayment {
  id: number;
  attempt: number;
  status: CardPaymentRow["status"];
  checkoutSessionId: string;
  paymentIntentId: string | null;
  amountCents: number;
  currency: string;
  openedAt: string;
  paidAt: string | null;
  refundedAt: string | null;
  refundId: string | null;
  /** Paid for an order that no longer wanted it, or for one cancelled since: the owner refunds it. */
  needsRefund: boolean;
  /** Whether the page offers its Refund button: a paid payment of an order not shipped, or a flagged one. */
  refundable: boolean;
}

export async function adminCardPayments(
  db: Database,
  order: { id: number; status: OrderStatus },
): Promise<AdminCardPayment[]> {
  const payments = await paymentsOf(db, order.id);
  return payments.map((payment) => ({
    id: payment.id,
    attempt: payment.attempt,
    status: payment.status,
    checkoutSessionId: payment.checkoutSessionId,
    paymentIntentId: payment.paymentIntentId,
    amountCents: payment.amountCents,
    currency: payment.currency,
    openedAt: payment.createdAt.toISOString(),
    paidAt: payment.paidAt?.toISOString() ?? null,
    refundedAt: payment.refundedAt?.toISOString() ?? null,
    refundId: payment.refundId,
    needsRefund: payment.needsRefund,
    refundable:
      payment.status === "paid" &&
      payment.paymentIntentId !== null &&
      (payment.needsRefund || order.status === "paid"),
  }));
}
