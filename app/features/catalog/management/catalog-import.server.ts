import { setImmediate } from "node:timers/promises";
import { and, eq, inArray, sql } from "drizzle-orm";
import { minorAtMost } from "~/commerce/money";
import { isShopperOrder } from "~/commerce/sales";
import { shopMoney } from "~/commerce/shop-money.server";
import { productOptionCount, productUnitsOnHand } from "~/commerce/units-on-hand.server";
import type { VariantsAsked } from "~/commerce/variants-schema";
import type { Database, Transaction } from "~/db/client.server";
import { brands, categories, orderLines, orders, products } from "~/db/schema";
import { eventLoopTurns } from "~/utils/event-loop-turns.server";
import { PLACEHOLDER_PICTURE } from "../core/catalog-format";
import { productColumns, readFacetValues } from "../core/product-rows.server";
import type { CheckedRow, FileProblem } from "./catalog-file.server";
import { type FacetChanges, facetResolver } from "./import-facets.server";
import {
  lockVariantProducts,
  planVariants,
  takesVariantWriter,
  writeImportedVariants,
} from "./import-variants.server";

/**
 * A catalogue import, as `npm run catalog:import` runs it: the rows of a
 * checked file compared with the catalogue by sku (planCatalogImport), then
 * written in one transaction (applyCatalogImport), so the shop's catalogue
 * is the old one or the new one, never half of each. Re-importing the same
 * file changes nothing; a changed row updates its product; with `prune`,
 * products the file no longer has are removed — except those an order names
 * (its lines refer to them): those are kept and reported, and the rest of the
 * import goes on.
 */

/**
 * A checked row whose pictures have been made ready: `image` is the address the product shows
 * (and each variant's, its own). Without `variants`, the row is its product's one variant.
 */
export type ImportRow = Omit<CheckedRow, "image"> & { image?: string };

/** A product's columns as the import writes them. */
interface ProductValues {
  sku: string;
  name: string;
  description: string;
  image: string;
  price: number;
  ratings: number;
  bandName: string;
  category: string;
  creationDate: Date;
  /** Units on hand (stock_levels), only when the file gives them: a level it does not give is never written. */
  stock?: number | undefined;
  /** Its options and variants when the file changes them: written by the variant writer, price and stock with them. */
  variants?: VariantsAsked;
}

export interface ImportPlan {
  /** Labels a file gives one brand or category differently on later lines: the first is used. */
  warnings: FileProblem[];
  added: ProductValues[];
  /** In the catalogue's order (product id): the order their stock levels are locked in, as a checkout does. */
  updated: ProductValues[];
  unchanged: number;
  /** The skus of products the file does not have (only with `prune`). */
  removed: string[];
  /** The skus of products the file does not have that an order names: kept, not removed (only with `prune`). */
  ordered: string[];
  brands: FacetChanges;
  categories: FacetChanges;
}

/** How many products a plan writes: what the progress counts. */
export function changedProducts(plan: ImportPlan): number {
  return plan.added.length + plan.updated.length + plan.removed.length;
}

/** Whether a plan changes anything at all: products, or brands and categories alone. */
export function changesAnything(plan: ImportPlan): boolean {
  const facets = ({ added, relabelled, removed }: FacetChanges) =>
    added.length + relabelled.length + removed.length;
  return changedProducts(plan) + facets(plan.brands) + facets(plan.categories) > 0;
}

/** The skus of the catalogue's products a file does not name: what `prune` would remove. */
export async function productsAbsentFrom(db: Database, inFile: ReadonlySet<string>): Promise<string[]> {
  const all = await db.select({ sku: products.sku }).from(products);
  return all.map(({ sku }) => sku).filter((sku) => !inFile.has(sku));
}

interface PlanOptions {
  prune: boolean;
  /** Every sku the file names (its invalid rows' too): with `prune`, the products that stay. */
  keep: ReadonlySet<string>;
  now: Date;
}

