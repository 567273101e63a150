import { decimalAmount, minorAtMost, money } from "~/commerce/money";
import { formatAmount, shopMoney } from "~/commerce/shop-money.server";
import type { TaxShippingSetup } from "~/commerce/tax-shipping-setup";
import { apiError, parsedJsonBody } from "~/utils/http.server";
import { awaitingCardPaymentEmail } from "./card-payments/card-payment-emails.server";
import { windowInWords } from "./card-payments/card-payments.server";
import { openCardPayment } from "./card-payments/open-card-payment.server";
import {
  type Checkout,
  checkoutConflictSchema,
  checkoutSchema,
  idempotencyKeySchema,
  orderAnswerSchema,
} from "./checkout-schema";
import { orderConfirmationEmail } from "./order-email.server";
import { linesInDollars, orderInDollars } from "./order-json";
import { orderPath } from "./order-link.server";
import type { OrderServices } from "./orders.server";
import { paymentMethod } from "./payment-methods.server";
import { type Placement, placeOrder } from "./place-order.server";
import { quoteRefusalAt } from "./quote-refusal.server";

/**
 * POST /api/checkout with an Idempotency-Key: places the visitor's cart as
 * an order (docs/decisions/0027). 201 with the order; the same key again, 200
 * with the same order; 409 when stock is short (each line and what is left),
 * the cart is empty, or the order no longer comes to the `expectedTotal` the
 * client showed (the new lines and total); 422 when the key was used for
 * another request or the shop has no quote for the address (it does not ship
 * or sell there, or not by that method); 400 naming each bad field.
 */

/** Who checks out: their account (or none), their cart's id, and the shop's tax and shipping setup. */
export interface CheckoutVisitor {
  userId: string | null;
  /** The visitor's cart (its lines are read when it is placed), or null without one. */
  cart: { id: string } | null;
  setup: TaxShippingSetup;
  /** The orders feature's services: its mail queue places the order and writes its confirmation email. */
  orders: OrderServices;
}

export async function checkoutResponse(request: Request, visitor: CheckoutVisitor): Promise<Response> {
  const key = idempotencyKeySchema.safeParse(request.headers.get("idempotency-key") ?? undefined);
  if (!key.success) {
    const message = key.error.issues[0]?.message ?? "Send an Idempotency-Key header.";
    return apiError(400, { code: "invalid_header", message, field: "Idempotency-Key" });
  }
  const body = await parsedJsonBody(
    request,
    checkoutSchema,
    "{ email, shippingAddress, shippingMethod, paymentMethod, expectedTotal? }",
  );
  if (!body.ok) return body.response;
  return placementResponse(await placeCheckout(visitor, body.value, key.data), body.value);
}

/** A placement, and for a placed order where the shopper goes next (its payment method says). */
type CheckoutPlacement =
  | Exclude<Placement, { outcome: "placed" }>
  /** Card was asked for where card payments are off. */
  | { outcome: "card-unavailable" }
  | (Extract<Placement, { outcome: "placed" }> & {
      /** The order's signed page (`/orders/BL-…?token=…`), or Stripe's page for a card order. */
      next: string;
      /** Stripe's page for a card order waiting for its payment; null when it could not be opened now. */
      paymentUrl: string | null;
    });

/**
 * The visitor's cart placed as an order: what the JSON API and the checkout
 * page both do with a checkout that parsed. The confirmation email is written
 * by the placing transaction, once per order (a replay writes none); a card
 * order's waits for its payment (card-payments/, docs/decisions/0032) and the
 * shopper is sent to Stripe's page — the same session again on a replay.
 */
