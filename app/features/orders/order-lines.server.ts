import { asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orderLines } from "~/db/schema";

/** An order's lines as they were sold, in product order (on the shop's database or in a transaction). */
export function orderLinesOf(db: Pick<Database, "select">, orderId: number) {
  return db
    .select({
      productId: orderLines.productId,
      name: orderLines.name,
      unitPriceCents: orderLines.unitPriceCents,
      quantity: orderLines.quantity,
      lineTotalCents: orderLines.lineTotalCents,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.productId));
}
