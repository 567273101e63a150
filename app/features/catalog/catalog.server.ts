import { and, asc, count, desc, eq, inArray, lte, type SQL, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Database } from "~/db/client.server";
import { brands, categories, products } from "~/db/schema";
import { etagOf } from "~/utils/http.server";
import type { WayBack } from "./applied-filters";
import type { CatalogFilters, CatalogQuery, FacetChoice, Product } from "./catalog-schema";

/** At most this many words of a search are used; more only slow the query down. */
const MAX_SEARCH_TERMS = 12;

/**
 * Splits a search into words a tsquery can hold safely: letters and digits
 * only, so no user input ever reaches the tsquery syntax.
 * Each word of two or more characters becomes a prefix match ("blend" finds
 * "BlendMaster"); a one-character word matches only itself, so "a" is not a
 * scan of every product with a word starting with a.
 */
export function searchTerms(search: string): string[] {
  return search
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, MAX_SEARCH_TERMS);
}

/** The shortest word matched as a prefix. */
const PREFIX_MIN_LENGTH = 2;

/**
 * The tsquery of a search; undefined when there is no search, null when the
 * search has no word in it (only punctuation or emoji), which matches
 * nothing rather than everything.
 */
function searchQuery(search: string | undefined): SQL | null | undefined {
  if (!search?.trim()) return undefined;
  const terms = searchTerms(search);
  if (terms.length === 0) return null;
  const prefixes = terms.map((term) => (term.length >= PREFIX_MIN_LENGTH ? `${term}:*` : term)).join(" & ");
  // 'english' finds stems ("mixers" → mixer), 'simple' finds written prefixes;
  // the stored vector holds both (see schema.ts).
  return sql`(to_tsquery('english', ${prefixes}) || to_tsquery('simple', ${prefixes}))`;
}

function whereClause(filters: CatalogFilters, tsquery: SQL | null | undefined): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.category) conditions.push(inArray(products.category, filters.category));
  if (filters.band) conditions.push(inArray(products.bandName, filters.band));
  if (filters.range) conditions.push(lte(products.price, filters.range));
  if (tsquery) conditions.push(sql`${products.searchVector} @@ ${tsquery}`);
  if (tsquery === null) conditions.push(sql`false`);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** Best rated first, the newest among equal ratings: "Top Rated", and the shop's order when nothing else is asked. */
const BEST_RATED_FIRST = [desc(products.ratings), desc(products.creationDate), asc(products.id)];

/**
 * The order of a page. Every order ends on the unique id, so a product sits
 * at exactly one position and paging never repeats or skips one. Without a
 * sort, a search is in order of relevance and a listing best rated first
 * (docs/decisions/0018).
 */
