import { apiError, parsedJsonBody } from "~/utils/http.server";
import { type Checkout, checkoutSchema, idempotencyKeySchema, orderAnswerSchema } from "./checkout-schema";
import { orderConfirmationEmail } from "./order-email.server";
import { orderInDollars } from "./order-json";
import { orderPath } from "./order-link.server";
import type { OrderServices } from "./orders.server";
import { paymentMethod } from "./payment-methods.server";
import { type Placement, placeOrder } from "./place-order.server";
import { type ShippingRates, shippingCents } from "./shipping";

/**
 * POST /api/checkout with an Idempotency-Key: places the visitor's cart as
 * an order (docs/decisions/0027). 201 with the order; the same key again, 200
 * with the same order; 409 when stock is short (each line and what is left)
 * or the cart is empty; 422 when the key was used for another request; 400
 * naming each bad field.
 */

/** Who checks out: their account (or none), their cart's id and lines, and the shipping rates. */
export interface CheckoutVisitor {
  userId: string | null;
  /** The visitor's cart (its lines are read when it is placed), or null without one. */
  cart: { id: string } | null;
  rates: ShippingRates;
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
    "{ email, shippingAddress, shippingMethod, paymentMethod }",
  );
  if (!body.ok) return body.response;
  return placementResponse(await placeCheckout(visitor, body.value, key.data));
}

/** A placement, and for a placed order where the shopper goes next (its payment method says). */
type CheckoutPlacement =
  | Exclude<Placement, { outcome: "placed" }>
  | (Extract<Placement, { outcome: "placed" }> & {
      /** The order's signed page (`/orders/BL-…?token=…`), or a card method's payment page. */
      next: string;
    });

/**
 * The visitor's cart placed as an order: what the JSON API and the checkout
 * page both do with a checkout that parsed. The confirmation email is written
 * by the placing transaction, once per order (a replay writes none).
 */
export async function placeCheckout(
  visitor: CheckoutVisitor,
  checkout: Checkout,
  idempotencyKey: string,
): Promise<CheckoutPlacement> {
  if (!visitor.cart) return { outcome: "empty" };
  const { orders } = visitor;
  const placement = await placeOrder(orders.mail, {
    idempotencyScope: visitor.userId ? `user:${visitor.userId}` : `cart:${visitor.cart.id}`,
    idempotencyKey,
    userId: visitor.userId,
    email: checkout.email,
    shippingAddress: checkout.shippingAddress,
    shippingMethod: checkout.shippingMethod,
    paymentMethod: checkout.paymentMethod,
    shippingCentsFor: (subtotal) => shippingCents(checkout.shippingMethod, subtotal, visitor.rates),
    cartId: visitor.cart.id,
    confirmation: (order) =>
      orderConfirmationEmail(order, {
        orderUrl: new URL(orderPath(order.number, orders.linkSecret), orders.baseUrl).toString(),
        payment: { bankDetails: orders.bankDetails },
      }),
  });
  if (placement.outcome !== "placed") return placement;
  const { order } = placement;
  const next = await paymentMethod(checkout.paymentMethod).whenPlaced(
    order,
    orderPath(order.number, orders.linkSecret),
  );
  return { ...placement, next };
}

const cartEmpty = () =>
  apiError(409, { code: "cart_empty", message: "Your cart is empty: add a product first." });

function placementResponse(placement: Placement): Response {
  const noStore = { "Cache-Control": "no-store" };
  if (placement.outcome === "empty") return cartEmpty();
  if (placement.outcome === "key-reused") {
    return apiError(422, {
      code: "idempotency_key_reused",
      message: "This Idempotency-Key was used for another checkout: make a new one for this one.",
      field: "Idempotency-Key",
    });
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
  const { order } = placement;
  const answer = orderAnswerSchema.parse({ order: orderInDollars(order) });
  return Response.json(answer, { status: placement.replayed ? 200 : 201, headers: noStore });
}
