import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Transaction } from "~/db/client.server";
import { fixedStatement } from "~/db/fixed-statement.server";
import { onSale as isOnSale } from "~/db/product-on-sale";
import { products, productVariants, stockLevels } from "~/db/schema";

/**
 * Taking and returning stock, in one place: checkout takes, and a
 * cancellation, an unpaid card order's expiry and a refund return.
 *
 * Lock order: every stock row of the lines' products is locked, in (product,
 * variant) order, before any is written. A level going to or coming back from zero also takes the
 * catalogue's revision row (drizzle/0022's trigger); only a transaction that
 * already holds all its stock rows ever asks for it, so two transactions
 * never each hold what the other waits for (docs/decisions/0027). A catalogue
 * import locks its stock rows in the same order.
 */

/** One variant's units, asked for or going back; its product beside it (whose rows are locked). */
export interface StockLine {
  productId: number;
  variantId: number;
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

/**
 * Locks every stock row of these products, in (product, variant) order, as a checkout does: what
 * any other writer of a product's levels (the variant writer) takes first.
 */
export async function lockProductsStock(tx: Transaction, productIds: readonly number[]): Promise<void> {
  await lockStockRows(tx, { productIds: [...new Set(productIds)].sort((a, b) => a - b) });
}

/**
 * Still sold: neither the product nor the variant archived by the owner (an archived one is kept
 * for past orders, never sold again).
 */
const onSale = (variantId: typeof stockLevels.variantId | SQL) =>
  sql`exists (select 1 from ${productVariants} v join ${products} on ${products.id} = v.product_id
               where v.id = ${variantId} and v.archived_at is null and ${isOnSale})`;

/** The products' ids, once each, in order: the order their rows are locked in. */
const productsInOrder = (lines: readonly StockLine[]) =>
  [...new Set(lines.map((line) => line.productId))].sort((a, b) => a - b);

/** Every line taken, never below zero, never of a variant no longer on sale: the lines it answers are taken. */
const takeEach = fixedStatement<{ variantId: number }, "productIds" | "variantIds" | "quantities">(
  (value) => sql`
    update ${stockLevels} set on_hand = ${stockLevels.onHand} - asked.quantity
      from unnest(${value("productIds")}::int[], ${value("variantIds")}::int[], ${value("quantities")}::int[])
           as asked(product_id, variant_id, quantity)
     -- The product too: a line naming a variant of another product (whose rows are not locked) takes nothing.
     where ${stockLevels.variantId} = asked.variant_id and ${stockLevels.productId} = asked.product_id
       and ${stockLevels.onHand} >= asked.quantity
       and ${onSale(sql`asked.variant_id`)}
    returning ${stockLevels.variantId} as "variantId"`,
);

/** A line short of stock: what was asked, and what is left (0 for a variant no longer sold). */
export interface ShortStock extends StockLine {
  asked: number;
  left: number;
}

/**
 * Takes each line's units with a conditional update (never below zero, never
 * of an archived product or variant). Returns the short lines with what is
 * left of each; when any is short, the caller rolls the transaction back, so
 * nothing is taken. The lines name each variant once.
 *
 * Two round trips however many lines: the lock, then every line taken by one
 * statement. The rows stay locked from the first until the commit, and the
 * most popular products' rows are what other checkouts wait for, so each
 * round trip saved between them is time no other checkout waits.
 */
export async function takeStock(tx: Transaction, lines: readonly StockLine[]): Promise<ShortStock[]> {
  await lockStockRows(tx, { productIds: productsInOrder(lines) });
  const taken = new Set(
    (
      await takeEach(tx, {
        productIds: lines.map((line) => line.productId),
        variantIds: lines.map((line) => line.variantId),
        quantities: lines.map((line) => line.quantity),
      })
    ).map((row) => row.variantId),
  );
  const short = lines.filter((line) => !taken.has(line.variantId));
  if (short.length === 0) return [];
  const levels = await tx
    .select({ variantId: stockLevels.variantId, onHand: stockLevels.onHand })
    .from(stockLevels)
    // An archived product or variant is no longer sold: none of it is left to order.
    .where(
      and(
        inArray(
          stockLevels.variantId,
          short.map((line) => line.variantId),
        ),
        onSale(stockLevels.variantId),
      ),
    );
  const left = new Map(levels.map((level) => [level.variantId, level.onHand]));
  return short.map((line) => ({ ...line, asked: line.quantity, left: left.get(line.variantId) ?? 0 }));
}

/** Puts each line's units back on hand (the lines name each variant once). */
export async function returnStock(tx: Transaction, lines: readonly StockLine[]): Promise<void> {
  if (lines.length === 0) return;
  await lockStockRows(tx, { productIds: productsInOrder(lines) });
  for (const line of lines) {
    const returned = await tx
      .update(stockLevels)
      .set({ onHand: sql`${stockLevels.onHand} + ${line.quantity}` })
      .where(eq(stockLevels.variantId, line.variantId))
      .returning({ variantId: stockLevels.variantId });
    if (returned.length === 0) throw new Error(`variant ${line.variantId} has no stock level`);
  }
}