export async function placeCheckout(
  visitor: CheckoutVisitor,
  checkout: Checkout,
  idempotencyKey: string,
): Promise<CheckoutPlacement> {
  if (!visitor.cart) return { outcome: "empty" };
  const { orders } = visitor;
  const { card } = orders;
  const method = paymentMethod(checkout.paymentMethod);
  if (method.startsAs === "awaiting-payment" && !card) return { outcome: "card-unavailable" };
  const paymentDueAt =
    method.startsAs === "awaiting-payment" && card
      ? new Date(Date.now() + Math.round(card.windowMinutes * 60_000))
      : null;
  const { currency } = shopMoney();
  const placement = await placeOrder(orders.mail, {
    idempotencyScope: visitor.userId ? `user:${visitor.userId}` : `cart:${visitor.cart.id}`,
    idempotencyKey,
    userId: visitor.userId,
    email: checkout.email,
    shippingAddress: checkout.shippingAddress,
    shippingMethod: checkout.shippingMethod,
    paymentMethod: checkout.paymentMethod,
    setup: visitor.setup,
    currency,
    // Read from its digits, to the currency's minor unit: a total the shopper saw has no finer part.
    expectedTotalCents:
      checkout.expectedTotal === undefined ? null : minorAtMost(checkout.expectedTotal, currency),
    cartId: visitor.cart.id,
    status: method.startsAs,
    paymentDueAt,
    // A card order is confirmed once paid; placed, its shopper gets the way back to pay it.
    confirmation: (order) =>
      card && method.startsAs === "awaiting-payment"
        ? awaitingCardPaymentEmail(order, orders, windowInWords(card.windowMinutes))
        : orderConfirmationEmail(order, {
            orderUrl: new URL(orderPath(order.number, orders.linkSecret), orders.baseUrl).toString(),
            payment: { bankDetails: orders.bankDetails },
          }),
  });
  if (placement.outcome !== "placed") return placement;
  const { order } = placement;
  const orderPage = orderPath(order.number, orders.linkSecret);
  if (!card || order.status !== "awaiting-payment")
    return { ...placement, next: orderPage, paymentUrl: null };
  if (paymentDueAt) card.dueAt(paymentDueAt);
  const opening = await openCardPayment({ ...orders, card }, order.number);
  if (opening.outcome === "opened") return { ...placement, next: opening.url, paymentUrl: opening.url };
  // A replay of an order paid or cancelled since: its page, and the status it has now.
  if (opening.outcome === "not-awaiting") {
    return { ...placement, order: { ...order, status: opening.status }, next: orderPage, paymentUrl: null };
  }
  // Stripe out of reach: the order's page says so and offers to pay again.
  return { ...placement, next: `${orderPage}&payment=unavailable`, paymentUrl: null };
}

const cartEmpty = () =>
  apiError(409, { code: "cart_empty", message: "Your cart is empty: add a product first." });

/** What the API says when card payments are off, and the checkout page beside its Payment field. */
export const CARD_UNAVAILABLE = "Card payments are not available in this shop: choose another way to pay.";

function placementResponse(placement: CheckoutPlacement, checkout: Checkout): Response {
  const noStore = { "Cache-Control": "no-store" };
  if (placement.outcome === "empty") return cartEmpty();
  if (placement.outcome === "not-quoted") {
    return apiError(422, quoteRefusalAt(placement.refusal, checkout.shippingAddress));
  }
  if (placement.outcome === "card-unavailable") {
    return apiError(400, { code: "invalid_field", message: CARD_UNAVAILABLE, field: "paymentMethod" });
  }
  if (placement.outcome === "key-reused") {
    return apiError(422, {
      code: "idempotency_key_reused",
      message: "This Idempotency-Key was used for another checkout: make a new one for this one.",
      field: "Idempotency-Key",
    });
  }
  if (placement.outcome === "total-changed") {
    const { order } = placement;
    const total = formatAmount(order.totalCents, order.currency);
    return Response.json(
      checkoutConflictSchema.parse({
        error: {
          code: "total_changed",
          message: `The order comes to ${total}, not the ${formatAmount(placement.expectedTotalCents, order.currency)} expected: nothing was ordered. Show the shopper the new total and send it as expectedTotal to place the order.`,
          field: "expectedTotal",
          expectedTotal: decimalAmount(money(placement.expectedTotalCents, order.currency)),
          ...linesInDollars(order),
        },
      }),
      { status: 409, headers: noStore },
    );
  }
  if (placement.outcome === "short") {
    return Response.json(
      {
        error: {
          code: "stock_short",
          message: "Some products do not have that many left: nothing was ordered.",
          lines: placement.lines,
        },
      },
      { status: 409, headers: noStore },
    );
  }
  const { order, paymentUrl } = placement;
  if (order.status === "awaiting-payment" && !paymentUrl) {
    // The order and its stock are kept until the payment window closes: the same key again opens
    // the payment then (a retry is this same checkout, never a second order).
    return apiError(
      503,
      {
        code: "payment_provider_unavailable",
        message: `Order ${order.number} is placed and waits for its card payment, but the card payment service did not answer. Send the same request again with the same Idempotency-Key to get its payment page.`,
      },
      { "Retry-After": "5" },
    );
  }
  const answer = orderAnswerSchema.parse({
    order: orderInDollars(order),
    ...(paymentUrl ? { paymentUrl } : {}),
  });
  return Response.json(answer, { status: placement.replayed ? 200 : 201, headers: noStore });
}
