import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Database, Transaction } from "~/db/client.server";
import { failedWith, retryingLockCycles, UNIQUE_VIOLATION } from "~/db/errors.server";
import { productOptions, products, productVariants, stockLevels } from "~/db/schema";
import { type Actor, productName, recordChange } from "~/utils/audit-log.server";
import { lockProductsStock } from "./stock.server";
import type { VariantAsked, VariantsAsked } from "./variants-schema";

/**
 * The one writer of a product's options and variants (docs/decisions/0045):
 * the options, the variants, their stock and the product's price range, in
 * one transaction with its audit entry. The product form, the import and the
 * demo seed come here. A variant asked without an id is the product's variant
 * with the same values when there is one (an archived one is restored), else
 * a new one; a variant no longer asked for is deleted, or archived when an
 * order names it (the books keep it).
 */

export type VariantsRefusal = { field: string; message: string };

/** Thrown inside the transaction to roll it back, answered as a refusal. */
class VariantsRefused extends Error {
  constructor(readonly refusal: VariantsRefusal) {
    super(refusal.message);
  }
}

interface StoredVariant {
  id: number;
  sku: string;
  values: string[];
  priceMinor: number;
  archived: boolean;
  onHand: number;
}

/** What the audit entry keeps of a product's variants: enough to read what changed. */
const summary = (
  options: VariantsAsked["options"],
  variants: { sku: string; values: string[]; priceMinor: number; onHand?: number }[],
) => ({
  options: options.map((option) => `${option.name}: ${option.values.map((value) => value.value).join(", ")}`),
  variants: variants.map(({ sku, values, priceMinor, onHand }) => ({ sku, values, priceMinor, onHand })),
});

/** Writes the options and variants in the caller's transaction; throws VariantsRefused. Answers the variants' ids, in the order asked. */
export async function writeVariantsIn(
  tx: Transaction,
  productId: number,
  asked: VariantsAsked,
  /** Who made the change, for the activity log; null for the demo seed, which is no one's change. */
  actor: Actor | null,
): Promise<number[]> {
  // Lock order (docs/decisions/0045): the product's row, its variants' rows, then their stock rows,
  // before anything is written. A checkout holds key-share locks on its line's product and variant
  // (the order line's foreign keys) while it waits for the stock rows; taking the product and its
  // variants first means this waits for such a checkout, never the other way round. The catalogue's
  // revision comes last, with the product's row written.
  const [product] = await tx
    .select({ name: products.name, sku: products.sku })
    .from(products)
    .where(eq(products.id, productId))
    .for("update");
  if (!product) throw new VariantsRefused({ field: "product", message: "There is no such product." });
  await tx
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.id))
    .for("update");
  await lockProductsStock(tx, [productId]);
  const stored = await storedVariants(tx, productId);
  const storedOptions = await tx
    .select({ name: productOptions.name, values: productOptions.values })
    .from(productOptions)
    .where(eq(productOptions.productId, productId))
    .orderBy(asc(productOptions.position));
  const matched = matchVariants(stored, asked.variants);
  checkStockShown(asked.variants, matched);

  await tx.delete(productOptions).where(eq(productOptions.productId, productId));
  if (asked.options.length > 0) {
    await tx.insert(productOptions).values(
      asked.options.map((option, at) => ({
        productId,
        position: at + 1,
        name: option.name,
        values: option.values,
      })),
    );
  }
  await removeUnasked(tx, stored, matched);
  const ids = await writeAsked(tx, productId, asked.variants, matched);
  const stocked = asked.variants.flatMap((variant, at) =>
    variant.onHand === undefined ? [] : [{ id: ids[at] as number, onHand: variant.onHand }],
  );
  if (stocked.length > 0) {
    await tx.execute(sql`
      update ${stockLevels} set on_hand = asked.on_hand
        from unnest(${sql.param(stocked.map((row) => row.id))}::int[], ${sql.param(stocked.map((row) => row.onHand))}::int[])
             as asked(id, on_hand)
       where ${stockLevels.variantId} = asked.id and ${stockLevels.onHand} <> asked.on_hand`);
  }
  // Every level of the product stamped by this transaction (drizzle/0016 stamps only a changed count):
  // each process's stock snapshot re-reads the product (catalog/core/stock-snapshot.server.ts),
  // whose units the variants archived, restored or deleted here change.
  await tx
    .update(stockLevels)
    .set({ changedBy: sql`pg_current_xact_id()` })
    .where(eq(stockLevels.productId, productId));
  await writePriceRange(tx, productId, asked);

  if (actor === null) return ids;
  await recordChange(tx, actor, {
    action: "product.variants-changed",
    subject: `product:${productId}`,
    subjectName: productName(product),
    names: asked.variants.map((variant) => variant.sku),
    before: summary(
      storedOptions,
      stored.filter((variant) => !variant.archived),
    ),
    after: summary(asked.options, asked.variants),
  });
  return ids;
}

