import { and, eq, sql } from "drizzle-orm";
import { documentsForStatus } from "~/commerce/order-documents.server";
import { onlyTransition } from "~/commerce/order-states";
import { formatAmount } from "~/commerce/shop-money.server";
import type { Transaction } from "~/db/client.server";
import { cardPayments, orders } from "~/db/schema";
import type { QueuedMessage } from "~/utils/mail-queue.server";
import { lockedOrder } from "../locked-order.server";
import { orderConfirmationEmail } from "../order-email.server";
import { recordOrderEvent, STRIPE_ACTOR } from "../order-events.server";
import type { AddressSnapshot } from "../order-format";
import { orderLinesOf } from "../order-lines.server";
import { orderPath } from "../order-link.server";
import type { OrderServices } from "../orders.server";
import { paidAfterCancellationEmail, paidTwiceEmail } from "./card-payment-emails.server";
import { lockedPayment } from "./card-payments.server";
import type { CheckoutSession } from "./stripe-gateway.server";

/**
 * What a verified webhook does to a card order (docs/decisions/0032). Each
 * is one transaction that locks the order's row, then its payment's, and
 * changes each at most once: a replay, a duplicate or a late copy finds the
 * payment already in the state it brings and changes nothing. A session
 * paid for another amount or currency than its order's is refused whole.
 */

type AddMessage = (message: QueuedMessage) => Promise<void>;

export type WebhookOutcome =
  /** Applied now: what changed, for the log. */
  | { outcome: "applied"; change: string }
  /** Nothing to do: already applied, or not the shop's (another integration on the same account). */
  | { outcome: "ignored"; why: string }
  /** Refused whole (400): nothing was changed. */
  | { outcome: "refused"; message: string };

type Deps = Pick<OrderServices, "mail" | "linkSecret" | "baseUrl">;

/** Thrown inside the transaction to roll back whatever it wrote. */
class Refused extends Error {}

/** The order a session is for: the number the shop gave it when it opened the session. */
function orderNumberOf(session: CheckoutSession): string | null {
  return session.metadata?.order_number ?? session.client_reference_id ?? null;
}

async function inTransaction(
  deps: Deps,
  work: (tx: Transaction, add: AddMessage) => Promise<WebhookOutcome>,
): Promise<WebhookOutcome> {
  try {
    return await deps.mail.transaction(work);
  } catch (error) {
    if (error instanceof Refused) return { outcome: "refused", message: error.message };
    throw error;
  }
}

/**
 * The session's payment row, locked; recorded now if the shop never noted
 * the session (a crash between Stripe's answer and its own insert).
 */
async function paymentOfSession(
  tx: Transaction,
  { id: orderId, currency }: { id: number; currency: string },
  session: CheckoutSession,
) {
  const found = await lockedPayment(tx, { sessionId: session.id });
  if (found) {
    if (found.orderId !== orderId) throw new Refused(`Session ${session.id} belongs to another order.`);
    return found;
  }
  await tx.insert(cardPayments).values({
    orderId,
    attempt: sql`(select coalesce(max(${cardPayments.attempt}), 0) + 1 from ${cardPayments} where ${cardPayments.orderId} = ${orderId})`,
    checkoutSessionId: session.id,
    amountCents: session.amount_total ?? 0,
    currency: session.currency ?? currency.toLowerCase(),
  });
  const recorded = await lockedPayment(tx, { sessionId: session.id });
  if (!recorded) throw new Error(`the payment of session ${session.id} just written is missing`);
  return recorded;
}

