import { randomBytes } from "node:crypto";
import type { Database } from "~/db/client.server";
import { orders } from "~/db/schema";
import { SHOPPER_ADDRESS } from "./shopper";

/**
 * `count` orders with nothing in them but what the table requires: for tests
 * of what is issued for an order (its invoice, its credit note), not of what
 * it holds. Placed (the column's default), paid on delivery, $10.
 */
export async function bareOrders(db: Pick<Database, "insert">, count: number): Promise<number[]> {
  const batch = randomBytes(4).toString("hex");
  const rows = await db
    .insert(orders)
    .values(
      Array.from({ length: count }, (_, at) => ({
        number: `BL-T${batch}${at}`,
        idempotencyScope: "test:bare-orders",
        idempotencyKey: `${batch}-${at}`,
        requestHash: batch,
        email: "bare@example.com",
        shippingAddress: SHOPPER_ADDRESS,
        shippingMethod: "standard",
        paymentMethod: "cash-on-delivery",
        subtotalCents: 1000,
        shippingCents: 0,
        totalCents: 1000,
        currency: "USD",
      })),
    )
    .returning({ id: orders.id });
  return rows.map((row) => row.id);
}
