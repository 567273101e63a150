import { eq } from "drizzle-orm";
import type { Transaction } from "~/db/client.server";
import { orders } from "~/db/schema";

/**
 * An order's row, locked: every card use case takes it first, then the
 * payment's, in that order; the back office's status changes take it too.
 */
export async function lockedOrder(tx: Transaction, where: { id: number } | { number: string }) {
  const [order] = await tx
    .select({
      id: orders.id,
      number: orders.number,
      status: orders.status,
      email: orders.email,
      paymentMethod: orders.paymentMethod,
      totalCents: orders.totalCents,
      currency: orders.currency,
      shippingAddress: orders.shippingAddress,
      trackingNumber: orders.trackingNumber,
    })
    .from(orders)
    .where("id" in where ? eq(orders.id, where.id) : eq(orders.number, where.number))
    .for("update");
  return order ?? null;
}

export type LockedOrder = NonNullable<Awaited<ReturnType<typeof lockedOrder>>>;