/** What importing `rows` would change in the catalogue: read from the database, nothing written. */
export async function planCatalogImport(
  db: Pick<Database, "select">,
  rows: readonly ImportRow[],
  { prune, keep, now }: PlanOptions,
): Promise<ImportPlan> {
  // In turn, not at once: `db` is the import's transaction, one connection (readFacetValues).
  const { brands: knownBrands, categories: knownCategories } = await readFacetValues(db);
  const existing = await db
    .select({
      sku: products.sku,
      ...productColumns(),
      // Its variants' sum: a product of one variant has its one level.
      stock: productUnitsOnHand,
      options: productOptionCount,
    })
    .from(products);
  const brandOf = facetResolver(knownBrands, "brand_label");
  const categoryOf = facetResolver(knownCategories, "category_label");
  const bySku = new Map(existing.map((product) => [product.sku, product]));
  const plan: ImportPlan = {
    warnings: [],
    added: [],
    updated: [],
    unchanged: 0,
    removed: [],
    ordered: [],
    brands: { added: [], relabelled: [], removed: [] },
    categories: { added: [], relabelled: [], removed: [] },
  };
  const after: ProductValues[] = [];
  const variantItems: {
    row: ImportRow;
    before: (typeof existing)[number] | undefined;
    values: ProductValues;
  }[] = [];
  // A file of many thousand rows is compared in slices: the process keeps answering meanwhile.
  const turn = eventLoopTurns();
  for (const row of rows) {
    await turn();
    const before = bySku.get(row.sku);
    const values: ProductValues = {
      sku: row.sku,
      name: row.name,
      description: row.description ?? before?.description ?? "",
      image: row.image ?? before?.image ?? PLACEHOLDER_PICTURE,
      price: row.price,
      // Reviewed by buyers, a product's rating is its reviews' mean (drizzle/0015): a file's is kept
      // only for a product nobody has reviewed yet.
      ratings: before && before.ratingCount > 0 ? before.ratings : (row.rating ?? before?.ratings ?? 0),
      bandName: brandOf.resolve(row.brand, row.brand_label, row.line),
      category: categoryOf.resolve(row.category, row.category_label, row.line),
      creationDate: row.created ?? before?.creationDate ?? now,
      stock: row.stock,
    };
    after.push(values);
    const byWriter = takesVariantWriter(row, before);
    if (byWriter) variantItems.push({ row, before, values });
    // A new product is added in the file's order (its id, an export's order, follows it); a
    // product the variant writer would write is compared once all of them are known, below.
    if (!before) plan.added.push(values);
    else if (byWriter) continue;
    else if (sameProduct(before, values)) plan.unchanged++;
    else plan.updated.push(values);
  }
  const variantPlan = await planVariants(db, variantItems, shopMoney().currency);
  if (variantPlan.refused.size > 0) {
    plan.added = plan.added.filter((values) => !variantPlan.refused.has(values.sku));
  }
  for (const { row, before, values } of variantItems) {
    if (!before || variantPlan.refused.has(row.sku)) continue;
    if (sameProduct(before, values)) plan.unchanged++;
    else plan.updated.push(values);
  }
  const idOf = (product: ProductValues) => bySku.get(product.sku)?.id ?? 0;
  plan.updated.sort((x, y) => idOf(x) - idOf(y));
  plan.brands = brandOf.changes();
  plan.categories = categoryOf.changes();
  plan.warnings = [...brandOf.warnings(), ...categoryOf.warnings(), ...variantPlan.warnings].sort(
    (x, y) => x.line - y.line,
  );
  if (prune) {
    // Products the file names stay, even on a line left out as invalid (--skip-invalid): only the
    // ones it does not name at all go, and the brands and categories no product has afterwards.
    // An order's lines refer to their products (a foreign key that restricts): those stay.
    const inRows = new Set<string>();
    for (const row of rows) {
      await turn();
      inRows.add(row.sku);
    }
    const absent = existing.filter((product) => !keep.has(product.sku));
    const ordered = await orderedProducts(
      db,
      absent.map((product) => product.id),
    );
    const stays = existing.filter(
      (product) => (keep.has(product.sku) && !inRows.has(product.sku)) || ordered.has(product.id),
    );
    plan.removed = absent.filter((product) => !ordered.has(product.id)).map((product) => product.sku);
    plan.ordered = absent.filter((product) => ordered.has(product.id)).map((product) => product.sku);
    const usedBrands = new Set<string>();
    const usedCategories = new Set<string>();
    for (const products of [stays, after]) {
      for (const { bandName, category } of products) {
        await turn();
        usedBrands.add(bandName);
        usedCategories.add(category);
      }
    }
    plan.brands.removed = knownBrands.map(({ value }) => value).filter((value) => !usedBrands.has(value));
    plan.categories.removed = knownCategories
      .map(({ value }) => value)
      .filter((value) => !usedCategories.has(value));
  }
  return plan;
}

/** Which of these products a shopper's order names: only those keep a product the import prunes. */
async function orderedProducts(db: Pick<Database, "select">, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ productId: orderLines.productId })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(and(sql`${orderLines.productId} = any(${sql.param(ids)}::int[])`, isShopperOrder(orders)))
    .groupBy(orderLines.productId);
  return new Set(rows.map((row) => row.productId));
}

function sameProduct(before: ProductValues, after: ProductValues): boolean {
  return (
    after.variants === undefined &&
    (after.stock === undefined || before.stock === after.stock) &&
    before.name === after.name &&
    before.description === after.description &&
    before.image === after.image &&
    before.price === after.price &&
    before.ratings === after.ratings &&
    before.bandName === after.bandName &&
    before.category === after.category &&
    before.creationDate.getTime() === after.creationDate.getTime()
  );
}

