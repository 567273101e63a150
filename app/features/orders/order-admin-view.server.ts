import { asc, eq } from "drizzle-orm";
import { orderDocumentsOf } from "~/commerce/order-documents.server";
import {
  CHANGE_WORDS,
  isOrderStatus,
  type OrderStatus,
  possibleActions,
  STATUS_LABELS,
} from "~/commerce/order-states";
import type { Database } from "~/db/client.server";
import { orderEvents, orders, users } from "~/db/schema";
import { adminCardPayments } from "./card-payments/card-payment-view.server";
import { type AddressSnapshot, shippingMethodLabel } from "./order-format";
import { linesAndAmounts, ORDER_PAGE_COLUMNS, orderLinesOf } from "./order-lines.server";
import { orderParamsSchema } from "./order-schema";
import { paymentMethod } from "./payment-methods.server";
import { addressLines } from "./shipping-regions";

/**
 * One order as the back office shows it (/admin/orders/BL-7Q4K9): its lines
 * and totals, where it goes, how it is paid and shipped, its timeline (the
 * placing, then every status change with who made it and when) and the
 * actions that fit it now. A malformed number reads as no order (404).
 */

interface TimelineEntry {
  /** "Placed", "Marked paid", "Marked shipped", "Cancelled". */
  change: string;
  /** Who made it: a staff member's name, or the customer for the placing. */
  by: string;
  at: string;
  /** What more there is to say: "Tracking number 1Z…", "Not paid within 30 minutes". */
  detail: string | null;
}

export async function adminOrderPage(db: Database, params: Record<string, string | undefined>) {
  const address = orderParamsSchema.safeParse(params);
  if (!address.success) return null;
  const [order] = await db
    .select({
      ...ORDER_PAGE_COLUMNS,
      email: orders.email,
      trackingNumber: orders.trackingNumber,
      customerId: users.id,
      customerName: users.name,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.number, address.data.number));
  if (!order) return null;
  if (!isOrderStatus(order.status)) throw new Error(`order ${order.number} has an unknown status`);
  const status: OrderStatus = order.status;
  const [lines, documents, events] = await Promise.all([
    orderLinesOf(db, order.id),
    orderDocumentsOf(db, order.id),
    db
      .select({
        fromStatus: orderEvents.fromStatus,
        toStatus: orderEvents.toStatus,
        actorName: orderEvents.actorName,
        note: orderEvents.note,
        createdAt: orderEvents.createdAt,
      })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
  ]);
  const shippingAddress = order.shippingAddress as AddressSnapshot;
  const hasShipped = events.some((event) => event.toStatus === "shipped");
  const timeline: TimelineEntry[] = [
    {
      change: "Placed",
      by: order.customerName ?? `${shippingAddress.name} (guest)`,
      at: order.placedAt.toISOString(),
      detail: null,
    },
    ...events.map((event) =>
      // A fact beside the status (a late card payment, a refund) says itself in its note.
      event.fromStatus === event.toStatus
        ? {
            change: event.note ?? "Note",
            by: event.actorName,
            at: event.createdAt.toISOString(),
            detail: null,
          }
        : {
            change: isOrderStatus(event.toStatus) ? CHANGE_WORDS[event.toStatus] : event.toStatus,
            by: event.actorName,
            at: event.createdAt.toISOString(),
            detail: event.toStatus === "shipped" && event.note ? `Tracking number ${event.note}` : event.note,
          },
    ),
  ];
  return {
    number: order.number,
    status,
    statusLabel: STATUS_LABELS[status],
    placedAt: order.placedAt.toISOString(),
    email: order.email,
    /** The customer's account, when the order was placed signed in (and the account still exists). */
    customer: order.customerId ? { id: order.customerId, name: order.customerName ?? "" } : null,
    address: addressLines(shippingAddress),
    shippingMethod: shippingMethodLabel(order.shippingMethod, order.shippingMethodName),
    paymentMethod: paymentMethod(order.paymentMethod).label,
    trackingNumber: order.trackingNumber,
    /** Its invoice once paid, and the credit note of a paid order cancelled (docs/decisions/0049). */
    documents,
    ...linesAndAmounts(order, lines),
    timeline,
    actions: possibleActions({ status, paymentMethod: order.paymentMethod, hasShipped }),
    /** A card order's Checkout sessions, with Stripe's ids and what became of each; null for other methods. */
    cardPayments:
      order.paymentMethod === "card" ? await adminCardPayments(db, { id: order.id, status }) : null,
  };
}

export type AdminOrderPageData = NonNullable<Awaited<ReturnType<typeof adminOrderPage>>>;
