import type { OrderStatus } from "~/commerce/order-states";
import { apiError } from "~/utils/http.server";
import { returnOf, shopperCardPayment } from "./card-payments/card-payment-view.server";
import { windowInWords } from "./card-payments/card-payments.server";
import { openCardPayment } from "./card-payments/open-card-payment.server";
import { shippingMethodLabel, statusInWords } from "./order-format";
import { orderInDollars } from "./order-json";
import { linesAndAmounts } from "./order-lines.server";
import {
  orderDetailsAnswerSchema,
  orderListQuerySchema,
  orderParamsSchema,
  orderQuerySchema,
} from "./order-schema";
import { type OrderDetails, type OrderViewer, shopperOrders, visibleOrder } from "./orders.server";
import { type PaymentInstructions, paymentMethod } from "./payment-methods.server";
import { addressLines } from "./shipping-regions";

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
function statusOf(order: { status: OrderStatus; paymentMethod: string }): string {
  return order.status === "placed"
    ? paymentMethod(order.paymentMethod).placedStatus
    : statusInWords(order.status);
}

function instructionsOf(order: OrderDetails, viewer: OrderViewer): PaymentInstructions {
  const { card } = viewer.services;
  return paymentMethod(order.paymentMethod).instructions(order, {
    bankDetails: viewer.services.bankDetails,
    cardWindow: card ? windowInWords(card.windowMinutes) : undefined,
  });
}

/** What the order's page shows; null is the page's 404. */
export async function orderPageData(
  viewer: OrderViewer,
  params: Record<string, string | undefined>,
  url: URL,
) {
  const order = await requestedOrder(viewer, params, url);
  if (!order) return null;
  const token = url.searchParams.get("token");
  return {
    number: order.number,
    /** The status as stored, for what the page shows beside the words. */
    state: order.status,
    status: statusOf(order),
    placedAt: order.placedAt.toISOString(),
    ...linesAndAmounts(order, order.lines),
    address: addressLines(order.shippingAddress),
    shippingMethod: shippingMethodLabel(order.shippingMethod, order.shippingMethodName),
    payment: { label: paymentMethod(order.paymentMethod).label, ...instructionsOf(order, viewer) },
    card:
      order.paymentMethod === "card"
        ? {
            ...(await shopperCardPayment(viewer.db, order, returnOf(url))),
            // The pay form keeps the signed link's token: a guest pays with what opened the page.
            payPath: `/orders/${order.number}/pay${token ? `?token=${encodeURIComponent(token)}` : ""}`,
          }
        : null,
  };
}

export type CardPaymentRequest = { outcome: "go"; to: string; document: boolean } | { outcome: "not-found" };

/**
 * POST /orders/{number}/pay: a card order waiting for its payment sends its
 * shopper (its owner, or the holder of its link) to Stripe's page — its open
 * session, or a new one; any other order back to its own page, which says
 * where it stands.
 */
export async function cardPaymentRequest(
  viewer: OrderViewer,
  params: Record<string, string | undefined>,
  url: URL,
): Promise<CardPaymentRequest> {
  const order = await requestedOrder(viewer, params, url);
  if (!order) return { outcome: "not-found" };
  const page = new URL(`/orders/${order.number}`, viewer.services.baseUrl);
  const token = url.searchParams.get("token");
  if (token) page.searchParams.set("token", token);
  const { card } = viewer.services;
  const opening = card ? await openCardPayment({ ...viewer.services, card }, order.number) : null;
  if (opening?.outcome === "opened") return { outcome: "go", to: opening.url, document: true };
  if (opening?.outcome === "unavailable") page.searchParams.set("payment", "unavailable");
  return { outcome: "go", to: `${page.pathname}${page.search}`, document: false };
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
      currency: order.currency,
    })),
  };
}

export type OrderHistoryData = NonNullable<Awaited<ReturnType<typeof orderHistoryData>>>;
