import { asc, inArray, sql } from "drizzle-orm";
import { type CurrencyCode, minorAtMost } from "~/commerce/money";
import { lockProductsStock } from "~/commerce/stock.server";
import { writeVariantsIn } from "~/commerce/variant-writing.server";
import { productVariantsSchema, type VariantsAsked } from "~/commerce/variants-schema";
import type { Database, Transaction } from "~/db/client.server";
import { products, productVariants } from "~/db/schema";
import {
  type PageOption,
  type PageVariant,
  type ProductVariants,
  variantsOfProducts,
} from "../core/product-variants.server";
import type { FileProblem } from "./catalog-file.server";
import type { FileVariant } from "./catalog-file-variants.server";

/**
 * The import's side of variants (docs/decisions/0045): a product's rows
 * compared with its stored options and variants, and, where they differ,
 * written by the one variant writer in the import's transaction. A product
 * without options whose row gives only what the product's row holds (price,
 * stock) is no concern of this module: the import writes it in bulk, as ever.
 */

/** What the import knows of a row's product for its variants. */
export interface VariantRow {
  sku: string;
  line: number;
  price: number;
  stock?: number | undefined;
  options?: { name: string; values: string[] }[];
  /** With pictures made ready: `image` is the address the variant shows. */
  variants?: FileVariant[];
}

const BATCH = 5_000;

/** Whether a row's product goes through the variant writer: it has options, or gives what only a variant holds. */
export function takesVariantWriter(
  row: VariantRow,
  before: { options: number; variantCount: number } | undefined,
) {
  if ((row.options?.length ?? 0) > 0) return true;
  if (before && (before.options > 0 || before.variantCount > 1)) return true;
  const [only] = row.variants ?? [];
  return (
    only !== undefined &&
    (only.compareAtPrice !== undefined || only.weightGrams !== undefined || only.image !== undefined)
  );
}

/**
 * The options and variants a row asks for, in the writer's terms: what the file leaves empty is
 * the stored variant's (same values), an option keeps its stored values' order and swatches
 * (values the file adds go after them), and a stored "was" price at or under a new price ends.
 */
function askedVariants(
  row: VariantRow,
  stored: ProductVariants | undefined,
  currency: CurrencyCode,
): VariantsAsked {
  const options = (row.options ?? []).map((option, at) => {
    const kept = stored?.options[at];
    const fresh = (values: string[]) => values.map((value) => ({ value }));
    if (!kept || kept.name !== option.name) return { name: option.name, values: fresh(option.values) };
    const known = new Set(kept.values.map(({ value }) => value));
    return {
      name: option.name,
      values: [...kept.values, ...fresh(option.values.filter((v) => !known.has(v)))],
    };
  });
  const given: FileVariant[] = row.variants ?? [
    { line: row.line, sku: row.sku, values: [], price: row.price },
  ];
  const fileVariants = options.length === 0 ? given.slice(0, 1) : given;
  const key = (values: readonly string[]) => values.join("\u0000");
  const variants = fileVariants.map((variant) => {
    const same = stored?.variants.find((each) => key(each.values) === key(variant.values));
    const priceMinor = minorAtMost(variant.price, currency);
    const storedWas =
      same?.compareAtMinor != null && same.compareAtMinor > priceMinor ? same.compareAtMinor : null;
    const onHand = options.length === 0 ? (variant.stock ?? row.stock) : variant.stock;
    return {
      sku: options.length === 0 ? row.sku : variant.sku,
      values: variant.values.slice(0, options.length),
      priceMinor,
      compareAtMinor:
        variant.compareAtPrice === undefined ? storedWas : minorAtMost(variant.compareAtPrice, currency),
      weightGrams: variant.weightGrams ?? same?.weightGrams ?? null,
      image: variant.image ?? same?.image ?? null,
      ...(onHand === undefined ? {} : { onHand }),
    };
  });
  return { options, variants };
}

/** Whether writing `asked` would change nothing stored. */
function sameVariants(asked: VariantsAsked, stored: ProductVariants | undefined): boolean {
  if (!stored) return false;
  const option = ({ name, values }: PageOption) =>
    JSON.stringify([name, values.map(({ value, swatch }) => [value, swatch ?? null])]);
  if (asked.options.length !== stored.options.length) return false;
  if (asked.options.some((each, at) => option(each) !== option(stored.options[at] as PageOption)))
    return false;
  if (asked.variants.length !== stored.variants.length) return false;
  return asked.variants.every((variant, at) => {
    const was = stored.variants[at] as PageVariant;
    return (
      variant.sku === was.sku &&
      variant.values.join("\u0000") === was.values.join("\u0000") &&
      variant.priceMinor === was.priceMinor &&
      (variant.compareAtMinor ?? null) === was.compareAtMinor &&
      (variant.weightGrams ?? null) === was.weightGrams &&
      (variant.image ?? null) === was.image &&
      (variant.onHand === undefined || variant.onHand === was.stock)
    );
  });
}

/** A product of the file the variant writer would write, and the values the import writes for it. */
export interface VariantPlanItem {
  row: VariantRow;
  before: { id: number; options: number; variantCount: number; price: number; stock: number } | undefined;
  values: { price: number; stock?: number | undefined; variants?: VariantsAsked };
}

/**
 * Decides, for each product the writer would write, what it asks and whether that changes
 * anything: `values.variants` set when it does, with the product's price and stock left to
 * the writer. Those it cannot take are answered, by sku, with a warning on their line.
 */