/** Thrown inside the import's transaction when it is interrupted: the transaction is rolled back. */
export class ImportInterrupted extends Error {
  override name = "ImportInterrupted";
}

/** Products per statement: a few thousand keeps the round trips few and each statement's arrays small. */
const BATCH = 2_000;

// Any fixed number shared by every Backline process (4_207_001 and _002 are the migration's and
// the seed's): two imports into one catalogue take turns.
const IMPORT_LOCK_KEY = 4_207_003;

export interface ImportOptions extends PlanOptions {
  /**
   * Called with the plan, inside the transaction: true writes it, false
   * (a dry run, nothing to change) ends the transaction without writing.
   */
  onPlan(plan: ImportPlan): boolean;
  /** Aborted: the import stops at the next batch and rolls back (ImportInterrupted). */
  signal?: AbortSignal;
  onProgress?(done: number): void;
  /** Once the plan is written, in its transaction: what must commit with it (the audit log, say). */
  onWritten?(tx: ImportTransaction, plan: ImportPlan): Promise<void>;
}

export type ImportTransaction = Transaction;

/**
 * Compares `rows` with the catalogue and writes the differences in one transaction that holds the
 * import lock (another import waits). Checkouts do not wait, so a stock level the file does not give
 * is never written: a sale made between the plan and the write stays sold.
 */