/** The same, in a transaction of its own: the ids, or the refusal naming its field. */
export async function writeProductVariants(
  db: Database,
  productId: number,
  asked: VariantsAsked,
  actor: Actor,
): Promise<{ ok: true; variantIds: number[] } | ({ ok: false } & VariantsRefusal)> {
  try {
    // Ended to break a lock cycle (a catalogue import locks stock rows before products): run again.
    const variantIds = await retryingLockCycles(() =>
      db.transaction((tx) => writeVariantsIn(tx, productId, asked, actor)),
    );
    return { ok: true, variantIds };
  } catch (error) {
    if (error instanceof VariantsRefused) return { ok: false, ...error.refusal };
    if (
      failedWith(error, UNIQUE_VIOLATION, "product_variants_sku_idx") ||
      failedWith(error, UNIQUE_VIOLATION, "products_sku_idx")
    ) {
      return {
        ok: false,
        field: "variants",
        message: "A SKU asked for is another product's: each SKU names one variant.",
      };
    }
    throw error;
  }
}

async function storedVariants(tx: Transaction, productId: number): Promise<StoredVariant[]> {
  const rows = await tx
    .select({
      id: productVariants.id,
      sku: productVariants.sku,
      option1: productVariants.option1,
      option2: productVariants.option2,
      option3: productVariants.option3,
      priceMinor: productVariants.priceMinor,
      archived: sql<boolean>`${productVariants.archivedAt} is not null`,
      onHand: stockLevels.onHand,
    })
    .from(productVariants)
    .innerJoin(stockLevels, eq(stockLevels.variantId, productVariants.id))
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.position), asc(productVariants.id));
  return rows.map(({ option1, option2, option3, ...row }) => ({
    ...row,
    values: [option1, option2, option3].filter((value): value is string => value !== null),
  }));
}

/** Each asked variant's stored one (by id, else by values: a live one first), or undefined for a new one. */
function matchVariants(stored: StoredVariant[], asked: VariantAsked[]): (StoredVariant | undefined)[] {
  const taken = new Set<number>();
  const key = (values: readonly string[]) => JSON.stringify(values);
  return asked.map((variant, at) => {
    if (variant.id !== undefined) {
      const named = stored.find((each) => each.id === variant.id);
      if (!named || taken.has(named.id)) {
        throw new VariantsRefused({
          field: `variants.${at}.id`,
          message: "That variant is not one of this product's.",
        });
      }
      taken.add(named.id);
      return named;
    }
    const alike = stored
      .filter((each) => !taken.has(each.id) && key(each.values) === key(variant.values))
      .sort((a, b) => Number(a.archived) - Number(b.archived))[0];
    if (alike) taken.add(alike.id);
    return alike;
  });
}

