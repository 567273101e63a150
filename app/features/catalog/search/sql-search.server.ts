import { and, asc, count, desc, eq, inArray, lte, type SQL, sql } from "drizzle-orm";
import { productInStock, productUnitsOnHand } from "~/commerce/units-on-hand.server";
import { variantOptions } from "~/commerce/variant-options.server";
import type { Database } from "~/db/client.server";
import { products, productVariants, stockLevels } from "~/db/schema";
import type { CatalogFilters, CatalogQuery, FacetCell, Product } from "../core/catalog-schema";
import { type ChosenOptions, chosenOptions, pairKey } from "../core/option-choices";
import { BEST_RATED_FIRST, onSale, productColumns, productOf } from "../core/product-rows.server";
import { PREFIX_MIN_LENGTH, type SearchWord } from "../core/search-words";
import { priceCapOf } from "./price-cap.server";

import { EMPTY_VOCABULARY, interpretSearch } from "./search-vocabulary.server";

/**
 * The catalogue's queries in SQL: one page, a count and the facet matrix of
 * any listing, read from PostgreSQL (or the embedded PGlite) with the search
 * as one tsquery on the GIN index. They answer while a process's search index
 * is read (product-search.server.ts), and are the reference the index
 * matches (catalog.server.test.ts compares them).
 */

/**
 * The tsquery of a search read word by word: every word must match, each
 * through its stem ('english': "mixers" finds "Mixer"), the start of a
 * written word ('simple': "blend" finds "BlendMaster"; a one-character word
 * only itself, never a prefix scan of the catalogue), or one of its alike
 * words, matched whole ("headphones" for "phones", "blender" for "blendr").
 * Every word is letters and digits only (search-words.ts), so nothing a
 * shopper types reaches the tsquery syntax. Undefined without a search, null
 * for a search with no word in it, which matches nothing.
 */
function searchQuery(
  words: readonly SearchWord[] | null | undefined,
  { inName = false } = {},
): SQL | null | undefined {
  if (words === undefined || words === null) return words;
  // In the name: each word must be found among the name's lexemes (weight A).
  const weight = inName ? "A" : "";
  const perWord = words
    .filter(({ typed }) => isPlainWord(typed))
    .map(({ typed, alike }) => {
      const written = typed.length >= PREFIX_MIN_LENGTH ? `${typed}:*${weight}` : withWeight(typed, weight);
      const either = [written, ...alike.filter(isPlainWord).map((word) => withWeight(word, weight))].join(
        " | ",
      );
      return sql`(to_tsquery('english', ${written}) || to_tsquery('simple', ${either}))`;
    });
  if (perWord.length === 0) return null;
  return sql`(${sql.join(perWord, sql` && `)})`;
}

const withWeight = (word: string, weight: string) => (weight ? `${word}:${weight}` : word);

/**
 * Whether a product matches a search: every word (searchQuery), or a live
 * variant whose SKU is the whole search (`skuProducts`, readSkuProducts):
 * such a product counts among the best matches, as in the index
 * (search-matches.ts). Undefined without a search, null for none of a word.
 */
function searchCondition(
  words: readonly SearchWord[] | null | undefined,
  skuProducts: readonly number[],
  { inName = false } = {},
): SQL | null | undefined {
  const tsquery = searchQuery(words, { inName });
  if (!tsquery) return tsquery;
  const matched = sql`${products.searchVector} @@ ${tsquery}`;
  return skuProducts.length > 0 ? sql`(${matched} or ${inArray(products.id, [...skuProducts])})` : matched;
}

/**
 * Whether a search may be a SKU, and is looked up as one: one word, with a
 * digit or one of - _ . / in it ("NP-TRJ-S", "TS1042"). What shoppers type
 * ("yoga mat", "blender") is not, and costs no look-up.
 */
export const mayBeSku = (search: string) => /^\S*[\d\-_./]\S*$/.test(search) && search.length <= 100;

/**
 * The products with a live variant whose SKU is the whole search, in any
 * case (drizzle/0026's index): none for a search that cannot be one (mayBeSku).
 */
export async function readSkuProducts(db: Database, search: string | undefined): Promise<number[]> {
  const sku = search?.trim();
  if (!sku || !mayBeSku(sku)) return [];
  const rows = await db
    .selectDistinct({ productId: productVariants.productId })
    .from(productVariants)
    .where(sql`lower(${productVariants.sku}) = lower(${sku}) and ${productVariants.archivedAt} is null`);
  return rows.map((row) => row.productId);
}

/** Letters and digits only: a word that cannot change a tsquery's meaning. */
export const isPlainWord = (word: string) => /^[\p{L}\p{N}]+$/u.test(word);

