import { eq } from "drizzle-orm";
import { lineName } from "~/commerce/options-label";
import type { OrderStatus } from "~/commerce/order-states";
import type { Database } from "~/db/client.server";
import { cardPayments, orders } from "~/db/schema";
import { logFailure } from "~/utils/logger.server";
import { shippingMethodLabel, taxLabel } from "../order-format";
import { orderLinesOf } from "../order-lines.server";
import { orderPath } from "../order-link.server";
import { type CardPaymentServices, expireLeftOpenSessions, paymentsOf } from "./card-payments.server";

/**
 * Sends a card order's shopper to Stripe's page (docs/decisions/0040): the
 * order's open Checkout session when it has one — a second click, a second
 * tab, a return from Stripe's page without paying, all land on the same
 * session — or a new one once the last expired or failed. Two requests at
 * once both ask Stripe with the same idempotency key (the order's number and
 * its next attempt), so Stripe answers both with one session, recorded once.
 */

export interface CardCheckoutDeps {
  db: Database;
  card: CardPaymentServices;
  linkSecret: string;
  baseUrl: string;
}

export type CardPaymentOpening =
  | { outcome: "opened"; url: string }
  /** Paid, cancelled or not a card order: nothing to pay. */
  | { outcome: "not-awaiting"; status: OrderStatus }
  /** Stripe did not answer, or refused: the order waits, the shopper may try again. */
  | { outcome: "unavailable" }
  | { outcome: "not-found" };

/** Where Stripe sends the shopper back: the order's signed page, saying how they came back. */
function returnUrls(number: string, deps: Pick<CardCheckoutDeps, "linkSecret" | "baseUrl">) {
  const page = new URL(orderPath(number, deps.linkSecret), deps.baseUrl);
  const back = (payment: string) => {
    const url = new URL(page);
    url.searchParams.set("payment", payment);
    return url.toString();
  };
  return { successUrl: back("returned"), cancelUrl: back("cancelled") };
}

export async function openCardPayment(deps: CardCheckoutDeps, number: string): Promise<CardPaymentOpening> {
  const [order] = await deps.db
    .select({
      id: orders.id,
      status: orders.status,
      email: orders.email,
      paymentMethod: orders.paymentMethod,
      shippingMethod: orders.shippingMethod,
      shippingMethodName: orders.shippingMethodName,
      shippingCents: orders.shippingCents,
      totalCents: orders.totalCents,
      currency: orders.currency,
      taxes: orders.taxes,
      pricesIncludeTax: orders.pricesIncludeTax,
    })
    .from(orders)
    .where(eq(orders.number, number));
  if (!order) return { outcome: "not-found" };
  if (order.paymentMethod !== "card" || order.status !== "awaiting-payment") {
    return { outcome: "not-awaiting", status: order.status };
  }
  const payments = await paymentsOf(deps.db, order.id);
  const open = payments.find((payment) => payment.status === "open" && payment.checkoutUrl);
  if (open?.checkoutUrl) return { outcome: "opened", url: open.checkoutUrl };

  const attempt = payments.length + 1;
  const lines = await orderLinesOf(deps.db, order.id);
  let session: Awaited<ReturnType<CardPaymentServices["gateway"]["openCheckoutSession"]>>;
  try {
    session = await deps.card.gateway.openCheckoutSession({
      orderNumber: number,
      attempt,
      email: order.email,
      currency: order.currency,
      lines: [
        ...lines.map((line) => ({
          // Stripe's page names the variant the shopper chose.
          name: lineName(line),
          unitAmountCents: line.unitPriceCents,
          quantity: line.quantity,
        })),
        ...(order.shippingCents > 0
          ? [
              {
                name: shippingMethodLabel(order.shippingMethod, order.shippingMethodName),
                unitAmountCents: order.shippingCents,
                quantity: 1,
              },
            ]
          : []),
        // Tax added to the prices is a line of its own per rate, so Stripe's page adds up to the order's total.
        ...(order.pricesIncludeTax ? [] : order.taxes)
          .filter((tax) => tax.amount > 0)
          .map((tax) => ({ name: taxLabel(tax, false), unitAmountCents: tax.amount, quantity: 1 })),
      ],
      ...returnUrls(number, deps),
    });
  } catch (error) {
    logFailure(error, "a Stripe Checkout session could not be opened");
    return { outcome: "unavailable" };
  }
  if (session.amountCents !== order.totalCents) {
    // The lines add up to the total by construction; a session for another amount is never offered.
    logFailure(
      new Error(`Stripe session ${session.id} asks ${session.amountCents}, the order ${order.totalCents}`),
      "a Stripe Checkout session was opened for another amount than its order's",
    );
    return { outcome: "unavailable" };
  }
  // The same session from a request racing this one is the same row: recorded once.
  await deps.db
    .insert(cardPayments)
    .values({
      orderId: order.id,
      attempt,
      checkoutSessionId: session.id,
      checkoutUrl: session.url,
      amountCents: session.amountCents,
      currency: session.currency,
    })
    .onConflictDoNothing();

  // Cancelled while Stripe was asked (staff, or the clock)? Then nobody may pay this session.
  const [now] = await deps.db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
  if (now?.status !== "awaiting-payment") {
    await expireLeftOpenSessions(deps.db, deps.card.gateway, number);
    return { outcome: "not-awaiting", status: now?.status ?? order.status };
  }
  return { outcome: "opened", url: session.url };
}
