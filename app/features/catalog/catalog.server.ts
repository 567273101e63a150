import { and, asc, count, desc, eq, lte, type SQL, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Database } from "~/db/client.server";
import { products } from "~/db/schema";
import { etagOf } from "~/utils/http.server";
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
  /** Memory the cached answers may take, in bytes (default 64 MiB). */
  cacheMaxBytes?: number;
}

/**
 * An answer as the catalogue hands it out: the value for pages, and its JSON
 * and ETag, computed once per answer, for the API (and for weighing it).
 */
export interface CatalogAnswer<T> {
  value: T;
  json: string;
  etag: string;
}

function answer<T>(value: T): CatalogAnswer<T> {
  const json = JSON.stringify(value);
  return { value, json, etag: etagOf(json) };
}

/**
 * What an answer costs in memory: its JSON text plus the objects it was made
 * from, which take about as much again (measured by bench/memory.ts).
 */
function answerBytes(cached: CatalogAnswer<unknown>): number {
  return cached.json.length * 3 + 256;
}

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The catalogue as the routes use it: the queries above behind a small
 * in-memory cache. The catalogue changes rarely and shoppers ask for the same
 * pages, so a few seconds of reuse spares the database much of its work.
 * lru-cache bounds it by bytes (least recently used answers go first, expired
 * ones are released on time) and lets concurrent requests for one answer
 * share one query; a failed query is not remembered.
 */
export function createCatalog(
  db: Database,
  options: CatalogOptions,
  /** The queries behind the cache; a test may count or fail them. */
  queries: { findProducts: typeof findProducts; countProducts: typeof countProducts } = {
    findProducts,
    countProducts,
  },
) {
  type Load = () => Promise<CatalogAnswer<unknown>>;
  const cache =
    options.cacheSeconds > 0
      ? new LRUCache<string, CatalogAnswer<unknown>, Load>({
          max: 50_000,
          maxSize: options.cacheMaxBytes ?? DEFAULT_CACHE_BYTES,
          sizeCalculation: answerBytes,
          ttl: options.cacheSeconds * 1000,
          // Expired answers are dropped on time, not when next asked for.
          ttlAutopurge: true,
          // The process's clock, read when used (so a test's fake clock is honoured too).
          perf: { now: () => performance.now() },
          fetchMethod: (_key, _stale, { context }) => context(),
        })
      : undefined;

  async function cached<T>(key: string, load: () => Promise<T>): Promise<CatalogAnswer<T>> {
    const compute = async () => answer(await load());
    if (!cache) return compute();
    return (await cache.fetch(key, { context: compute })) as CatalogAnswer<T>;
  }

  return {
    findProducts: (query: CatalogQuery) =>
      cached(`products:${JSON.stringify(query)}`, () => queries.findProducts(db, query)),
    countProducts: (filters: CatalogFilters) =>
      cached(`count:${JSON.stringify(filters)}`, async () => ({
        count: await queries.countProducts(db, filters),
      })),
    /** Forget every cached answer, after the catalogue changed. */
    clear: () => cache?.clear(),
    /** What the cache holds now, for tests and benchmarks. */
    cacheUsage: () => ({ entries: cache?.size ?? 0, bytes: cache?.calculatedSize ?? 0 }),
  };
}

export type Catalog = ReturnType<typeof createCatalog>;