/** A stock set from a count the page showed, refused when a sale (or another save) changed it since. */
function checkStockShown(asked: VariantAsked[], matched: (StoredVariant | undefined)[]) {
  for (const [at, variant] of asked.entries()) {
    const stored = matched[at];
    if (variant.onHand === undefined || variant.onHandShown === undefined || !stored) continue;
    if (stored.onHand !== variant.onHandShown) {
      throw new VariantsRefused({
        field: `variants.${at}.onHand`,
        message: `Stock changed since you opened this page: now ${stored.onHand}.`,
      });
    }
  }
}

/** The stored variants no longer asked for: deleted, or archived when an order names one. */
async function removeUnasked(
  tx: Transaction,
  stored: StoredVariant[],
  matched: (StoredVariant | undefined)[],
) {
  const kept = new Set(matched.flatMap((variant) => (variant ? [variant.id] : [])));
  const unasked = stored.filter((variant) => !kept.has(variant.id)).map((variant) => variant.id);
  if (unasked.length === 0) return;
  await tx.execute(sql`
    delete from ${productVariants} v where v.id = any(${sql.param(unasked)}::int[])
       and not exists (select 1 from order_lines l where l.variant_id = v.id)`);
  await tx
    .update(productVariants)
    .set({ archivedAt: sql`coalesce(${productVariants.archivedAt}, now())` })
    .where(inArray(productVariants.id, unasked));
}

/** Every asked variant written (updated or added); their ids in the order asked. */
async function writeAsked(
  tx: Transaction,
  productId: number,
  asked: VariantAsked[],
  matched: (StoredVariant | undefined)[],
): Promise<number[]> {
  const kept = matched.flatMap((variant) => (variant ? [variant.id] : []));
  if (kept.length > 0) {
    // Out of the way first: archived (out of the live values' unique index) and under a passing
    // SKU, so two variants trading values or SKUs never meet their own old ones.
    await tx
      .update(productVariants)
      .set({ archivedAt: sql`now()`, sku: sql`'moving:' || ${productVariants.id}` })
      .where(inArray(productVariants.id, kept));
  }
  const ids: number[] = [];
  for (const [at, variant] of asked.entries()) {
    const columns = {
      sku: variant.sku,
      option1: variant.values[0] ?? null,
      option2: variant.values[1] ?? null,
      option3: variant.values[2] ?? null,
      priceMinor: variant.priceMinor,
      compareAtMinor: variant.compareAtMinor ?? null,
      weightGrams: variant.weightGrams ?? null,
      image: variant.image ?? null,
      position: at,
      archivedAt: null,
    };
    const stored = matched[at];
    if (stored) {
      await tx.update(productVariants).set(columns).where(eq(productVariants.id, stored.id));
      ids.push(stored.id);
    } else {
      const [added] = await tx
        .insert(productVariants)
        .values({ productId, ...columns })
        .returning({ id: productVariants.id });
      ids.push((added as { id: number }).id);
    }
  }
  return ids;
}

/**
 * The product's row: its lowest live price, the highest when they differ, the cheapest variant's
 * "was" price (the lowest, when several are the cheapest), and (without options)
 * its SKU the one variant's. Written last, it is the catalogue change every process applies.
 */
async function writePriceRange(tx: Transaction, productId: number, asked: VariantsAsked) {
  const prices = asked.variants.map((variant) => variant.priceMinor);
  const lowest = Math.min(...prices);
  const highest = Math.max(...prices);
  const only = asked.options.length === 0 ? asked.variants[0] : undefined;
  const wasPrices = asked.variants.flatMap((variant) =>
    variant.priceMinor === lowest && variant.compareAtMinor != null ? [variant.compareAtMinor] : [],
  );
  await tx
    .update(products)
    .set({
      priceMinor: lowest,
      priceMaxMinor: highest > lowest ? highest : null,
      compareAtMinor: wasPrices.length > 0 ? Math.min(...wasPrices) : null,
      ...(only ? { sku: only.sku } : {}),
    })
    .where(eq(products.id, productId));
}