/** A search's words as read without the catalogue's vocabulary: each word only as typed. */
const asTyped = (search: string | undefined) => interpretSearch(search, EMPTY_VOCABULARY);

/** Which products a listing looks at: the shop's (on sale), or the back office's (archived ones too, perhaps only those low on stock). */
interface ListingScope {
  archived?: boolean;
  /** Only products with at most this many units on hand. */
  lowStockAt?: number;
}

function whereClause(
  filters: CatalogFilters,
  searched: SQL | null | undefined,
  { archived = false, lowStockAt }: ListingScope = {},
): SQL | undefined {
  const conditions: SQL[] = archived ? [] : [onSale];
  if (lowStockAt !== undefined) {
    conditions.push(
      // A live variant at or under the line: an archived one's level is no stock the shop sells.
      sql`exists (select 1 from ${stockLevels} join ${productVariants} v on v.id = ${stockLevels.variantId}
                   where ${stockLevels.productId} = ${products}.${sql.identifier(products.id.name)}
                     and ${stockLevels.onHand} <= ${lowStockAt} and v.archived_at is null)`,
    );
  }
  if (filters.category) conditions.push(inArray(products.category, filters.category));
  if (filters.band) conditions.push(inArray(products.bandName, filters.band));
  if (filters.range) conditions.push(lte(products.priceMinor, priceCapOf(filters.range)));
  const chosen = chosenOptions(filters.option);
  if (chosen) {
    conditions.push(sql`exists (select 1 from ${productVariants} v, lateral (select ${variantOptions(sql`v`)} as o) vo
      where v.product_id = ${products.id} and v.archived_at is null and v.option1 is not null
        and ${valuesChosen(chosen, sql`vo.o`)})`);
  }
  // By the stock level's primary key, per product the other conditions leave.
  if (filters.inStock) {
    conditions.push(productInStock);
  }
  if (searched) conditions.push(searched);
  if (searched === null) conditions.push(sql`false`);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/**
 * SQL of whether a variant's values (`values`, a jsonb object by option name)
 * hold one chosen value of each chosen option, or of each but the one named
 * `except` (SQL of an option's name).
 */
function valuesChosen(chosen: ChosenOptions, values: SQL, except?: SQL): SQL {
  const each = [...chosen].map(([name, chosenValues]) => {
    const holds = sql`(${values} ->> ${name}) in (${sql.join(
      [...chosenValues].map((value) => sql`${value}`),
      sql`, `,
    )})`;
    return except ? sql`(${except} = ${name} or ${holds})` : holds;
  });
  return sql`(${sql.join(each, sql` and `)})`;
}

/**
 * The order of a page. Every order ends on the unique id, so a product sits
 * at exactly one position and paging never repeats or skips one. Without a
 * sort, a listing is best rated first (docs/decisions/0018), and a search in
 * order of relevance: the products whose name has every word first, then the
 * others, each best rated first (`inName`, docs/decisions/0021).
 */
function ordering(query: CatalogQuery, inName: SQL | undefined): SQL[] {
  switch (query.sort) {
    case "asc":
      return [asc(products.priceMinor), asc(products.id)];
    case "dsc":
      return [desc(products.priceMinor), desc(products.id)];
    case "date-added":
      return [desc(products.creationDate), desc(products.id)];
    case "rating":
      return BEST_RATED_FIRST;
    default:
      return inName ? [desc(inName), ...BEST_RATED_FIRST] : BEST_RATED_FIRST;
  }
}

/**
 * One page of products matching the query, in the query's order. `words` is
 * the query's search as read against the vocabulary (createCatalog does);
 * without it, each word is matched only as typed.
 */
export async function findProducts(
  db: Database,
  query: CatalogQuery,
  words = asTyped(query.search),
  skuProducts: readonly number[] = [],
): Promise<Product[]> {
  const { page, order } = pageOfIds(db, query, words, skuProducts, (searched) =>
    whereClause(query, searched),
  );
  const rows = await db
    .select(productColumns())
    .from(products)
    .innerJoin(page, eq(products.id, page.id))
    .orderBy(...order);
  return rows.map(productOf);
}

/**
 * Deferred join: a page's ids first (an index-only scan for the usual
 * orders), then only those rows are read, so deep pages cost little more
 * than the first one. A search without a chosen order puts the products it
 * names first (`in_name`); `order` is the page's order for the outer read.
 * `extra` rows past the page tell whether a next page exists.
 */
function pageOfIds(
  db: Database,
  query: CatalogQuery,
  words: readonly SearchWord[] | null | undefined,
  skuProducts: readonly number[],
  where: (searched: SQL | null | undefined) => SQL | undefined,
  extra = 0,
) {
  const searched = searchCondition(words, skuProducts);
  const inName =
    searched && !query.sort
      ? (searchCondition(words, skuProducts, { inName: true }) ?? undefined)
      : undefined;
  const page = db
    .select({ id: products.id, ...(inName ? { inName: sql<boolean>`${inName}`.as("in_name") } : {}) })
    .from(products)
    .where(where(searched))
    .orderBy(...ordering(query, inName))
    .limit(query.size + extra)
    .offset((query.page - 1) * query.size)
    .as("page");
  return { page, order: ordering(query, inName ? sql`"page"."in_name"` : undefined) };
}

/** How many products match the filters (`words` as for findProducts). */
export async function countProducts(
  db: Database,
  filters: CatalogFilters,
  words = asTyped(filters.search),
  skuProducts: readonly number[] = [],
): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(products)
    .where(whereClause(filters, searchCondition(words, skuProducts)));
  return row?.count ?? 0;
}

