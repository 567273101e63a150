import { eq, gt } from "drizzle-orm";
import { type CurrencyCode, decimalText, minorDigitsOf, money } from "~/commerce/money";
import { shopMoney } from "~/commerce/shop-money.server";
import { productUnitsOnHand } from "~/commerce/units-on-hand.server";
import type { Database } from "~/db/client.server";
import { brands, categories, products } from "~/db/schema";
import type { CatalogExportFormat } from "../core/catalog-import-schema";
import { productColumns } from "../core/product-rows.server";
import { type ProductVariants, variantsOfProducts } from "../core/product-variants.server";
import { type CatalogFileRecord, writeCatalogCsv, writeCatalogFile } from "./catalog-file.server";
import { writeShopifyCsv } from "./shopify-csv.server";

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
  const stored = await variantsOfProducts(
    db,
    rows.map((row) => row.id),
  );
  const { currency } = shopMoney();
  const records = rows.flatMap((row): CatalogFileRecord[] => {
    const product: CatalogFileRecord = {
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
    };
    return withVariants(product, stored.get(row.id), currency);
  });
  return { records, lastId: rows.at(-1)?.id ?? afterId };
}

/**
 * A product's rows: one, with its one variant's columns, for a product without options; else
 * one per live variant, the first with the product's columns and the options' names, the
 * others with its sku and their variant's columns alone (docs/decisions/0045).
 */
function withVariants(
  product: CatalogFileRecord,
  stored: ProductVariants | undefined,
  currency: CurrencyCode,
): CatalogFileRecord[] {
  const variants = stored?.variants ?? [];
  const options = stored?.options ?? [];
  if (variants.length === 0) return [product];
  const amount = (minor: number | null) =>
    minor === null ? undefined : Number(decimalText(money(minor, currency)));
  const rows = variants.map((variant): CatalogFileRecord => {
    const own: CatalogFileRecord = {
      sku: product.sku,
      price: amount(variant.priceMinor),
      stock: variant.stock,
      compare_at_price: amount(variant.compareAtMinor),
      weight_grams: variant.weightGrams ?? undefined,
      variant_image: variant.image ?? undefined,
    };
    if (options.length === 0) return own;
    return {
      ...own,
      variant_sku: variant.sku,
      option1_value: variant.values[0],
      option2_value: variant.values[1],
      option3_value: variant.values[2],
    };
  });
  const names = {
    option1_name: options[0]?.name,
    option2_name: options[1]?.name,
    option3_name: options[2]?.name,
  };
  const [first, ...others] = rows;
  return [{ ...product, ...names, ...first, sku: product.sku }, ...(options.length === 0 ? [] : others)];
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
 * whole catalogue in memory. Joined, the parts are writeCatalogFile's text
 * (or, for "shopify", Shopify's product CSV, its pictures' addresses made whole with `origin`).
 */
export async function* exportCatalogText(
  db: Database,
  format: CatalogExportFormat,
  { pageSize = EXPORT_PAGE, origin = "" }: { pageSize?: number; origin?: string } = {},
): AsyncGenerator<string> {
  let afterId = 0;
  let first = true;
  const decimals = minorDigitsOf(shopMoney().currency);
  for (;;) {
    const { records, lastId } = await exportPage(db, afterId, pageSize);
    if (records.length === 0) break;
    if (format === "shopify") yield writeShopifyCsv(records, { header: first, origin, decimals });
    else if (format === "csv") yield writeCatalogCsv(records, { header: first });
    else if (format === "ndjson") yield writeCatalogFile(records, "ndjson");
    else {
      // JSON.stringify(all, null, 2), one page at a time: each item indented once more inside "[ ]".
      const items = records.map((record) => JSON.stringify(record, null, 2).replace(/^/gm, "  "));
      yield `${first ? "[\n" : ",\n"}${items.join(",\n")}`;
    }
    first = false;
    afterId = lastId;
  }
  if (first) {
    yield format === "shopify"
      ? writeShopifyCsv([], { header: true, origin, decimals })
      : writeCatalogFile([], format);
  } else if (format === "json") yield "\n]\n";
}
