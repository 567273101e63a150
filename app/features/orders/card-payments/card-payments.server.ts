import { and, asc, desc, eq, inArray, ne } from "drizzle-orm";
import type { Database, Transaction } from "~/db/client.server";
import { cardPayments, orders } from "~/db/schema";
import { logFailure } from "~/utils/logger.server";
import type { StripeGateway } from "./stripe-gateway.server";

/**
 * Card payments through Stripe Checkout (docs/decisions/0032): what the
 * orders feature is given at start-up when they are on (STRIPE_SECRET_KEY
 * and STRIPE_WEBHOOK_SECRET, or DEMO_PAYMENT_PROVIDER=1), and the statements
 * on `card_payments` its use cases share.
 */
export interface CardPaymentServices {
  gateway: StripeGateway;
  /** How long a card order waits for its payment before it is cancelled (CARD_PAYMENT_MINUTES). */
  windowMinutes: number;
  /** The origin of the page the shopper pays on (Stripe's, or the demo stand-in's): forms may lead there. */
  pageOrigin: string;
  /** Tells this process's sweeper (unpaid-card-orders.server.ts) that an order falls due at `at`. */
  dueAt(at: Date): void;
}

/** The window in words, for the shopper: "30 minutes", "1 hour", "90 seconds". */
export function windowInWords(minutes: number): string {
  if (minutes < 1) return `${Math.round(minutes * 60)} seconds`;
  if (minutes % 60 === 0) return minutes === 60 ? "1 hour" : `${minutes / 60} hours`;
  return minutes === 1 ? "1 minute" : `${Math.round(minutes)} minutes`;
}

/** A payment's row, locked (after its order's). */
export async function lockedPayment(tx: Transaction, where: { sessionId: string } | { id: number }) {
  const [payment] = await tx
    .select()
    .from(cardPayments)
    .where(
      "sessionId" in where
        ? eq(cardPayments.checkoutSessionId, where.sessionId)
        : eq(cardPayments.id, where.id),
    )
    .for("update");
  return payment ?? null;
}

export type CardPaymentRow = NonNullable<Awaited<ReturnType<typeof lockedPayment>>>;

/** An order's payments, oldest first. */
export function paymentsOf(db: Database | Transaction, orderId: number) {
  return db
    .select()
    .from(cardPayments)
    .where(eq(cardPayments.orderId, orderId))
    .orderBy(asc(cardPayments.attempt));
}

/**
 * Called in the transaction that cancels a card order: a payment it had is
 * no longer the order's, so it waits for the owner's refund, and nothing is
 * due any more.
 */
export async function whenCardOrderCancelled(tx: Transaction, orderId: number): Promise<void> {
  await tx
    .update(cardPayments)
    .set({ needsRefund: true, updatedAt: new Date() })
    .where(and(eq(cardPayments.orderId, orderId), eq(cardPayments.status, "paid")));
  await tx.update(orders).set({ paymentDueAt: null }).where(eq(orders.id, orderId));
}

/**
 * Sessions still open for orders that no longer wait for a payment
 * (cancelled by staff or by the clock, or paid through another session):
 * expired at Stripe, so nobody can pay them any more, then marked so. A
 * session Stripe cannot reach now stays open here and is tried again at the
 * sweeper's next pass; a payment that lands on it meanwhile is flagged for
 * a refund like any late one.
 */
export async function expireLeftOpenSessions(
  db: Database,
  gateway: StripeGateway,
  /** One order's (its number), or every order's. */
  number?: string,
): Promise<number> {
  const left = await db
    .select({ id: cardPayments.id, sessionId: cardPayments.checkoutSessionId })
    .from(cardPayments)
    .innerJoin(orders, eq(orders.id, cardPayments.orderId))
    .where(
      and(
        eq(cardPayments.status, "open"),
        ne(orders.status, "awaiting-payment"),
        number === undefined ? undefined : eq(orders.number, number),
      ),
    )
    .orderBy(desc(cardPayments.id))
    .limit(20);
  let expired = 0;
  for (const session of left) {
    try {
      await gateway.expireCheckoutSession(session.sessionId);
    } catch (error) {
      logFailure(error, "a Stripe Checkout session could not be expired; the next pass tries again");
      continue;
    }
    const marked = await db
      .update(cardPayments)
      .set({ status: "expired", checkoutUrl: null, updatedAt: new Date() })
      .where(and(inArray(cardPayments.id, [session.id]), eq(cardPayments.status, "open")))
      .returning({ id: cardPayments.id });
    expired += marked.length;
  }
  return expired;
}