/** The filters a facet matrix is read for: everything but the facets themselves. */
export type FacetMatrixFilters = Pick<CatalogFilters, "search" | "range" | "inStock" | "option">;

/**
 * The products matching a search, a price cap and "in stock only", counted by brand and
 * category. One scan answers every question about brands and categories for
 * those filters: the count for any choice of brands and categories, and each
 * facet's counts with the others chosen (facetsOf below). Its size is brands
 * × categories at most, whatever the catalogue's size.
 */
export async function readFacetMatrix(
  db: Database,
  { search, range, inStock, option }: FacetMatrixFilters,
  words = asTyped(search),
  skuProducts: readonly number[] = [],
): Promise<FacetCell[]> {
  return db
    .select({ bandName: products.bandName, category: products.category, count: count() })
    .from(products)
    .where(whereClause({ search, range, inStock, option }, searchCondition(words, skuProducts)))
    .groupBy(products.bandName, products.category);
}

/**
 * How many products the filters keep count towards each option value, by
 * pairKey: a value of option N when a live variant has it and the values
 * chosen for every other option (option-choices.ts's valuesCounted).
 */
export async function readOptionCounts(
  db: Database,
  filters: CatalogFilters,
  words = asTyped(filters.search),
  skuProducts: readonly number[] = [],
): Promise<Map<string, number>> {
  const chosen = chosenOptions(filters.option);
  const where = whereClause({ ...filters, option: undefined }, searchCondition(words, skuProducts));
  const result = await db.execute(sql`
    select pair.key as name, pair.value as value, count(distinct ${products.id})::int as count
      from ${products}
      join ${productVariants} v on v.product_id = ${products.id} and v.archived_at is null and v.option1 is not null
      cross join lateral (select ${variantOptions(sql`v`)} as o) vo
      cross join lateral jsonb_each_text(vo.o) pair
     where ${where ?? sql`true`} ${chosen ? sql`and ${valuesChosen(chosen, sql`vo.o`, sql`pair.key`)}` : sql``}
     group by pair.key, pair.value`);
  const rows = (result as unknown as { rows: { name: string; value: string; count: number }[] }).rows;
  return new Map(rows.map(({ name, value, count }) => [pairKey(name, value), Number(count)]));
}

/** A product as the back office lists it: the shop's card, its SKU, units on hand, and whether it is archived. */
export interface BackOfficeProduct extends Product {
  /** Its price in whole minor units, as the back office writes it. */
  priceMinor: number;
  sku: string;
  stock: number;
  archived: boolean;
}

/**
 * One page of the back office's product list: the shop's own search, filters
 * and order (the same queries as findProducts), archived products included,
 * and only those with at most `lowStockAt` units when asked. One row more
 * than the page is read, so the list knows whether a next page exists
 * without counting every match (at a million products a count would read
 * them all on every page).
 */
export async function findBackOfficeProducts(
  db: Database,
  query: CatalogQuery,
  scope: { lowStockAt?: number },
  words = asTyped(query.search),
): Promise<{ products: BackOfficeProduct[]; hasNextPage: boolean }> {
  const { page, order } = pageOfIds(
    db,
    query,
    words,
    // An owner finds a product by a variant's SKU too.
    await readSkuProducts(db, query.search),
    (searched) => whereClause(query, searched, { archived: true, ...scope }),
    1,
  );
  const rows = await db
    .select({
      ...productColumns(),
      priceMinor: products.priceMinor,
      sku: products.sku,
      archivedAt: products.archivedAt,
      stock: productUnitsOnHand,
    })
    .from(products)
    .innerJoin(page, eq(products.id, page.id))
    .orderBy(...order);
  const found = rows.map(({ sku, archivedAt, stock, priceMinor, ...row }) => ({
    ...productOf(row),
    priceMinor,
    sku,
    stock,
    archived: archivedAt !== null,
  }));
  return { products: found.slice(0, query.size), hasNextPage: found.length > query.size };
}
