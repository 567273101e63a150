import { eq, gt } from "drizzle-orm";
import { productUnitsOnHand } from "~/commerce/units-on-hand.server";
import type { Database } from "~/db/client.server";
import { brands, categories, products } from "~/db/schema";
import { productColumns } from "../core/product-rows.server";
import {
  type CatalogFileFormat,
  type CatalogFileRecord,
  writeCatalogCsv,
  writeCatalogFile,
} from "./catalog-file.server";

/** Products read per query of a streamed export: a few MB of text at a time, whatever the catalogue's size. */
const EXPORT_PAGE = 5_000;

/** The catalogue's products after `afterId`, by id, as a catalogue file holds them. */
async function exportPage(db: Database, afterId: number, limit: number) {
  const rows = await db
    .select({
      sku: products.sku,
      ...productColumns(),
      brandLabel: brands.label,
      categoryLabel: categories.label,
      // Its variants' sum (a product of one variant: its one level).
      stock: productUnitsOnHand,
    })
    .from(products)
    .innerJoin(brands, eq(brands.value, products.bandName))
    .innerJoin(categories, eq(categories.value, products.category))
    .where(gt(products.id, afterId))
    .orderBy(products.id)
    .limit(limit);
  const records: CatalogFileRecord[] = rows.map((row) => ({
    sku: row.sku,
    name: row.name,
    description: row.description,
    price: row.price,
    stock: row.stock,
    rating: row.ratings,
    brand: row.bandName,
    brand_label: row.brandLabel,
    category: row.category,
    category_label: row.categoryLabel,
    created: row.creationDate.toISOString(),
    image: row.image,
  }));
  return { records, lastId: rows.at(-1)?.id ?? afterId };
}

/** The whole catalogue as a catalogue file holds it, by sku: what `catalog:export` writes. */
export async function exportCatalog(db: Database): Promise<CatalogFileRecord[]> {
  const all: CatalogFileRecord[] = [];
  for (let afterId = 0; ; ) {
    const page = await exportPage(db, afterId, EXPORT_PAGE);
    if (page.records.length === 0) return all;
    all.push(...page.records);
    afterId = page.lastId;
  }
}

/**
 * The catalogue file `catalog:export` writes, in parts, a page of products
 * at a time: the back office streams it to the browser without holding the
 * whole catalogue in memory. Joined, the parts are writeCatalogFile's text.
 */
export async function* exportCatalogText(
  db: Database,
  format: CatalogFileFormat,
  pageSize = EXPORT_PAGE,
): AsyncGenerator<string> {
  let afterId = 0;
  let first = true;
  for (;;) {
    const { records, lastId } = await exportPage(db, afterId, pageSize);
    if (records.length === 0) break;
    if (format === "csv") yield writeCatalogCsv(records, { header: first });
    else if (format === "ndjson") yield writeCatalogFile(records, "ndjson");
    else {
      // JSON.stringify(all, null, 2), one page at a time: each item indented once more inside "[ ]".
      const items = records.map((record) => JSON.stringify(record, null, 2).replace(/^/gm, "  "));
      yield `${first ? "[\n" : ",\n"}${items.join(",\n")}`;
    }
    first = false;
    afterId = lastId;
  }
  if (first) yield writeCatalogFile([], format);
  else if (format === "json") yield "\n]\n";
}
