import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Transaction } from "~/db/client.server";
import { DEADLOCK_DETECTED, failedWith, SERIALIZATION_FAILURE } from "~/db/errors.server";
import { orderEvents, orders, stockLevels } from "~/db/schema";
import { type Actor, recordChange } from "~/utils/audit-log.server";
import type { QueuedMessage } from "~/utils/mail-queue.server";
import type { AddressSnapshot } from "./order-format";
import { orderLinesOf } from "./order-lines.server";
import { orderPath } from "./order-link.server";
import {
  CHANGE_WORDS,
  isOrderStatus,
  nextStatus,
  type OrderAction,
  type OrderStatus,
  STATUS_LABELS,
} from "./order-status";
import { orderStatusEmail } from "./order-status-email.server";
import type { OrderServices } from "./orders.server";

/**
 * The back office's actions on an order: mark paid, mark shipped, cancel
 * (docs/decisions/0029). Each is one transaction that locks the order's row,
 * checks the change against the rules (order-status.ts) and against the
 * status the staff member's page showed, and then writes together, or not
 * at all: the status (a conditional update on the status it expects), the
 * timeline's event, the audit log's entry, the shopper's email, and for a
 * cancellation the stock put back. Two staff acting at once: the second
 * waits on the row lock, then finds the status moved on and is refused, with
 * who moved it and when — nothing written, nothing sent.
 */

type AddMessage = (message: QueuedMessage) => Promise<void>;

export interface OrderChangeRequest {
  number: string;
  action: OrderAction;
  /** The status the page showed when the form was sent: a page out of date is refused. */
  shownStatus: OrderStatus;
  trackingNumber?: string;
}

export type OrderChange =
  | { outcome: "changed"; status: OrderStatus }
  | { outcome: "refused"; message: string }
  | { outcome: "not-found" };

/** Thrown inside the transaction to roll it back with the refusal's words. */
class Refused extends Error {}

/** Runs of a change PostgreSQL ended to break a lock cycle (a checkout or import on the same stock rows). */
const ATTEMPTS = 3;

export async function changeOrderStatus(
  services: Pick<OrderServices, "mail" | "linkSecret" | "baseUrl">,
  actor: Actor,
  request: OrderChangeRequest,
): Promise<OrderChange> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await services.mail.transaction((tx, add) => changeIn(tx, add, services, actor, request));
    } catch (error) {
      if (error instanceof Refused) return { outcome: "refused", message: error.message };
      if (
        attempt < ATTEMPTS &&
        (failedWith(error, DEADLOCK_DETECTED) || failedWith(error, SERIALIZATION_FAILURE))
      ) {
        continue;
      }
      throw error;
    }
  }
}

async function changeIn(
  tx: Transaction,
  add: AddMessage,
  services: Pick<OrderServices, "linkSecret" | "baseUrl">,
  actor: Actor,
  request: OrderChangeRequest,
): Promise<OrderChange> {
  // The row lock first: whoever acts second waits here, then reads what the first did.
  const [order] = await tx
    .select({
      id: orders.id,
      number: orders.number,
      status: orders.status,
      email: orders.email,
      shippingAddress: orders.shippingAddress,
      paymentMethod: orders.paymentMethod,
      totalCents: orders.totalCents,
      trackingNumber: orders.trackingNumber,
    })
    .from(orders)
    .where(eq(orders.number, request.number))
    .for("update");
  if (!order) return { outcome: "not-found" };
  if (!isOrderStatus(order.status)) throw new Error(`order ${order.number} has an unknown status`);
  const from = order.status;
  if (from !== request.shownStatus) throw new Refused(await movedOnMessage(tx, order.id, from));

  const hasShipped = from === "shipped" || (await shippedBefore(tx, order.id));
  const to = nextStatus({ status: from, paymentMethod: order.paymentMethod, hasShipped }, request.action);
  // No action leads back to "placed" (order-status.ts): the check only tells the types so.
  if (!to || to === "placed") throw new Refused(doesNotFitMessage(from, hasShipped, request.action));

  const trackingNumber = to === "shipped" ? (request.trackingNumber ?? null) : order.trackingNumber;
  // Conditional on the status read under the lock: belt and braces for the same guarantee.
  const changed = await tx
    .update(orders)
    .set({ status: to, trackingNumber })
    .where(and(eq(orders.id, order.id), eq(orders.status, from)))
    .returning({ id: orders.id });
  if (changed.length === 0) throw new Refused(await movedOnMessage(tx, order.id, from));

  const stockReturned = to === "cancelled" ? await returnStock(tx, order.id) : undefined;
  await tx.insert(orderEvents).values({
    orderId: order.id,
    fromStatus: from,
    toStatus: to,
    actorId: actor.id,
    actorName: actor.name,
    note: to === "shipped" ? trackingNumber : null,
  });
  await recordChange(tx, actor, {
    action: `order.${to}`,
    subject: `order:${order.number}`,
    before: { status: from },
    after: {
      status: to,
      ...(to === "shipped" ? { trackingNumber } : {}),
      ...(stockReturned ? { stockReturned } : {}),
    },
  });
  const address = order.shippingAddress as AddressSnapshot;
  await add(
    orderStatusEmail(
      {
        number: order.number,
        email: order.email,
        name: address.name,
        totalCents: order.totalCents,
        to,
        trackingNumber,
      },
      { orderUrl: new URL(orderPath(order.number, services.linkSecret), services.baseUrl).toString() },
    ),
  );
  return { outcome: "changed", status: to };
}

