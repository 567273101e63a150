import { and, count, desc, eq, sql } from "drizzle-orm";
import type { OrderStatus } from "~/commerce/order-states";
import type { Database } from "~/db/client.server";
import { orderLines, orders } from "~/db/schema";
import type { MailQueue } from "~/utils/mail-queue.server";
import type { CardPaymentServices } from "./card-payments/card-payments.server";
import type { AddressSnapshot } from "./order-format";
import { ORDER_PAGE_COLUMNS, orderLinesOf } from "./order-lines.server";
import { isOrderToken } from "./order-link.server";
import type { OrderTaxes, PlacedOrderLine } from "./place-order.server";

/**
 * Orders as their shoppers see them: one order for its page and the JSON
 * API, shown to its owner or to whoever holds its signed link, and nobody
 * else (docs/decisions/0039, "Who sees an order"); a shopper's own orders,
 * newest first, a page at a time.
 */

/** What the orders feature is given at start-up (server/services.ts). */
export interface OrderServices {
  /** Signs the orders' links (order-link.server.ts): the shop's secret. */
  linkSecret: string;
  /** The shop's public origin: the email's links are absolute. */
  baseUrl: string;
  /** Where a bank transfer is paid (SHOP_BANK_DETAILS), one line each. */
  bankDetails: string[];
  /** The queue whose transaction places an order, writing its confirmation email with it. */
  mail: MailQueue;
  /** The shop's database (the mail queue's), for what happens outside a placing transaction. */
  db: Database;
  /** Card payments through Stripe Checkout; null when they are off (docs/decisions/0032). */
  card: CardPaymentServices | null;
}

/** Who asks for an order: the signed-in shopper (or nobody), with the feature's services. */
export interface OrderViewer {
  db: Database;
  userId: string | null;
  services: OrderServices;
}

export interface OrderDetails extends OrderTaxes {
  id: number;
  number: string;
  status: OrderStatus;
  placedAt: Date;
  shippingAddress: AddressSnapshot;
  shippingMethod: string;
  shippingMethodName: string | null;
  paymentMethod: string;
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  /** What its amounts are in (ISO 4217): the shop's currency when it was placed. */
  currency: string;
  /** A card order waiting for its payment: when it is cancelled if still unpaid. */
  paymentDueAt: Date | null;
  lines: PlacedOrderLine[];
}

/**
 * The order numbered `number`, when the viewer may see it: the same null for
 * a number nobody has, another shopper's order and a wrong token, so an
 * answer never tells which.
 */
export async function visibleOrder(
  viewer: OrderViewer,
  number: string,
  token: string | undefined,
): Promise<OrderDetails | null> {
  const holdsLink = isOrderToken(number, token, viewer.services.linkSecret);
  if (!holdsLink && !viewer.userId) return null;
  const [row] = await viewer.db
    .select({ ...ORDER_PAGE_COLUMNS, paymentDueAt: orders.paymentDueAt })
    .from(orders)
    // Without the link, only the owner's own order matches: another's reads as no order at all.
    .where(
      holdsLink
        ? eq(orders.number, number)
        : and(eq(orders.number, number), eq(orders.userId, viewer.userId as string)),
    );
  if (!row) return null;
  const lines = await orderLinesOf(viewer.db, row.id);
  const { shippingAddress, ...order } = row;
  return { ...order, shippingAddress: shippingAddress as AddressSnapshot, lines };
}

/** Orders a page of a shopper's list shows. */
const ORDERS_PER_PAGE = 20;

interface OrderSummary {
  number: string;
  status: OrderStatus;
  paymentMethod: string;
  placedAt: Date;
  itemCount: number;
  totalCents: number;
  currency: string;
}

/** One page of the shopper's orders, newest first (the id breaks ties), and how many pages there are. */
export async function shopperOrders(
  db: Database,
  userId: string,
  page: number,
): Promise<{ orders: OrderSummary[]; totalPages: number }> {
  const [counted] = await db.select({ total: count() }).from(orders).where(eq(orders.userId, userId));
  const total = Number(counted?.total ?? 0);
  const listed = await db
    .select({
      number: orders.number,
      status: orders.status,
      paymentMethod: orders.paymentMethod,
      placedAt: orders.createdAt,
      itemCount: sql<number>`(select coalesce(sum(${orderLines.quantity}), 0)::int from ${orderLines} where ${orderLines.orderId} = ${orders.id})`,
      totalCents: orders.totalCents,
      currency: orders.currency,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(ORDERS_PER_PAGE)
    .offset((page - 1) * ORDERS_PER_PAGE);
  return {
    orders: listed.map((order) => ({ ...order, itemCount: Number(order.itemCount) })),
    totalPages: Math.ceil(total / ORDERS_PER_PAGE),
  };
}
