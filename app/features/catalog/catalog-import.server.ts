import { setImmediate } from "node:timers/promises";
import { inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { brands, categories, products } from "~/db/schema";
import type { CatalogFileRecord, CheckedRow } from "./catalog-file.server";
import { PLACEHOLDER_PICTURE } from "./catalog-format";

/**
 * A catalogue import, as `npm run catalog:import` runs it: the rows of a
 * checked file compared with the catalogue by sku (planCatalogImport), then
 * written in one transaction (applyCatalogImport), so the shop's catalogue
 * is the old one or the new one, never half of each. Re-importing the same
 * file changes nothing; a changed row updates its product; with `prune`,
 * products the file no longer has are removed.
 */

/** A checked row whose picture has been made ready: `image` is the address the product shows. */
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
}

interface FacetValue {
  value: string;
  label: string;
}

export interface ImportPlan {
  added: ProductValues[];
  updated: ProductValues[];
  unchanged: number;
  /** The skus of products the file does not have (only with `prune`). */
  removed: string[];
  brands: FacetChanges;
  categories: FacetChanges;
}

interface FacetChanges {
  /** New values, in the order the file first names them. */
  added: FacetValue[];
  /** Known values whose label the file changes. */
  relabelled: FacetValue[];
  /** Values no product has once the import is done (only with `prune`). */
  removed: string[];
}

/** How many products a plan writes: what the progress counts. */
export function changedProducts(plan: ImportPlan): number {
  return plan.added.length + plan.updated.length + plan.removed.length;
}

/** The skus of the catalogue's products, for what `prune` would remove before anything else is done. */
export async function productsAbsentFrom(db: Database, rows: readonly { sku: string }[]): Promise<string[]> {
  const inFile = new Set(rows.map((row) => row.sku));
  const all = await db.select({ sku: products.sku }).from(products);
  return all.map(({ sku }) => sku).filter((sku) => !inFile.has(sku));
}

/**
 * A facet (brand or category) named in a file: a known value as written, or
 * a known value or label written in other letter case ("teachpro" is the
 * demo's "teachPro"); otherwise a new value, as written.
 */
function facetResolver(known: readonly FacetValue[]) {
  const byValue = new Map(known.map((facet) => [facet.value, facet]));
  const byLowerCase = new Map<string, FacetValue>();
  for (const facet of known) {
    byLowerCase.set(facet.label.toLowerCase(), facet);
    byLowerCase.set(facet.value.toLowerCase(), facet);
  }
  const changes: FacetChanges = { added: [], relabelled: [], removed: [] };
  const relabelled = new Map<string, FacetValue>();
  const resolve = (written: string, label: string | undefined): string => {
    const facet = byValue.get(written) ?? byLowerCase.get(written.toLowerCase());
    if (!facet) {
      const added = { value: written, label: label ?? written };
      changes.added.push(added);
      byValue.set(written, added);
      byLowerCase.set(written.toLowerCase(), added);
      return written;
    }
    if (label !== undefined && label !== facet.label && !changes.added.includes(facet)) {
      relabelled.set(facet.value, { value: facet.value, label });
    }
    return facet.value;
  };
  return {
    resolve,
    changes: () => ({ ...changes, relabelled: [...relabelled.values()] }),
  };
}

/** What importing `rows` would change in the catalogue: read from the database, nothing written. */
export async function planCatalogImport(
  db: Database,
  rows: readonly ImportRow[],
  { prune, now }: { prune: boolean; now: Date },
): Promise<ImportPlan> {
  const [knownBrands, knownCategories, existing] = await Promise.all([
    db.select({ value: brands.value, label: brands.label }).from(brands),
    db.select({ value: categories.value, label: categories.label }).from(categories),
    db
      .select({
        sku: products.sku,
        name: products.name,
        description: products.description,
        image: products.image,
        price: products.price,
        ratings: products.ratings,
        bandName: products.bandName,
        category: products.category,
        creationDate: products.creationDate,
      })
      .from(products),
  ]);
  const brandOf = facetResolver(knownBrands);
  const categoryOf = facetResolver(knownCategories);
  const bySku = new Map(existing.map((product) => [product.sku, product]));
  const plan: ImportPlan = {
    added: [],
    updated: [],
    unchanged: 0,
    removed: [],
    brands: { added: [], relabelled: [], removed: [] },
    categories: { added: [], relabelled: [], removed: [] },
  };
  for (const row of rows) {
    const before = bySku.get(row.sku);
    const values: ProductValues = {
      sku: row.sku,
      name: row.name,
      description: row.description ?? before?.description ?? "",
      image: row.image ?? before?.image ?? PLACEHOLDER_PICTURE,
      price: row.price,
      ratings: row.rating ?? before?.ratings ?? 0,
      bandName: brandOf.resolve(row.brand, row.brand_label),
      category: categoryOf.resolve(row.category, row.category_label),
      creationDate: row.created ?? before?.creationDate ?? now,
    };
    if (!before) plan.added.push(values);
    else if (sameProduct(before, values)) plan.unchanged++;
    else plan.updated.push(values);
  }
  plan.brands = brandOf.changes();
  plan.categories = categoryOf.changes();
  if (prune) {
    const inFile = new Set(rows.map((row) => row.sku));
    const kept = existing.filter((product) => inFile.has(product.sku));
    plan.removed = existing.filter((product) => !inFile.has(product.sku)).map((product) => product.sku);
    const used = (key: "bandName" | "category") =>
      new Set([
        ...kept.map((product) => product[key]),
        ...[...plan.added, ...plan.updated].map((p) => p[key]),
      ]);
    const usedBrands = used("bandName");
    const usedCategories = used("category");
    plan.brands.removed = knownBrands.map(({ value }) => value).filter((value) => !usedBrands.has(value));
    plan.categories.removed = knownCategories
      .map(({ value }) => value)
      .filter((value) => !usedCategories.has(value));
  }
  return plan;
}

