import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Transaction } from "~/db/client.server";
import { stockLevels } from "~/db/schema";
import { orderLinesOf } from "./order-lines.server";

/**
 * Every line's units back on hand. The stock rows are locked in product
 * order before any is written, as placing an order locks them
 * (place-order.server.ts): a level coming back from zero takes the
 * catalogue's revision row (drizzle/0011), and only a transaction holding all
 * its stock rows ever asks for it, so the two never wait on each other.
 */
export async function returnStock(
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
