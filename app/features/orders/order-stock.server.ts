import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Transaction } from "~/db/client.server";
import { products, stockLevels } from "~/db/schema";
import { orderLinesOf } from "./order-lines.server";

/**
 * Every line's units back on hand. The stock rows are locked in product
 * order before any is written, as placing an order locks them
 * (place-order.server.ts): a level coming back from zero takes the
 * catalogue's revision row (drizzle/0011), and only a transaction holding all
 * its stock rows ever asks for it, so the two never wait on each other.
 * Each line comes back with the name it was sold under and the product's
 * SKU, for the audit log to say what went back.
 */
export async function returnStock(
  tx: Transaction,
  orderId: number,
): Promise<{ productId: number; name: string; sku: string; quantity: number }[]> {
  const lines = await orderLinesOf(tx, orderId);
  if (lines.length === 0) return [];
  const locked = await tx
    .select({ productId: stockLevels.productId, sku: products.sku })
    .from(stockLevels)
    .innerJoin(products, eq(products.id, stockLevels.productId))
    .where(
      inArray(
        stockLevels.productId,
        lines.map((line) => line.productId),
      ),
    )
    .orderBy(asc(stockLevels.productId))
    .for("update", { of: stockLevels });
  for (const line of lines) {
    const returned = await tx
      .update(stockLevels)
      .set({ onHand: sql`${stockLevels.onHand} + ${line.quantity}` })
      .where(eq(stockLevels.productId, line.productId))
      .returning({ productId: stockLevels.productId });
    if (returned.length === 0) throw new Error(`product ${line.productId} has no stock level`);
  }
  const skus = new Map(locked.map((row) => [row.productId, row.sku]));
  return lines.map(({ productId, name, quantity }) => ({
    productId,
    name,
    sku: skus.get(productId) ?? "",
    quantity,
  }));
}