function sameProduct(before: ProductValues, after: ProductValues): boolean {
  return (
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

/**
 * Writes a plan in one transaction: new brands and categories first (products
 * refer to them), then products added, updated and removed, in batches that
 * report progress and stop at once, rolled back, when `signal` aborts.
 */
export async function applyCatalogImport(
  db: Database,
  plan: ImportPlan,
  { signal, onProgress }: { signal?: AbortSignal; onProgress?: (done: number) => void } = {},
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
  await db.transaction(async (tx) => {
    await writeFacetValues(tx, brands, plan.brands);
    await writeFacetValues(tx, categories, plan.categories);
    await step(0);
    for (const batch of batches(plan.added)) {
      await tx.execute(sql`
        insert into products (sku, name, description, image, price, ratings, band_name, category, creation_date)
        select * from ${productsTable(batch)}`);
      await step(batch.length);
    }
    for (const batch of batches(plan.updated)) {
      await tx.execute(sql`
        update products set
          name = changed.name, description = changed.description, image = changed.image,
          price = changed.price, ratings = changed.ratings, band_name = changed.band_name,
          category = changed.category, creation_date = changed.creation_date
        from ${productsTable(batch)}
        where products.sku = changed.sku`);
      await step(batch.length);
    }
    for (const batch of batches(plan.removed)) {
      await tx.delete(products).where(inArray(products.sku, batch));
      await step(batch.length);
    }
    if (plan.brands.removed.length > 0)
      await tx.delete(brands).where(inArray(brands.value, plan.brands.removed));
    if (plan.categories.removed.length > 0)
      await tx.delete(categories).where(inArray(categories.value, plan.categories.removed));
    // The last chance to stop: past here the import commits.
    await step(0);
  });
  // Fresh statistics after a large change, so the planner keeps choosing the catalogue's indexes.
  if (changedProducts(plan) >= 1_000) await db.execute(sql`analyze products`);
}

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

/** A batch of products as a table named "changed", sent as one array per column. */
function productsTable(batch: readonly ProductValues[]) {
  const column = <K extends keyof ProductValues>(key: K) => sql.param(batch.map((product) => product[key]));
  return sql`unnest(
    ${column("sku")}::text[], ${column("name")}::text[], ${column("description")}::text[],
    ${column("image")}::text[], ${sql.param(batch.map((product) => product.price.toFixed(2)))}::numeric[],
    ${sql.param(batch.map((product) => product.ratings.toFixed(1)))}::numeric[], ${column("bandName")}::text[],
    ${column("category")}::text[], ${sql.param(batch.map((product) => product.creationDate.toISOString()))}::timestamptz[]
  ) as changed(sku, name, description, image, price, ratings, band_name, category, creation_date)`;
}

/** The whole catalogue as a catalogue file holds it, by sku: what `catalog:export` writes. */
export async function exportCatalog(db: Database): Promise<CatalogFileRecord[]> {
  const rows = await db
    .select({
      sku: products.sku,
      name: products.name,
      description: products.description,
      price: products.price,
      ratings: products.ratings,
      brand: products.bandName,
      brandLabel: brands.label,
      category: products.category,
      categoryLabel: categories.label,
      created: products.creationDate,
      image: products.image,
    })
    .from(products)
    .innerJoin(brands, sql`${brands.value} = ${products.bandName}`)
    .innerJoin(categories, sql`${categories.value} = ${products.category}`)
    .orderBy(products.id);
  return rows.map((row) => ({
    sku: row.sku,
    name: row.name,
    description: row.description,
    price: row.price,
    rating: row.ratings,
    brand: row.brand,
    brand_label: row.brandLabel,
    category: row.category,
    category_label: row.categoryLabel,
    created: row.created.toISOString(),
    image: row.image,
  }));
}