/** The session is paid (`checkout.session.completed` paid, or `…async_payment_succeeded`). */
export function recordPaidSession(deps: Deps, session: CheckoutSession): Promise<WebhookOutcome> {
  const number = orderNumberOf(session);
  if (!number) return Promise.resolve({ outcome: "ignored", why: "not a session of this shop" });
  return inTransaction(deps, async (tx, add) => {
    const order = await lockedOrder(tx, { number });
    if (!order) return { outcome: "ignored", why: "no such order" };
    // Stripe writes the currency in small letters; the order in capitals (ISO 4217).
    if (session.amount_total !== order.totalCents || session.currency !== order.currency.toLowerCase()) {
      throw new Refused(
        `Session ${session.id} was paid ${session.amount_total ?? "nothing"} ${session.currency ?? ""}; order ${number} costs ${order.totalCents} ${order.currency}. Nothing was changed.`,
      );
    }
    const payment = await paymentOfSession(tx, order, session);
    if (payment.status === "paid" || payment.status === "refunded") {
      return { outcome: "ignored", why: "already recorded" };
    }
    const paid = onlyTransition("card-paid");
    // Paid for an order that no longer waits for it: kept, and flagged for the owner to refund.
    const late = order.status !== paid.from;
    await tx
      .update(cardPayments)
      .set({
        status: "paid",
        paymentIntentId: paymentIntentIdOf(session),
        paidAt: new Date(),
        checkoutUrl: null,
        needsRefund: late,
        updatedAt: new Date(),
      })
      .where(eq(cardPayments.id, payment.id));
    if (late) {
      const cancelled = order.status === "cancelled";
      await recordOrderEvent(tx, {
        orderId: order.id,
        from: order.status,
        to: order.status,
        actor: STRIPE_ACTOR,
        note: cancelled
          ? `Card payment of ${formatAmount(order.totalCents, order.currency)} received after the order was cancelled: refund it`
          : `A second card payment of ${formatAmount(order.totalCents, order.currency)} received for this order, already paid: refund it`,
      });
      await add(
        cancelled
          ? paidAfterCancellationEmail(order, deps, order.totalCents)
          : paidTwiceEmail(order, deps, order.totalCents),
      );
      return { outcome: "applied", change: "late payment flagged for a refund" };
    }
    const changed = await tx
      .update(orders)
      .set({ status: paid.to, paymentDueAt: null })
      .where(and(eq(orders.id, order.id), eq(orders.status, paid.from)))
      .returning({ id: orders.id });
    if (changed.length === 0) throw new Error(`order ${number} changed under its row lock`);
    await recordOrderEvent(tx, {
      orderId: order.id,
      from: paid.from,
      to: paid.to,
      actor: STRIPE_ACTOR,
      note: "Paid by card",
    });
    // Paid: its invoice, numbered in this transaction, late in it (docs/decisions/0049).
    await documentsForStatus(tx, order.id, paid.to);
    await add(await paidConfirmation(tx, deps, order.id));
    return { outcome: "applied", change: "order paid" };
  });
}

/** The session closed unpaid: expired (`checkout.session.expired`) or failed (`…async_payment_failed`). */
export function recordClosedSession(
  deps: Deps,
  session: CheckoutSession,
  status: "expired" | "failed",
): Promise<WebhookOutcome> {
  const number = orderNumberOf(session);
  if (!number) return Promise.resolve({ outcome: "ignored", why: "not a session of this shop" });
  return inTransaction(deps, async (tx) => {
    const order = await lockedOrder(tx, { number });
    if (!order) return { outcome: "ignored", why: "no such order" };
    const payment = await paymentOfSession(tx, order, session);
    // Only an open session closes: a paid one stays paid whatever arrives after.
    if (payment.status !== "open") return { outcome: "ignored", why: `session already ${payment.status}` };
    await tx
      .update(cardPayments)
      .set({ status, checkoutUrl: null, updatedAt: new Date() })
      .where(eq(cardPayments.id, payment.id));
    if (status === "failed") {
      await recordOrderEvent(tx, {
        orderId: order.id,
        from: order.status,
        to: order.status,
        actor: STRIPE_ACTOR,
        note: "Card payment failed: the shopper may pay again",
      });
    }
    return { outcome: "applied", change: `session ${status}` };
  });
}

function paymentIntentIdOf(session: CheckoutSession): string | null {
  const intent = session.payment_intent;
  if (!intent) return null;
  return typeof intent === "string" ? intent : intent.id;
}

/** The order's confirmation, now that it is paid: "Paid by card". */
async function paidConfirmation(tx: Transaction, deps: Deps, orderId: number): Promise<QueuedMessage> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new Error(`order ${orderId} is missing`);
  const lines = await orderLinesOf(tx, orderId);
  return orderConfirmationEmail(
    {
      id: order.id,
      number: order.number,
      status: order.status,
      currency: order.currency,
      subtotalCents: order.subtotalCents,
      shippingCents: order.shippingCents,
      totalCents: order.totalCents,
      taxCents: order.taxCents,
      taxes: order.taxes,
      pricesIncludeTax: order.pricesIncludeTax,
      lines,
      email: order.email,
      shippingAddress: order.shippingAddress as AddressSnapshot,
      shippingMethod: order.shippingMethod,
      shippingMethodName: order.shippingMethodName,
      paymentMethod: order.paymentMethod,
    },
    {
      orderUrl: new URL(orderPath(order.number, deps.linkSecret), deps.baseUrl).toString(),
      payment: { bankDetails: [] },
    },
  );
}
