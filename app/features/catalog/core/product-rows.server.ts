import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { CurrencyCode } from "~/commerce/money";
import { decimalOfMinor } from "~/commerce/money-sql";
import { shopMoney } from "~/commerce/shop-money.server";
import {
  productCompareAtMinor,
  productPriceMaxMinor,
  productVariantCount,
} from "~/commerce/units-on-hand.server";
import type { Database } from "~/db/client.server";
import { onSale } from "~/db/product-on-sale";
import { brands, categories, products } from "~/db/schema";
import type { Product } from "./catalog-schema";

/**
 * Reading products as the shop shows them, shared by every part of the
 * catalogue: the columns of a product card, the shop's own order (best rated
 * first), one product and its neighbours, the sitemap's slices, and the
 * brands and categories with their labels.
 */

/**
 * Best rated first, the newest among equal ratings: "Top Rated", and the
 * shop's order when nothing else is asked. "nulls last" as the indexes say
 * it (drizzle/0003, 0006): the columns hold no nulls, but PostgreSQL reads an
 * order from an index only when it is written the same way.
 */
export const BEST_RATED_FIRST = [
  sql`${products.ratings} desc nulls last`,
  sql`${products.creationDate} desc nulls last`,
  asc(products.id),
];

// On sale: not archived by the owner (one rule for every feature: app/db/product-on-sale.ts).
export { onSale };

/**
 * A product's columns as the API and the pages show it (and as an import
 * compares it): the price as a decimal of the shop's currency.
 */
export const productColumns = () => ({
  id: products.id,
  name: products.name,
  image: products.image,
  price: decimalOfMinor(products.priceMinor, shopMoney().currency),
  ratings: products.ratings,
  // Beside `ratings`, as the index's cards have it (card-shelf.ts): the API's JSON is the same either way.
  ratingCount: products.ratingCount,
  bandName: products.bandName,
  category: products.category,
  creationDate: products.creationDate,
  description: products.description,
  priceMax: decimalOfMinor(productPriceMaxMinor, shopMoney().currency),
  variantCount: productVariantCount,
  compareAtPrice: decimalOrNull(productCompareAtMinor, shopMoney().currency),
});

/** An amount that may be absent, as a decimal of the currency: null stays null. */
function decimalOrNull(minor: SQL, currency: CurrencyCode): SQL<number | null> {
  return sql<number | null>`${decimalOfMinor(minor, currency)}`.mapWith((value) =>
    value === null ? null : Number(value),
  );
}

/** A product row as the API and the shop page show it: dates in ISO 8601. */
export function productOf(row: Omit<Product, "creationDate"> & { creationDate: Date }): Product {
  return { ...row, creationDate: row.creationDate.toISOString() };
}

/** One product on sale by id, or null when there is none (or it is archived). */
export async function findProduct(db: Database, id: number): Promise<Product | null> {
  const [row] = await db
    .select(productColumns())
    .from(products)
    .where(and(eq(products.id, id), onSale))
    .limit(1);
  return row ? productOf(row) : null;
}

/** Products to show beside one: the best rated others of its category. */
export async function findRelatedProducts(
  db: Database,
  product: Pick<Product, "id" | "category">,
  limit: number,
): Promise<Product[]> {
  const rows = await db
    .select(productColumns())
    .from(products)
    .where(and(eq(products.category, product.category), sql`${products.id} <> ${product.id}`, onSale))
    .orderBy(...BEST_RATED_FIRST)
    .limit(limit);
  return rows.map(productOf);
}

/** A slice of every product on sale, by id, as a sitemap lists them. */
export async function readSitemapProducts(db: Database, offset: number, limit: number) {
  const rows = await db
    .select({ id: products.id, name: products.name, creationDate: products.creationDate })
    .from(products)
    .where(onSale)
    .orderBy(asc(products.id))
    .limit(limit)
    .offset(offset);
  return rows.map((row) => ({ ...row, creationDate: row.creationDate.toISOString() }));
}

/**
 * The catalogue's brands and categories, in the owner's order. One query after the other: `db`
 * may be a transaction, whose one connection runs them in turn anyway, and pg refuses in its
 * next major version a query sent while another still runs on the connection.
 */
export async function readFacetValues(db: Pick<Database, "select">) {
  const brandRows = await db
    .select({ value: brands.value, label: brands.label })
    .from(brands)
    .orderBy(brands.position, brands.label);
  const categoryRows = await db
    .select({ value: categories.value, label: categories.label })
    .from(categories)
    .orderBy(categories.position, categories.label);
  return { brands: brandRows, categories: categoryRows };
}

export type FacetValues = Awaited<ReturnType<typeof readFacetValues>>;
