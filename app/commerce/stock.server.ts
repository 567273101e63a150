import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Transaction } from "~/db/client.server";
import { fixedStatement } from "~/db/fixed-statement.server";
import { onSale as isOnSale } from "~/db/product-on-sale";
import { products, stockLevels } from "~/db/schema";

/**
 * Taking and returning stock, in one place: checkout takes, and a
 * cancellation, an unpaid card order's expiry and a refund return.
 *
 * Lock order: every stock row of the lines' products is locked, in (product, variant) order, before
 * any is written. A level going to or coming back from zero also takes the
 * catalogue's revision row (drizzle/0022's trigger); only a transaction that
 * already holds all its stock rows ever asks for it, so two transactions
 * never each hold what the other waits for (docs/decisions/0027). A catalogue
 * import locks its stock rows in the same order.
 */

/** One product's units: asked for, or going back. */
export interface StockLine {
  productId: number;
  quantity: number;
}

/**
 * Locks every stock row of the lines' products in (product, variant) order (fixed: every checkout
 * runs it, docs/decisions/0047): two checkouts of two variants of one product wait for each other.
 */
const lockStockRows = fixedStatement<never, "productIds">(
  (value) => sql`
    select ${stockLevels.variantId} from ${stockLevels}
     where ${stockLevels.productId} = any(${value("productIds")}::int[])
     order by ${stockLevels.productId}, ${stockLevels.variantId} for update`,
);

/** The same lock, reading each product's SKU on the way (for the audit log of what went back). */
async function lockStockRowsWithSkus(tx: Transaction, productIds: number[]): Promise<Map<number, string>> {
  const locked = await tx
    .select({ productId: stockLevels.productId, sku: products.sku })
    .from(stockLevels)
    .innerJoin(products, eq(products.id, stockLevels.productId))
    .where(inArray(stockLevels.productId, productIds))
    .orderBy(asc(stockLevels.productId), asc(stockLevels.variantId))
    .for("update", { of: stockLevels });
  return new Map(locked.map((row) => [row.productId, row.sku]));
}

/** Not archived by the owner: an archived product is kept for past orders, never sold again. */
const onSale = (productId: number | typeof stockLevels.productId | SQL) =>
  sql`exists (select 1 from ${products} where ${products.id} = ${productId} and ${isOnSale})`;

const inProductOrder = (lines: readonly StockLine[]) => [...lines].sort((a, b) => a.productId - b.productId);

/** Every line taken, never below zero, never of a product no longer on sale: the lines it answers are taken. */
const takeEach = fixedStatement<{ productId: number }, "productIds" | "quantities">(
  (value) => sql`
    update ${stockLevels} set on_hand = ${stockLevels.onHand} - asked.quantity
      from unnest(${value("productIds")}::int[], ${value("quantities")}::int[]) as asked(product_id, quantity)
     where ${stockLevels.productId} = asked.product_id and ${stockLevels.onHand} >= asked.quantity
       and ${onSale(sql`asked.product_id`)}
    returning ${stockLevels.productId} as "productId"`,
);

/**
 * Takes each line's units with a conditional update (never below zero, never
 * of an archived product). Returns the short lines with what is left of
 * each (0 for a product no longer sold); when any is short, the caller rolls
 * the transaction back, so nothing is taken.
 *
 * Two round trips however many lines: the lock, then every line taken by one
 * statement. The rows stay locked from the first until the commit, and the
 * most popular products' rows are what other checkouts wait for, so each
 * round trip saved between them is time no other checkout waits.
 */
export async function takeStock(
  tx: Transaction,
  lines: readonly StockLine[],
): Promise<{ productId: number; asked: number; left: number }[]> {
  const ordered = inProductOrder(lines);
  const productIds = ordered.map((line) => line.productId);
  await lockStockRows(tx, { productIds });
  const taken = new Set(
    (await takeEach(tx, { productIds, quantities: ordered.map((line) => line.quantity) })).map(
      (row) => row.productId,
    ),
  );
  const short = ordered.filter((line) => !taken.has(line.productId));
  if (short.length === 0) return [];
  const levels = await tx
    .select({ productId: stockLevels.productId, onHand: stockLevels.onHand })
    .from(stockLevels)
    // An archived product is no longer sold: none of it is left to order.
    .where(
      and(
        inArray(
          stockLevels.productId,
          short.map((line) => line.productId),
        ),
        onSale(stockLevels.productId),
      ),
    );
  const left = new Map(levels.map((level) => [level.productId, level.onHand]));
  return short.map((line) => ({
    productId: line.productId,
    asked: line.quantity,
    left: left.get(line.productId) ?? 0,
  }));
}

/** Puts each line's units back on hand; each line's product SKU, by id, for the audit log. */
export async function returnStock(
  tx: Transaction,
  lines: readonly StockLine[],
): Promise<Map<number, string>> {
  if (lines.length === 0) return new Map();
  const ordered = inProductOrder(lines);
  const skus = await lockStockRowsWithSkus(
    tx,
    ordered.map((line) => line.productId),
  );
  for (const line of ordered) {
    const returned = await tx
      .update(stockLevels)
      .set({ onHand: sql`${stockLevels.onHand} + ${line.quantity}` })
      .where(eq(stockLevels.productId, line.productId))
      .returning({ productId: stockLevels.productId });
    if (returned.length === 0) throw new Error(`product ${line.productId} has no stock level`);
  }
  return skus;
}
