import { and, asc, count, desc, eq, lte, type SQL, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Database } from "~/db/client.server";
import { products } from "~/db/schema";
import type { CatalogFilters, CatalogQuery, Product } from "./catalog-schema";

/** At most this many words of a search are used; more only slow the query down. */
const MAX_SEARCH_TERMS = 12;

/**
 * Splits a search into words a tsquery can hold safely: letters and digits
 * only, so no user input ever reaches the tsquery syntax.
 * Each word becomes a prefix match ("blend" finds "BlendMaster").
 */
export function searchTerms(search: string): string[] {
  return search
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, MAX_SEARCH_TERMS);
}

function searchQuery(search: string | undefined): SQL | undefined {
  const terms = searchTerms(search ?? "");
  if (terms.length === 0) return undefined;
  const prefixes = terms.map((term) => `${term}:*`).join(" & ");
  // 'english' finds stems ("mixers" → mixer), 'simple' finds written prefixes;
  // the stored vector holds both (see schema.ts).
  return sql`(to_tsquery('english', ${prefixes}) || to_tsquery('simple', ${prefixes}))`;
}

function whereClause(filters: CatalogFilters, tsquery: SQL | undefined): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.category) conditions.push(eq(products.category, filters.category));
  if (filters.band) conditions.push(eq(products.bandName, filters.band));
  if (filters.range) conditions.push(lte(products.price, filters.range));
  if (tsquery) conditions.push(sql`${products.searchVector} @@ ${tsquery}`);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/**
 * The order of a page. Every order ends on the unique id, so a product sits
 * at exactly one position and paging never repeats or skips one.
 */
function ordering(query: CatalogQuery, rank: SQL | undefined): SQL[] {
  switch (query.sort) {
    case "asc":
      return [asc(products.price), asc(products.id)];
    case "dsc":
      return [desc(products.price), desc(products.id)];
    case "date-added":
      return [desc(products.creationDate), desc(products.id)];
    default:
      return rank ? [desc(rank), asc(products.id)] : [asc(products.id)];
  }
}

const productColumns = {
  id: products.id,
  name: products.name,
  image: products.image,
  price: products.price,
  ratings: products.ratings,
  bandName: products.bandName,
  category: products.category,
  creationDate: products.creationDate,
  description: products.description,
};

/** One page of products matching the query, in the query's order. */
export async function findProducts(db: Database, query: CatalogQuery): Promise<Product[]> {
  const tsquery = searchQuery(query.search);
  const rank = tsquery && !query.sort ? sql`ts_rank(${products.searchVector}, ${tsquery})` : undefined;
  // Deferred join: find the page's ids first (an index-only scan for the
  // usual orders), then read only those rows. Deep pages then cost little
  // more than the first one.
  const page = db
    .select({ id: products.id, ...(rank ? { rank: sql<number>`${rank}`.as("rank") } : {}) })
    .from(products)
    .where(whereClause(query, tsquery))
    .orderBy(...ordering(query, rank))
    .limit(query.size)
    .offset((query.page - 1) * query.size)
    .as("page");
  const rows = await db
    .select(productColumns)
    .from(products)
    .innerJoin(page, eq(products.id, page.id))
    .orderBy(...ordering(query, rank ? sql`"page"."rank"` : undefined));
  return rows.map((row) => ({ ...row, creationDate: row.creationDate.toISOString() }));
}

/** How many products match the filters. */
export async function countProducts(db: Database, filters: CatalogFilters): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(products)
    .where(whereClause(filters, searchQuery(filters.search)));
  return row?.count ?? 0;
}

export interface CatalogOptions {
  /** Seconds an answer is reused; 0 reads the database every time. */
  cacheSeconds: number;
}

/**
 * The catalogue as the routes use it: the queries above behind a small
 * in-memory cache. The catalogue changes rarely and every shopper asks for
 * the same first pages, so a few seconds of reuse spares the database most
 * of its work. Concurrent identical requests share one query.
 */
export function createCatalog(db: Database, options: CatalogOptions) {
  const ttl = options.cacheSeconds * 1000;
  const cache =
    ttl > 0 ? new LRUCache<string, Promise<unknown>>({ max: 5_000, ttl, ttlAutopurge: false }) : undefined;

  function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (!cache) return load();
    const hit = cache.get(key) as Promise<T> | undefined;
    if (hit) return hit;
    const pending = load();
    cache.set(key, pending);
    // A failed read is not remembered: the next request tries again.
    pending.catch(() => cache.delete(key));
    return pending;
  }

  return {
    findProducts: (query: CatalogQuery) =>
      cached(`products:${JSON.stringify(query)}`, () => findProducts(db, query)),
    countProducts: (filters: CatalogFilters) =>
      cached(`count:${JSON.stringify(filters)}`, () => countProducts(db, filters)),
    /** Forget every cached answer, after the catalogue changed. */
    clear: () => cache?.clear(),
  };
}

export type Catalog = ReturnType<typeof createCatalog>;
