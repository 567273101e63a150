import { and, desc, eq, ne } from "drizzle-orm";
import { documentsForStatus } from "~/commerce/order-documents.server";
import {
  CHANGE_WORDS,
  isOrderStatus,
  nextStatus,
  type OrderStatus,
  STATUS_LABELS,
  type StaffAction,
} from "~/commerce/order-states";
import type { Transaction } from "~/db/client.server";
import { failedOnLockCycle } from "~/db/errors.server";
import { orderEvents, orders } from "~/db/schema";
import { type Actor, productName, recordChange } from "~/utils/audit-log.server";
import type { QueuedMessage } from "~/utils/mail-queue.server";
import { expireLeftOpenSessions, whenCardOrderCancelled } from "./card-payments/card-payments.server";
import { lockedOrder } from "./locked-order.server";
import { recordOrderEvent } from "./order-events.server";
import type { AddressSnapshot } from "./order-format";
import { orderPath } from "./order-link.server";
import { orderStatusEmail } from "./order-status-email.server";
import { returnStock } from "./order-stock.server";
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
  action: StaffAction;
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
  services: Pick<OrderServices, "mail" | "linkSecret" | "baseUrl" | "db" | "card">,
  actor: Actor,
  request: OrderChangeRequest,
): Promise<OrderChange> {
  for (let attempt = 1; ; attempt++) {
    try {
      const change = await services.mail.transaction((tx, add) =>
        changeIn(tx, add, services, actor, request),
      );
      // A card order cancelled before it was paid: nobody may pay its Stripe page any more.
      if (change.outcome === "changed" && change.status === "cancelled" && services.card) {
        await expireLeftOpenSessions(services.db, services.card.gateway, request.number);
      }
      return change;
    } catch (error) {
      if (error instanceof Refused) return { outcome: "refused", message: error.message };
      if (attempt < ATTEMPTS && failedOnLockCycle(error)) {
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
  const order = await lockedOrder(tx, { number: request.number });
  if (!order) return { outcome: "not-found" };
  if (!isOrderStatus(order.status)) throw new Error(`order ${order.number} has an unknown status`);
  const from = order.status;
  if (from !== request.shownStatus) throw new Refused(await movedOnMessage(tx, order.id, from));

  const hasShipped = from === "shipped" || (await shippedBefore(tx, order.id));
  const to = nextStatus({ status: from, paymentMethod: order.paymentMethod, hasShipped }, request.action);
  // No action leads back to "placed" (order-status.ts): the check only tells the types so.
  if (!to || to === "placed" || to === "awaiting-payment") {
    throw new Refused(doesNotFitMessage(from, hasShipped, request.action));
  }

  const trackingNumber = to === "shipped" ? (request.trackingNumber ?? null) : order.trackingNumber;
  // Conditional on the status read under the lock: belt and braces for the same guarantee.
  const changed = await tx
    .update(orders)
    .set({ status: to, trackingNumber })
    .where(and(eq(orders.id, order.id), eq(orders.status, from)))
    .returning({ id: orders.id });
  if (changed.length === 0) throw new Refused(await movedOnMessage(tx, order.id, from));

  const stockReturned = to === "cancelled" ? await returnStock(tx, order.id) : undefined;
  // A card order's payment, if it was paid, now waits for the owner's refund (card-refund.server.ts).
  if (to === "cancelled" && order.paymentMethod === "card") await whenCardOrderCancelled(tx, order.id);
  await recordOrderEvent(tx, {
    orderId: order.id,
    from,
    to,
    actor,
    note: to === "shipped" ? trackingNumber : null,
  });
  await recordChange(tx, actor, {
    action: `order.${to}`,
    subject: `order:${order.number}`,
    subjectName: `order ${order.number}`,
    names: stockReturned?.map(productName),
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
        currency: order.currency,
        to,
        trackingNumber,
      },
      { orderUrl: new URL(orderPath(order.number, services.linkSecret), services.baseUrl).toString() },
    ),
  );
  // Paid: its invoice; cancelled after that: the credit note — last, so the number's row is held
  // only until the commit (docs/decisions/0049).
  await documentsForStatus(tx, order.id, to);
  return { outcome: "changed", status: to };
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
    // The change itself, not a note written beside it (a refund on a cancelled order).
    .where(
      and(
        eq(orderEvents.orderId, orderId),
        eq(orderEvents.toStatus, status),
        ne(orderEvents.fromStatus, orderEvents.toStatus),
      ),
    )
    .orderBy(desc(orderEvents.createdAt), desc(orderEvents.id))
    .limit(1);
  const done = CHANGE_WORDS[status].toLowerCase();
  const who = latest ? ` by ${latest.actorName} on ${WHEN.format(latest.createdAt)} UTC` : "";
  return `This order was ${done}${who} since this page was shown; nothing was changed. The page now shows the order as it is.`;
}

const ACTION_VERBS: Readonly<Record<StaffAction, string>> = {
  "mark-paid": "marked paid",
  "mark-shipped": "marked shipped",
  cancel: "cancelled",
};

function doesNotFitMessage(status: OrderStatus, hasShipped: boolean, action: StaffAction): string {
  const state =
    hasShipped && status !== "shipped"
      ? `${STATUS_LABELS[status].toLowerCase()} and has been shipped`
      : STATUS_LABELS[status].toLowerCase();
  return `This order is ${state}: it cannot be ${ACTION_VERBS[action]}; nothing was changed.`;
}