export async function importCatalogRows(
  db: Database,
  rows: readonly ImportRow[],
  options: ImportOptions,
): Promise<ImportPlan> {
  const { plan, wrote } = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`);
    const plan = await planCatalogImport(tx, rows, options);
    if (!options.onPlan(plan)) return { plan, wrote: false };
    await applyCatalogImport(tx, plan, options);
    await options.onWritten?.(tx, plan);
    return { plan, wrote: true };
  });
  // Fresh statistics after a large change, so the planner keeps choosing the catalogue's indexes.
  if (wrote && changedProducts(plan) >= 1_000) await db.execute(sql`analyze products`);
  return plan;
}

/**
 * Writes a plan in the transaction that made it: brands and categories first (products refer to
 * them), then products, in batches that report progress and stop, rolled back, when `signal` aborts.
 */
export async function applyCatalogImport(
  tx: Transaction,
  plan: ImportPlan,
  { prune, signal, onProgress }: Pick<ImportOptions, "prune" | "signal" | "onProgress">,
): Promise<void> {
  let done = 0;
  const step = async (count: number) => {
    // A turn of the event loop between batches: the embedded database answers without one, and
    // a Ctrl-C (a signal, delivered by the loop) would otherwise only be seen once all is written.
    await setImmediate();
    if (signal?.aborted) throw new ImportInterrupted("The import was interrupted.");
    done += count;
    onProgress?.(done);
  };
  // Before anything else is written, the products whose variants are rewritten (as the variant
  // writer locks them) and the stock levels to set, in a checkout's order: once a write takes the
  // catalogue's revision row (drizzle/0008, 0011), the import waits for no checkout.
  const withVariants = [...plan.updated, ...plan.added].flatMap(({ sku, variants }) =>
    variants ? [{ sku, variants }] : [],
  );
  await lockVariantProducts(
    tx,
    plan.updated.flatMap(({ sku, variants }) => (variants ? [sku] : [])),
  );
  const counted = plan.updated.filter((product) => product.stock !== undefined);
  for (const batch of batches(counted)) await tx.execute(stockLevelsLock(batch));
  await writeFacetValues(tx, brands, plan.brands);
  await writeFacetValues(tx, categories, plan.categories);
  await step(0);
  for (const batch of batches(plan.added)) {
    await tx.execute(sql`
      insert into products (sku, name, description, image, price_minor, ratings, band_name, category, creation_date)
      select * from ${productsTable(batch)}`);
    await tx.execute(stockUpdate(batch));
    await step(batch.length);
  }
  for (const batch of batches(plan.updated)) {
    // Only the rows whose product changed: a row whose stock alone changed is no catalogue change.
    await tx.execute(sql`
      update products set
        name = changed.name, description = changed.description, image = changed.image,
        price_minor = changed.price_minor,
        -- Checked again here, under the row's lock: a review written since the plan was read wins.
        ratings = case when products.rating_count > 0 then products.ratings else changed.ratings end,
        band_name = changed.band_name,
        category = changed.category, creation_date = changed.creation_date
      from ${productsTable(batch)}
      where products.sku = changed.sku
        and (products.name, products.description, products.image, products.price_minor, products.ratings,
             products.band_name, products.category, products.creation_date)
          is distinct from (changed.name, changed.description, changed.image, changed.price_minor,
             changed.ratings, changed.band_name, changed.category, changed.creation_date)`);
    await tx.execute(stockUpdate(batch));
    await step(batch.length);
  }
  await writeImportedVariants(tx, withVariants, () => step(0));
  for (const batch of batches(plan.removed)) {
    // The orders that are not a shopper's (the demo buyers', docs/decisions/0033) go with their products.
    await tx.execute(sql`
      delete from ${orders} where not ${isShopperOrder(orders)} and ${orders.id} in (
        select ${orderLines.orderId} from ${orderLines} join ${products} on ${products.id} = ${orderLines.productId}
        where ${products.sku} = any(${sql.param(batch)}::text[]))`);
    await tx.delete(products).where(inArray(products.sku, batch));
    await step(batch.length);
  }
  if (plan.brands.removed.length > 0)
    await tx.delete(brands).where(inArray(brands.value, plan.brands.removed));
  if (plan.categories.removed.length > 0)
    await tx.delete(categories).where(inArray(categories.value, plan.categories.removed));
  // Pictures no product shows any longer (their product was removed, or shows another now).
  if (prune) await tx.execute(UNUSED_PICTURES_DELETE);
  // The last chance to stop: past here the import commits.
  await step(0);
}

/** A product shows its picture's 800-px width; the picture's other widths go with it. */
const UNUSED_PICTURES_DELETE = sql`
  delete from product_pictures
  where not exists (
    select 1 from products
    where products.image = '/pictures/' || regexp_replace(product_pictures.name, '-[0-9]+[.]webp$', '-800.webp')
  )`;

async function writeFacetValues(
  tx: Pick<Database, "insert" | "select" | "execute">,
  table: typeof brands | typeof categories,
  changes: FacetChanges,
) {
  if (changes.added.length > 0) {
    // New values go after the owner's own order, in the file's.
    const [last] = await tx
      .select({ position: sql<number>`coalesce(max(${table.position}), 0)` })
      .from(table);
    const from = Number(last?.position ?? 0) + 1;
    await tx
      .insert(table)
      .values(changes.added.map(({ value, label }, at) => ({ value, label, position: from + at })));
  }
  for (const { value, label } of changes.relabelled) {
    await tx.execute(sql`update ${table} set label = ${label} where value = ${value}`);
  }
}

function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += BATCH) yield items.slice(start, start + BATCH);
}

/**
 * A batch of products as a table named "changed", sent as one array per column;
 * a file's prices (checked to have at most two decimals) in the shop's minor units.
 */
function productsTable(batch: readonly ProductValues[]) {
  const { currency } = shopMoney();
  const column = <K extends keyof ProductValues>(key: K) => sql.param(batch.map((product) => product[key]));
  return sql`unnest(
    ${column("sku")}::text[], ${column("name")}::text[], ${column("description")}::text[],
    ${column("image")}::text[], ${sql.param(batch.map(({ price }) => minorAtMost(price, currency)))}::bigint[],
    ${sql.param(batch.map((product) => product.ratings.toFixed(1)))}::numeric[], ${column("bandName")}::text[],
    ${column("category")}::text[], ${sql.param(batch.map((product) => product.creationDate.toISOString()))}::timestamptz[]
  ) as changed(sku, name, description, image, price_minor, ratings, band_name, category, creation_date)`;
}

/** The stock levels the file gives a batch's products, as a table named "counted". */
function countedTable(batch: readonly ProductValues[]) {
  const counted = batch.filter((product) => product.stock !== undefined);
  const column = (key: "sku" | "stock") => sql.param(counted.map((product) => product[key]));
  return sql`unnest(${column("sku")}::text[], ${column("stock")}::int[]) as counted(sku, on_hand)`;
}

/** Locks the stock levels a batch sets, in (product, variant) order, as a checkout locks its own. */
const stockLevelsLock = (batch: readonly ProductValues[]) => sql`
  select stock_levels.variant_id from stock_levels
  join products on products.id = stock_levels.product_id join ${countedTable(batch)} on counted.sku = products.sku
  order by stock_levels.product_id, stock_levels.variant_id for update of stock_levels`;

/**
 * The batch's stock levels the file gives, set where they differ (a new product's row is made at 0,
 * drizzle/0022): a product whose stock crosses zero is a catalogue change (drizzle/0022), any other is not.
 */
const stockUpdate = (batch: readonly ProductValues[]) => sql`
  update stock_levels set on_hand = counted.on_hand
  from ${countedTable(batch)} join products on products.sku = counted.sku
  where stock_levels.product_id = products.id and stock_levels.on_hand <> counted.on_hand
    -- The product's live variant (a product here is one): an archived one keeps its level.
    and exists (select 1 from product_variants v where v.id = stock_levels.variant_id and v.archived_at is null)`;