export async function planVariants(
  db: Pick<Database, "select">,
  items: readonly VariantPlanItem[],
  currency: CurrencyCode,
): Promise<{ warnings: FileProblem[]; refused: Set<string> }> {
  const stored = await variantsOfProducts(
    db,
    items.flatMap(({ before }) => (before ? [before.id] : [])),
  );
  const warnings: FileProblem[] = [];
  const refused = new Set<string>();
  const changed = new Map<string, VariantsAsked>();
  for (const { row, before, values } of items) {
    if (before && (before.options > 0 || before.variantCount > 1) && !row.options?.length) {
      // A product row alone (a file of the old columns, say) cannot say which variant its price
      // or stock is: the variants stay as they are, and a row asking for others is told so.
      const differs =
        before.price !== values.price || (values.stock !== undefined && values.stock !== before.stock);
      values.price = before.price;
      values.stock = undefined;
      if (differs) {
        warnings.push({
          line: row.line,
          column: "price",
          message: `${row.sku} is sold in variants: this row names none, so its price and stock are not used (give a row per variant, with its options).`,
        });
      }
      continue;
    }
    const was = before && stored.get(before.id);
    const asked = askedVariants(row, was, currency);
    const refusal = variantsRefusal(asked, row.line, row.sku);
    if (refusal) {
      warnings.push(refusal);
      refused.add(row.sku);
      continue;
    }
    // The product's own row keeps its price and stock: the writer writes them with the variants.
    values.stock = undefined;
    if (before) values.price = before.price;
    if (!sameVariants(asked, was)) changed.set(row.sku, asked);
  }
  for (const [sku, clash] of await skusOfOtherProducts(db, changed)) {
    const item = items.find(({ row }) => row.sku === sku);
    warnings.push({
      line: item?.row.line ?? 1,
      message: `${sku} is left out: SKU ${clash.sku} is a variant of ${clash.owner}; each SKU names one variant.`,
    });
    refused.add(sku);
    changed.delete(sku);
  }
  for (const { row, values } of items) {
    const asked = changed.get(row.sku);
    if (asked) values.variants = asked;
  }
  return { warnings, refused };
}

/** Why the writer could not take what a row asks (a warning on its line), or null. */
function variantsRefusal(asked: VariantsAsked, line: number, sku: string): FileProblem | null {
  const checked = productVariantsSchema.safeParse(asked);
  if (checked.success) return null;
  return {
    line,
    message: `${sku} is left out: ${checked.error.issues[0]?.message ?? "its variants are not valid."}`,
  };
}

/**
 * Variant SKUs the rows ask for that another product's live or archived variant already has:
 * by the asking product's sku, the SKU and its owner's sku.
 */
async function skusOfOtherProducts(
  db: Pick<Database, "select">,
  asked: ReadonlyMap<string, VariantsAsked>,
): Promise<Map<string, { sku: string; owner: string }>> {
  const askedBy = new Map<string, string>();
  for (const [productSku, { variants }] of asked) {
    for (const variant of variants) askedBy.set(variant.sku, productSku);
  }
  const clashes = new Map<string, { sku: string; owner: string }>();
  const skus = [...askedBy.keys()];
  for (let start = 0; start < skus.length; start += BATCH) {
    const rows = await db
      .select({ sku: productVariants.sku, owner: products.sku })
      .from(productVariants)
      .innerJoin(products, sql`${products.id} = ${productVariants.productId}`)
      .where(inArray(productVariants.sku, skus.slice(start, start + BATCH)));
    for (const { sku, owner } of rows) {
      const productSku = askedBy.get(sku);
      if (productSku !== undefined && productSku !== owner) clashes.set(productSku, { sku, owner });
    }
  }
  return clashes;
}

/**
 * Locks the products whose variants an import rewrites as the writer does (product rows, their
 * variants, then their stock), before anything else is locked or written: the import then takes
 * the bulk stock levels, and waits for no checkout once it writes (applyCatalogImport).
 */
export async function lockVariantProducts(tx: Transaction, skus: readonly string[]): Promise<void> {
  if (skus.length === 0) return;
  const rows = await tx
    .select({ id: products.id })
    .from(products)
    .where(sql`${products.sku} = any(${sql.param(skus)}::text[])`)
    .orderBy(asc(products.id))
    .for("update");
  const ids = rows.map((row) => row.id);
  await tx.execute(sql`
    select id from ${productVariants} where product_id = any(${sql.param(ids)}::int[])
     order by product_id, id for update`);
  await lockProductsStock(tx, ids);
}

/** Writes each product's asked variants (no audit entry each: the import's one entry says what it did). */
export async function writeImportedVariants(
  tx: Transaction,
  asked: readonly { sku: string; variants: VariantsAsked }[],
  /** Between products: where an interrupted import stops. */
  checkpoint: () => Promise<void>,
): Promise<void> {
  if (asked.length === 0) return;
  const ids = new Map<string, number>();
  const skus = asked.map((product) => product.sku);
  for (let start = 0; start < skus.length; start += BATCH) {
    const rows = await tx
      .select({ id: products.id, sku: products.sku })
      .from(products)
      .where(inArray(products.sku, skus.slice(start, start + BATCH)));
    for (const { id, sku } of rows) ids.set(sku, id);
  }
  let since = 0;
  for (const { sku, variants } of asked) {
    const id = ids.get(sku);
    if (id !== undefined) await writeVariantsIn(tx, id, variants, null);
    if (++since % 100 === 0) await checkpoint();
  }
}
