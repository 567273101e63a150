import { apiError } from "~/utils/http.server";
import { addressLines, shippingMethodLabel, statusInWords } from "./order-format";
import { orderInDollars } from "./order-json";
import {
  orderDetailsAnswerSchema,
  orderListQuerySchema,
  orderParamsSchema,
  orderQuerySchema,
} from "./order-schema";
import { type OrderDetails, type OrderViewer, shopperOrders, visibleOrder } from "./orders.server";
import { type PaymentInstructions, paymentMethod } from "./payment-methods.server";

/**
 * One order for its page (/orders/{number}) and for the JSON API
 * (GET /api/orders/{number}), to its owner or the holder of its signed link.
 * A malformed number, a number nobody has, another shopper's order and a
 * wrong token are all the same "not found": none tells which it was.
 */

/** The order the request's path and query name, when this viewer may see it. */
async function requestedOrder(
  viewer: OrderViewer,
  params: Record<string, string | undefined>,
  url: URL,
): Promise<OrderDetails | null> {
  const address = orderParamsSchema.safeParse(params);
  if (!address.success) return null;
  const query = orderQuerySchema.safeParse({ token: url.searchParams.get("token") ?? undefined });
  return visibleOrder(viewer, address.data.number, query.success ? query.data.token : undefined);
}

/** The order's status in words: a placed order says what it waits for, which its payment method knows. */
function statusOf(order: { status: string; paymentMethod: string }): string {
  return order.status === "placed"
    ? paymentMethod(order.paymentMethod).placedStatus
    : statusInWords(order.status);
}

function instructionsOf(order: OrderDetails, viewer: OrderViewer): PaymentInstructions {
  return paymentMethod(order.paymentMethod).instructions(order, { bankDetails: viewer.services.bankDetails });
}

/** What the order's page shows; null is the page's 404. */
export async function orderPageData(
  viewer: OrderViewer,
  params: Record<string, string | undefined>,
  url: URL,
) {
  const order = await requestedOrder(viewer, params, url);
  if (!order) return null;
  return {
    number: order.number,
    status: statusOf(order),
    placedAt: order.placedAt.toISOString(),
    lines: order.lines.map(({ productId, name, unitPriceCents, quantity, lineTotalCents }) => ({
      productId,
      name,
      unitPriceCents,
      quantity,
      lineTotalCents,
    })),
    subtotalCents: order.subtotalCents,
    shippingCents: order.shippingCents,
    totalCents: order.totalCents,
    address: addressLines(order.shippingAddress),
    shippingMethod: shippingMethodLabel(order.shippingMethod),
    payment: { label: paymentMethod(order.paymentMethod).label, ...instructionsOf(order, viewer) },
  };
}

export type OrderPageData = NonNullable<Awaited<ReturnType<typeof orderPageData>>>;

/** GET /api/orders/{number}: the order (the checkout's answer, and more), or a 404 that says nothing more. */
export async function orderApiResponse(
  viewer: OrderViewer,
  params: Record<string, string | undefined>,
  url: URL,
): Promise<Response> {
  const order = await requestedOrder(viewer, params, url);
  if (!order) {
    return apiError(404, {
      code: "not_found",
      message:
        "There is no order with this number that you may see. Sign in, or use the link from its email.",
    });
  }
  const answer = orderDetailsAnswerSchema.parse({
    order: {
      ...orderInDollars(order),
      placedAt: order.placedAt.toISOString(),
      shippingAddress: order.shippingAddress,
      shippingMethod: order.shippingMethod,
      paymentMethod: order.paymentMethod,
      paymentInstructions: instructionsOf(order, viewer),
    },
  });
  return Response.json(answer, {
    headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
  });
}

/**
 * One page of the signed-in shopper's orders (/account/orders?page=N);
 * null for a page that is not a number or lies past the last (the page's 404).
 */
export async function orderHistoryData(viewer: OrderViewer & { userId: string }, url: URL) {
  const query = orderListQuerySchema.safeParse({ page: url.searchParams.get("page") ?? undefined });
  if (!query.success) return null;
  const { page } = query.data;
  const { orders, totalPages } = await shopperOrders(viewer.db, viewer.userId, page);
  if (page > Math.max(1, totalPages)) return null;
  return {
    page,
    totalPages,
    orders: orders.map((order) => ({
      number: order.number,
      status: statusOf(order),
      placedAt: order.placedAt.toISOString(),
      itemCount: order.itemCount,
      totalCents: order.totalCents,
    })),
  };
}

export type OrderHistoryData = NonNullable<Awaited<ReturnType<typeof orderHistoryData>>>;