function ordering(query: CatalogQuery, rank: SQL | undefined): SQL[] {
  switch (query.sort) {
    case "asc":
      return [asc(products.price), asc(products.id)];
    case "dsc":
      return [desc(products.price), desc(products.id)];
    case "date-added":
      return [desc(products.creationDate), desc(products.id)];
    case "rating":
      return BEST_RATED_FIRST;
    default:
      return rank ? [desc(rank), asc(products.id)] : BEST_RATED_FIRST;
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

/** One product by id, or null when there is none. */
async function findProduct(db: Database, id: number): Promise<Product | null> {
  const [row] = await db.select(productColumns).from(products).where(eq(products.id, id)).limit(1);
  return row ? { ...row, creationDate: row.creationDate.toISOString() } : null;
}

/** Products to show beside one: the best rated others of its category. */
async function findRelatedProducts(
  db: Database,
  product: Pick<Product, "id" | "category">,
  limit: number,
): Promise<Product[]> {
  const rows = await db
    .select(productColumns)
    .from(products)
    .where(and(eq(products.category, product.category), sql`${products.id} <> ${product.id}`))
    .orderBy(...BEST_RATED_FIRST)
    .limit(limit);
  return rows.map((row) => ({ ...row, creationDate: row.creationDate.toISOString() }));
}

/** A slice of every product, by id, as a sitemap lists them. */
async function readSitemapProducts(db: Database, offset: number, limit: number) {
  const rows = await db
    .select({ id: products.id, name: products.name, creationDate: products.creationDate })
    .from(products)
    .orderBy(asc(products.id))
    .limit(limit)
    .offset(offset);
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

/** The filters a facet matrix is read for: everything but the facets themselves. */
export type FacetMatrixFilters = Pick<CatalogFilters, "search" | "range">;

/** How many products of one brand in one category match a search and a price cap. */
export interface FacetCell {
  bandName: string;
  category: string;
  count: number;
}

/**
 * The products matching a search and a price cap, counted by brand and
 * category. One scan answers every question about brands and categories for
 * those filters: the count for any choice of brands and categories, and each
 * facet's counts with the others chosen (facetsOf below). Its size is brands
 * × categories at most, whatever the catalogue's size.
 */
export async function readFacetMatrix(
  db: Database,
  { search, range }: FacetMatrixFilters,
): Promise<FacetCell[]> {
  return db
    .select({ bandName: products.bandName, category: products.category, count: count() })
    .from(products)
    .where(whereClause({ search, range }, searchQuery(search)))
    .groupBy(products.bandName, products.category);
}

/** The catalogue's brands and categories, in the owner's order. */
export async function readFacetValues(db: Database) {
  const [brandRows, categoryRows] = await Promise.all([
    db
      .select({ value: brands.value, label: brands.label })
      .from(brands)
      .orderBy(brands.position, brands.label),
    db
      .select({ value: categories.value, label: categories.label })
      .from(categories)
      .orderBy(categories.position, categories.label),
  ]);
  return { brands: brandRows, categories: categoryRows };
}

export type FacetValues = Awaited<ReturnType<typeof readFacetValues>>;

/** A listing's count and its facets, each choice with the number of products it would show. */
export interface ListingFacets {
  count: number;
  brands: FacetChoice[];
  categories: FacetChoice[];
}

/**
 * The count and the facets of a listing, from its facet matrix. A brand's
 * count is what choosing it would show given everything else chosen: the
 * chosen categories apply, the chosen brands do not (InstantSearch's
 * disjunctive facets), and likewise for categories.
 */
export function facetsOf(matrix: FacetCell[], values: FacetValues, filters: CatalogFilters): ListingFacets {
  const chosenBrands = filters.band ? new Set(filters.band) : null;
  const chosenCategories = filters.category ? new Set(filters.category) : null;
  const brandCounts = new Map<string, number>();
  const categoryCounts = new Map<string, number>();
  let total = 0;
  for (const cell of matrix) {
    const brandChosen = !chosenBrands || chosenBrands.has(cell.bandName);
    const categoryChosen = !chosenCategories || chosenCategories.has(cell.category);
    if (categoryChosen) brandCounts.set(cell.bandName, (brandCounts.get(cell.bandName) ?? 0) + cell.count);
    if (brandChosen) categoryCounts.set(cell.category, (categoryCounts.get(cell.category) ?? 0) + cell.count);
    if (brandChosen && categoryChosen) total += cell.count;
  }
  const choices = (rows: FacetValues["brands"], counts: Map<string, number>) =>
    rows.map(({ value, label }) => ({ value, label, count: counts.get(value) ?? 0 }));
  return {
    count: total,
    brands: choices(values.brands, brandCounts),
    categories: choices(values.categories, categoryCounts),
  };
}

/** The filters a listing with no results could drop, each as a whole. */
const WAY_BACK_FILTERS = ["band", "category", "range", "search"] as const satisfies WayBack["drop"][];

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

const CATALOG_QUERIES = {
  findProducts,
  countProducts,
  readFacetMatrix,
  readFacetValues,
  findProduct,
  findRelatedProducts,
  readSitemapProducts,
};

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
  /** The queries behind the cache; a test may count or fail some of them. */
  replaced: Partial<typeof CATALOG_QUERIES> = {},
) {
  const queries = { ...CATALOG_QUERIES, ...replaced };
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

  const facetValues = () => cached("facet-values", () => queries.readFacetValues(db));
  // Keyed by search and price cap only: choosing brands and categories reuses it.
  const facetMatrix = ({ search, range }: FacetMatrixFilters) =>
    cached(`facet-matrix:${JSON.stringify({ search, range })}`, () =>
      queries.readFacetMatrix(db, { search, range }),
    );
  const listingFacets = async (filters: CatalogFilters): Promise<ListingFacets> => {
    const [matrix, values] = await Promise.all([facetMatrix(filters), facetValues()]);
    return facetsOf(matrix.value, values.value, filters);
  };

  return {
    findProducts: (query: CatalogQuery) =>
      cached(`products:${JSON.stringify(query)}`, () => queries.findProducts(db, query)),
    countProducts: (filters: CatalogFilters) =>
      cached(`count:${JSON.stringify(filters)}`, async () => ({
        count: await queries.countProducts(db, filters),
      })),
    /** The count, and every brand and category with what it would show (`/facets`, the shop's filter panel). */
    listingFacets: (filters: CatalogFilters) =>
      cached(`facets:${JSON.stringify(filters)}`, () => listingFacets(filters)),
    /** The catalogue's brands and categories, without counts. */
    facetValues,
    /** One product, or null. */
    product: (id: number) => cached(`product:${id}`, () => queries.findProduct(db, id)),
    /** A few products of the same category, best rated first. */
    relatedProducts: (product: Pick<Product, "id" | "category">, limit: number) =>
      cached(`related:${product.id}:${product.category}:${limit}`, () =>
        queries.findRelatedProducts(db, product, limit),
      ),
    /** One slice of the sitemap's products, and how many there are in all. */
    sitemapProducts: (offset: number, limit: number) =>
      cached(`sitemap:${offset}:${limit}`, async () => {
        const [rows, total] = await Promise.all([
          queries.readSitemapProducts(db, offset, limit),
          queries.countProducts(db, {}),
        ]);
        return { rows, total };
      }),
    /**
     * For a listing with no results: the one filter whose removal brings the
     * most products back, or null when none does.
     */
    async wayBack(filters: CatalogFilters): Promise<WayBack | null> {
      const applied = WAY_BACK_FILTERS.filter((name) => filters[name] !== undefined);
      const candidates = await Promise.all(
        applied.map(async (drop) => ({
          drop,
          count: (await listingFacets({ ...filters, [drop]: undefined })).count,
        })),
      );
      const [best] = candidates.filter((candidate) => candidate.count > 0).sort((a, b) => b.count - a.count);
      return best ?? null;
    },
    /** Forget every cached answer, after the catalogue changed. */
    clear: () => cache?.clear(),
    /** What the cache holds now, for tests and benchmarks. */
    cacheUsage: () => ({ entries: cache?.size ?? 0, bytes: cache?.calculatedSize ?? 0 }),
  };
}

export type Catalog = ReturnType<typeof createCatalog>;