/**
 * Every line's units back on hand. The stock rows are locked in product
 * order before any is written, as placing an order locks them
 * (place-order.server.ts): a level coming back from zero takes the
 * catalogue's revision row (drizzle/0011), and only a transaction holding all
 * its stock rows ever asks for it, so the two never wait on each other.
 */
async function returnStock(
  tx: Transaction,
  orderId: number,
): Promise<{ productId: number; quantity: number }[]> {
  const lines = await orderLinesOf(tx, orderId);
  if (lines.length === 0) return [];
  await tx
    .select({ productId: stockLevels.productId })
    .from(stockLevels)
    .where(
      inArray(
        stockLevels.productId,
        lines.map((line) => line.productId),
      ),
    )
    .orderBy(asc(stockLevels.productId))
    .for("update");
  for (const line of lines) {
    const returned = await tx
      .update(stockLevels)
      .set({ onHand: sql`${stockLevels.onHand} + ${line.quantity}` })
      .where(eq(stockLevels.productId, line.productId))
      .returning({ productId: stockLevels.productId });
    if (returned.length === 0) throw new Error(`product ${line.productId} has no stock level`);
  }
  return lines.map(({ productId, quantity }) => ({ productId, quantity }));
}

async function shippedBefore(tx: Transaction, orderId: number): Promise<boolean> {
  const [event] = await tx
    .select({ id: orderEvents.id })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, "shipped")))
    .limit(1);
  return Boolean(event);
}

const WHEN = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** "This order was cancelled by Olive Owner on Mar 4, 2026, 4:05 PM UTC; nothing was changed." */
async function movedOnMessage(tx: Transaction, orderId: number, status: OrderStatus): Promise<string> {
  const [latest] = await tx
    .select({ actorName: orderEvents.actorName, createdAt: orderEvents.createdAt })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, status)))
    .orderBy(desc(orderEvents.createdAt), desc(orderEvents.id))
    .limit(1);
  const done = CHANGE_WORDS[status].toLowerCase();
  const who = latest ? ` by ${latest.actorName} on ${WHEN.format(latest.createdAt)} UTC` : "";
  return `This order was ${done}${who} since this page was shown; nothing was changed. The page now shows the order as it is.`;
}

const ACTION_VERBS: Readonly<Record<OrderAction, string>> = {
  "mark-paid": "marked paid",
  "mark-shipped": "marked shipped",
  cancel: "cancelled",
};

function doesNotFitMessage(status: OrderStatus, hasShipped: boolean, action: OrderAction): string {
  const state =
    hasShipped && status !== "shipped"
      ? `${STATUS_LABELS[status].toLowerCase()} and has been shipped`
      : STATUS_LABELS[status].toLowerCase();
  return `This order is ${state}: it cannot be ${ACTION_VERBS[action]}; nothing was changed.`;
}
