import type { Transaction } from "~/db/client.server";
import { orderEvents } from "~/db/schema";

/**
 * One entry of an order's timeline (/admin/orders/<number>), written in the
 * transaction of what it records. A status change has `from` and `to`; a
 * fact that changes no status (a card payment that arrived after the order
 * was cancelled, a refund) has the same status on both sides and says
 * itself in its note.
 */
export interface OrderEvent {
  orderId: number;
  from: string;
  to: string;
  /** A staff member, or nobody (`id` null) for Stripe and the shop's own clock, named as the timeline says. */
  actor: { id: string | null; name: string };
  note?: string | null;
}

export async function recordOrderEvent(tx: Transaction, event: OrderEvent): Promise<void> {
  await tx.insert(orderEvents).values({
    orderId: event.orderId,
    fromStatus: event.from,
    toStatus: event.to,
    actorId: event.actor.id,
    actorName: event.actor.name,
    note: event.note ?? null,
  });
}

/** How the timeline names what Stripe and the shop's clock did, where a staff member's name would be. */
export const STRIPE_ACTOR = { id: null, name: "Stripe" } as const;
export const SHOP_CLOCK_ACTOR = { id: null, name: "The shop (payment window closed)" } as const;
