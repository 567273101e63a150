import { and, eq } from "drizzle-orm";
import { documentsForStatus } from "~/commerce/order-documents.server";
import { nextStatus } from "~/commerce/order-states";
import { formatAmount } from "~/commerce/shop-money.server";
import type { Transaction } from "~/db/client.server";
import { retryingLockCycles } from "~/db/errors.server";
import { cardPayments, orders } from "~/db/schema";
import { type Actor, productName, recordChange } from "~/utils/audit-log.server";
import { logFailure } from "~/utils/logger.server";
import type { QueuedMessage } from "~/utils/mail-queue.server";
import { type LockedOrder, lockedOrder } from "../locked-order.server";
import { recordOrderEvent } from "../order-events.server";
import { returnStock } from "../order-stock.server";
import type { OrderServices } from "../orders.server";
import { refundedEmail } from "./card-payment-emails.server";
import { type CardPaymentRow, lockedPayment } from "./card-payments.server";

/**
 * A card payment refunded in full through Stripe, from the order's page in
 * the back office (docs/decisions/0040). In three steps, so that no failure
 * leaves money taken for an order that will not be sent, nor stock sold
 * twice:
 *
 * 1. One transaction: the order's row and the payment's locked; an order
 *    still to be sent (paid, not shipped) is cancelled and its stock put
 *    back; the payment is marked as waiting for its refund.
 * 2. Stripe refunds the payment, with an idempotency key of its own: two
 *    staff, a retry after a lost answer, all make one refund.
 * 3. One transaction: the payment is marked refunded (once), the timeline,
 *    the audit log and the shopper's email written.
 *
 * If Stripe does not answer at step 2, the order stays cancelled and the
 * payment flagged "to refund"; the same button tries again.
 */

type AddMessage = (message: QueuedMessage) => Promise<void>;

type Deps = Pick<OrderServices, "mail" | "linkSecret" | "baseUrl" | "card">;

export type RefundOutcome =
  | { outcome: "refunded"; amountCents: number }
  | { outcome: "refused"; message: string }
  | { outcome: "not-found" };

/** Thrown inside a transaction to roll it back with the refusal's words. */
class Refused extends Error {}

export async function refundCardPayment(
  deps: Deps,
  actor: Actor,
  request: { number: string; paymentId: number },
): Promise<RefundOutcome> {
  const { card } = deps;
  if (!card) return { outcome: "refused", message: "Card payments are not turned on in this shop." };
  let claimed: { order: LockedOrder; payment: CardPaymentRow } | null;
  try {
    claimed = await retryingLockCycles(() =>
      deps.mail.transaction((tx) => claimRefund(tx, actor, request.number, request.paymentId)),
    );
  } catch (error) {
    if (error instanceof Refused) return { outcome: "refused", message: error.message };
    throw error;
  }
  if (!claimed) return { outcome: "not-found" };
  const { payment } = claimed;
  if (!payment.paymentIntentId) {
    return { outcome: "refused", message: "Stripe never said which payment this was: refund it in Stripe." };
  }

  const notConfirmed = {
    outcome: "refused",
    message:
      "Stripe did not confirm the refund, so it is not recorded. The order is cancelled and its payment is marked to refund: try again in a moment, or refund it in Stripe's dashboard.",
  } as const;
  let refund: { id: string; status: string | null };
  try {
    refund = await card.gateway.refund(
      payment.paymentIntentId,
      `backline-refund-${payment.checkoutSessionId}`,
    );
  } catch (error) {
    logFailure(error, "Stripe did not confirm a refund; the payment stays marked to refund");
    return notConfirmed;
  }
  // Succeeded, or pending (a card refund Stripe accepted and is sending): recorded. Failed or
  // canceled: the money did not go back, so the payment stays flagged to refund.
  if (refund.status === "failed" || refund.status === "canceled") {
    logFailure(new Error(`Stripe refund ${refund.id} is ${refund.status}`), "a refund was not made");
    return notConfirmed;
  }
  await deps.mail.transaction((tx, add) => recordRefund(tx, add, deps, actor, claimed, refund.id));
  return { outcome: "refunded", amountCents: payment.amountCents };
}

/** Step 1: the order cancelled if it was still to be sent, the payment waiting for its refund. */
async function claimRefund(tx: Transaction, actor: Actor, number: string, paymentId: number) {
  const order = await lockedOrder(tx, { number });
  if (!order) return null;
  const payment = await lockedPayment(tx, { id: paymentId });
  if (!payment || payment.orderId !== order.id) return null;
  if (payment.status === "refunded") {
    throw new Refused(
      `This payment was refunded${payment.refundedAt ? ` on ${payment.refundedAt.toUTCString()}` : ""}; nothing was changed.`,
    );
  }
  if (payment.status !== "paid")
    throw new Refused("This payment was never made: there is nothing to refund.");
  if (!payment.needsRefund) {
    // The order's own payment: refunding it means the order is not sent.
    // A card order is paid before it is shipped (only an on-delivery order is paid after): a paid one
    // has not left the shop.
    const to = nextStatus(
      { status: order.status, paymentMethod: order.paymentMethod, hasShipped: false },
      "refund",
    );
    if (to === null) {
      throw new Refused(
        `This order is ${order.status}: a card payment is refunded here only before the order is shipped. Nothing was changed.`,
      );
    }
    await tx
      .update(orders)
      .set({ status: to })
      .where(and(eq(orders.id, order.id), eq(orders.status, order.status)));
    const stockReturned = await returnStock(tx, order.id);
    await recordOrderEvent(tx, {
      orderId: order.id,
      from: order.status,
      to,
      actor,
      note: "Cancelled to refund its card payment",
    });
    await recordChange(tx, actor, {
      action: "order.cancelled",
      subject: `order:${order.number}`,
      subjectName: `order ${order.number}`,
      names: stockReturned.map(productName),
      before: { status: order.status },
      after: { status: to, stockReturned },
    });
    await tx
      .update(cardPayments)
      .set({ needsRefund: true, updatedAt: new Date() })
      .where(eq(cardPayments.id, payment.id));
    // The invoice of the payment refunded is cancelled by a credit note, last (docs/decisions/0049).
    await documentsForStatus(tx, order.id, to);
  }
  return { order, payment };
}

/** Step 3: the refund Stripe made, recorded once (a second staff member's finds it done). */
async function recordRefund(
  tx: Transaction,
  add: AddMessage,
  deps: Deps,
  actor: Actor,
  claimed: { order: LockedOrder; payment: CardPaymentRow },
  refundId: string,
) {
  const order = await lockedOrder(tx, { id: claimed.order.id });
  const marked = await tx
    .update(cardPayments)
    .set({ status: "refunded", refundId, refundedAt: new Date(), needsRefund: false, updatedAt: new Date() })
    .where(and(eq(cardPayments.id, claimed.payment.id), eq(cardPayments.status, "paid")))
    .returning({ amountCents: cardPayments.amountCents });
  const [done] = marked;
  if (!order || !done) return;
  const amount = formatAmount(done.amountCents, order.currency);
  await recordOrderEvent(tx, {
    orderId: order.id,
    from: order.status,
    to: order.status,
    actor,
    note: `Refunded ${amount} to the card (Stripe refund ${refundId})`,
  });
  await recordChange(tx, actor, {
    action: "order.refunded",
    subject: `order:${order.number}`,
    subjectName: `order ${order.number}`,
    before: { payment: "paid" },
    after: { payment: "refunded", amountCents: done.amountCents, refundId },
  });
  await add(refundedEmail(order, deps, done.amountCents));
}
