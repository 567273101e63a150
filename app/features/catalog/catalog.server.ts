import { and, asc, count, desc, eq, gt, inArray, lte, type SQL, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Database } from "~/db/client.server";
import { brands, catalogRevisions, categories, products } from "~/db/schema";
import { etagOf } from "~/utils/http.server";
import { logFailure, logger } from "~/utils/logger.server";
import type { WayBack } from "./applied-filters";
import {
  type CatalogIndex,
  CatalogIndexBuilder,
  type FacetCell,
  type IndexedWord,
  type IndexTerm,
  keepCatalogIndex,
} from "./catalog-index.server";
import type {
  CatalogFilters,
  CatalogQuery,
  ListingFacets,
  Product,
  SearchSuggestions,
  Suggestion,
} from "./catalog-schema";
import { productHref, shopHref } from "./catalog-url";
import { createPictureStore } from "./product-pictures.server";
import {
  EMPTY_VOCABULARY,
  interpretSearch,
  type SearchVocabulary,
  searchVocabulary,
  suggestSpelling,
} from "./search-vocabulary.server";
import { highlightName, PREFIX_MIN_LENGTH, type SearchWord } from "./search-words";

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

/** Letters and digits only: a word that cannot change a tsquery's meaning. */
const isPlainWord = (word: string) => /^[\p{L}\p{N}]+$/u.test(word);

/** A search's words as read without the catalogue's vocabulary: each word only as typed. */
const asTyped = (search: string | undefined) => interpretSearch(search, EMPTY_VOCABULARY);

function whereClause(filters: CatalogFilters, tsquery: SQL | null | undefined): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.category) conditions.push(inArray(products.category, filters.category));
  if (filters.band) conditions.push(inArray(products.bandName, filters.band));
  if (filters.range) conditions.push(lte(products.price, filters.range));
  if (tsquery) conditions.push(sql`${products.searchVector} @@ ${tsquery}`);
  if (tsquery === null) conditions.push(sql`false`);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/**
 * Best rated first, the newest among equal ratings: "Top Rated", and the
 * shop's order when nothing else is asked. "nulls last" as the indexes say
 * it (drizzle/0003, 0006): the columns hold no nulls, but PostgreSQL reads an
 * order from an index only when it is written the same way.
 */
const BEST_RATED_FIRST = [
  sql`${products.ratings} desc nulls last`,
  sql`${products.creationDate} desc nulls last`,
  asc(products.id),
];

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
      return [asc(products.price), asc(products.id)];
    case "dsc":
      return [desc(products.price), desc(products.id)];
    case "date-added":
      return [desc(products.creationDate), desc(products.id)];
    case "rating":
      return BEST_RATED_FIRST;
    default:
      return inName ? [desc(inName), ...BEST_RATED_FIRST] : BEST_RATED_FIRST;
  }
}

/** A product's columns as the API and the pages show it (and as an import compares it). */
export const productColumns = {
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

/** A product row as the API and the shop page show it: dates in ISO 8601. */
function productOf(row: Omit<Product, "creationDate"> & { creationDate: Date }): Product {
  return { ...row, creationDate: row.creationDate.toISOString() };
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
): Promise<Product[]> {
  const tsquery = searchQuery(words);
  const inName =
    tsquery && !query.sort
      ? sql`${products.searchVector} @@ ${searchQuery(words, { inName: true })}`
      : undefined;
  // Deferred join: find the page's ids first (an index-only scan for the
  // usual orders), then read only those rows. Deep pages then cost little
  // more than the first one.
  const page = db
    .select({ id: products.id, ...(inName ? { inName: sql<boolean>`${inName}`.as("in_name") } : {}) })
    .from(products)
    .where(whereClause(query, tsquery))
    .orderBy(...ordering(query, inName))
    .limit(query.size)
    .offset((query.page - 1) * query.size)
    .as("page");
  const rows = await db
    .select(productColumns)
    .from(products)
    .innerJoin(page, eq(products.id, page.id))
    .orderBy(...ordering(query, inName ? sql`"page"."in_name"` : undefined));
  return rows.map(productOf);
}

/** The PostgreSQL channel every change to the catalogue is announced on when it commits (drizzle/0005). */
export const CATALOG_CHANGED_CHANNEL = "catalog_changed";

/** The catalogue's revision: counted up by every change to products, brands or categories. */
export async function readCatalogRevision(db: Database): Promise<number> {
  const [row] = await db
    .select({ revision: catalogRevisions.revision })
    .from(catalogRevisions)
    .where(eq(catalogRevisions.id, 1));
  return row?.revision ?? 0;
}

/** Products read per statement while the index is read. */
const INDEX_BATCH = 20_000;

/** Reads of the index that may start again because the catalogue changed during one. */
const INDEX_READ_ATTEMPTS = 3;

/**
 * The catalogue's search index (catalog-index.server.ts), read in batches by
 * id. No long transaction (on PGlite one would hold every other query until
 * it ends): the revision is read before and after, and a read during which
 * the catalogue changed starts again; after INDEX_READ_ATTEMPTS it keeps the
 * revision from before, so the next check reads it once more. Each product
 * brings the lexemes PostgreSQL stored for it, and which come from its name.
 */
async function readCatalogIndex(db: Database): Promise<CatalogIndex | null> {
  for (let attempt = 1; ; attempt++) {
    const revision = await readCatalogRevision(db);
    const builder = new CatalogIndexBuilder();
    let after = 0;
    for (;;) {
      const rows = await db
        .select({
          ...productColumns,
          priceCents: sql<number>`(${products.price} * 100)::float8`,
          ratingTenths: sql<number>`(${products.ratings} * 10)::int`,
          createdMicros: sql<number>`(extract(epoch from ${products.creationDate}) * 1000000)::float8`,
          lexemes: sql<string>`array_to_string(tsvector_to_array(${products.searchVector}), ' ')`,
          nameLexemes: sql<string>`(select coalesce(string_agg(lexeme, ' '), '') from unnest(${products.searchVector}) where 'A' = any(weights))`,
        })
        .from(products)
        .where(gt(products.id, after))
        .orderBy(asc(products.id))
        .limit(INDEX_BATCH);
      for (const { priceCents, ratingTenths, createdMicros, lexemes, nameLexemes, ...product } of rows) {
        builder.add({
          product: productOf(product),
          priceCents,
          ratingTenths,
          createdMicros,
          lexemes: wordsOf(lexemes),
          nameLexemes: wordsOf(nameLexemes),
        });
      }
      const last = rows.at(-1);
      if (!last || rows.length < INDEX_BATCH) break;
      after = last.id;
    }
    if ((await readCatalogRevision(db)) === revision || attempt === INDEX_READ_ATTEMPTS) {
      return builder.build(revision);
    }
  }
}

/** Lexemes never hold a space: the list travels as one string, cheaper than an array. */
const wordsOf = (list: string) => (list === "" ? [] : list.split(" "));

/** The operands of a tsquery's text ('run':* → run, prefix). */
const operandsOf = (query: string): IndexTerm[] =>
  [...query.matchAll(/'((?:[^']|'')*)'(:\*)?/g)].map((match) => ({
    lexeme: (match[1] as string).replaceAll("''", "'"),
    prefix: match[2] !== undefined,
  }));

/**
 * A search word as to_tsquery reads it: its English stem ("running:*" → run,
 * prefix; none for a stop word), or null when the parser splits the word in
 * two (letters the database's locale does not count as letters): the index
 * would not match what SQL matches, so the SQL queries answer that search.
 */
async function readWordStem(db: Database, typed: string, written: string): Promise<IndexTerm[] | null> {
  const [row] = await db
    .select({
      english: sql<string>`to_tsquery('english', ${written})::text`,
      simple: sql<string>`to_tsquery('simple', ${written})::text`,
    })
    .from(sql`(values (1)) as one`);
  const english = operandsOf(row?.english ?? "");
  const simple = operandsOf(row?.simple ?? "");
  const whole = english.length <= 1 && simple.length === 1 && simple[0]?.lexeme === typed;
  return whole ? english : null;
}

/** One product by id, or null when there is none. */
async function findProduct(db: Database, id: number): Promise<Product | null> {
  const [row] = await db.select(productColumns).from(products).where(eq(products.id, id)).limit(1);
  return row ? productOf(row) : null;
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
  return rows.map(productOf);
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

/** How many products match the filters (`words` as for findProducts). */
export async function countProducts(
  db: Database,
  filters: CatalogFilters,
  words = asTyped(filters.search),
): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(products)
    .where(whereClause(filters, searchQuery(words)));
  return row?.count ?? 0;
}

/** The filters a facet matrix is read for: everything but the facets themselves. */
export type FacetMatrixFilters = Pick<CatalogFilters, "search" | "range">;

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
  words = asTyped(search),
): Promise<FacetCell[]> {
  return db
    .select({ bandName: products.bandName, category: products.category, count: count() })
    .from(products)
    .where(whereClause({ search, range }, searchQuery(words)))
    .groupBy(products.bandName, products.category);
}

/**
 * Products whose descriptions the vocabulary reads at most (about 1 s on
 * PostgreSQL); past that, a sample of as many. A description word used by
 * fewer than about one product in this many may then be left out: it is
 * still found by its start, only not forgiven its typos.
 */
const VOCABULARY_SAMPLE_PRODUCTS = 200_000;

/** Words a vocabulary keeps at most, the most used first: far more than a shop's names and descriptions hold. */
const VOCABULARY_MAX_WORDS = 100_000;

/**
 * Every word of the catalogue's names, descriptions, brands and categories,
 * as written (no stems), letters and digits only, the most used first.
 * The descriptions' words are read from the stored search vector (its
 * weight D is the description as written: no parsing again); the names are
 * parsed once per distinct name, the brands and categories from their rows.
 * About 0.4 s on 100,000 products: read now and then, never per search.
 */
export async function readSearchVocabulary(db: Database): Promise<SearchVocabulary> {
  const [counted] = await db.select({ total: count() }).from(products);
  // On a large catalogue the descriptions are read from a sample of pages: their words are
  // common ones, and reading every vector of a million products takes longer than a statement may.
  const percent = Math.min(100, (100 * VOCABULARY_SAMPLE_PRODUCTS) / Math.max(1, counted?.total ?? 0));
  const descriptions =
    percent < 100
      ? `select search_vector from products tablesample system (${percent.toFixed(4)})`
      : "select search_vector from products";
  const parts = [
    sql`select word, ndoc from ts_stat(${descriptions}, 'd')`,
    sql`select word, ndoc from ts_stat('select to_tsvector(''simple'', name) from (select distinct name from products) names')`,
    sql`select word, ndoc from ts_stat('select to_tsvector(''simple'', value || '' '' || label) from brands union all select to_tsvector(''simple'', value || '' '' || label) from categories')`,
  ];
  const rows = await db
    .select({ word: sql<string>`word` })
    .from(sql`(${sql.join(parts, sql` union all `)}) as words`)
    .groupBy(sql`word`)
    .orderBy(sql`sum(ndoc) desc`, sql`word`)
    .limit(VOCABULARY_MAX_WORDS);
  // Words with a hyphen or an apostrophe are also stored in their parts; the whole is left out.
  return searchVocabulary(rows.map((row) => row.word).filter(isPlainWord));
}

/** The catalogue's brands and categories, in the owner's order. */
export async function readFacetValues(db: Pick<Database, "select">) {
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
  for (const cell of matrix) {
    const brandChosen = !chosenBrands || chosenBrands.has(cell.bandName);
    const categoryChosen = !chosenCategories || chosenCategories.has(cell.category);
    if (categoryChosen) brandCounts.set(cell.bandName, (brandCounts.get(cell.bandName) ?? 0) + cell.count);
    if (brandChosen) categoryCounts.set(cell.category, (categoryCounts.get(cell.category) ?? 0) + cell.count);
  }
  const choices = (rows: FacetValues["brands"], counts: Map<string, number>) =>
    rows.map(({ value, label }) => ({ value, label, count: counts.get(value) ?? 0 }));
  return {
    count: countOf(matrix, filters),
    brands: choices(values.brands, brandCounts),
    categories: choices(values.categories, categoryCounts),
  };
}

/** How many products of a facet matrix the brand and category choices keep. */
function countOf(matrix: FacetCell[], filters: CatalogFilters): number {
  const keeps = (chosen: string[] | undefined, value: string) => !chosen || chosen.includes(value);
  return matrix.reduce(
    (sum, cell) =>
      keeps(filters.band, cell.bandName) && keeps(filters.category, cell.category) ? sum + cell.count : sum,
    0,
  );
}

/** Products a search suggests at most; brands and categories at most, each. */
const SUGGESTED_PRODUCTS = 5;
const SUGGESTED_FACET_VALUES = 3;

/** The brands or categories whose label has a word the search matches, as links to the shop filtered by them. */
function suggestedFacetValues(
  rows: FacetValues["brands"],
  words: readonly SearchWord[],
  link: (value: string) => string,
): Suggestion[] {
  return rows
    .filter(({ label }) => highlightName(label, words).some((part) => part.matched))
    .slice(0, SUGGESTED_FACET_VALUES)
    .map(({ value, label }) => ({ label, href: link(value) }));
}

/** The filters a listing with no results could drop, each as a whole. */
const WAY_BACK_FILTERS = ["band", "category", "range", "search"] as const satisfies WayBack["drop"][];

export interface CatalogOptions {
  /** Seconds an answer is reused; 0 reads the database every time. */
  cacheSeconds: number;
  /** Memory the cached answers may take, in bytes (default 64 MiB). */
  cacheMaxBytes?: number;
  /**
   * An answer from the search index is kept in the cache only when making it
   * took at least this long (default 1 ms): a broad search on a large
   * catalogue, not the many answers cheaper to make again than to keep.
   */
  keepIndexAnswersFromMs?: number;
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
  readCatalogIndex,
  readCatalogRevision,
  readWordStem,
  readFacetMatrix,
  readFacetValues,
  findProduct,
  findRelatedProducts,
  readSitemapProducts,
  readSearchVocabulary,
};

/**
 * Seconds the search vocabulary is used before it is read again. Past that
 * the old one still answers while the new one is read, so no search waits
 * for it; a word new to the catalogue is found by its start at once and
 * forgiven its typos within this time.
 */
const VOCABULARY_SECONDS = 300;

/** Seconds before a failed vocabulary read is tried again. */
const VOCABULARY_RETRY_SECONDS = 30;

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
          // Dropping an expired answer aborts a read of its successor already under way (lru-cache
          // then rejects it with "deleted": a 503 under load): let that read finish and answer.
          ignoreFetchAbort: true,
          // The process's clock, read when used (so a test's fake clock is honoured too).
          perf: { now: () => performance.now() },
          fetchMethod: (_key, _stale, { context }) => context(),
        })
      : undefined;

  /**
   * Counted up when a new search index is put in use: answers are keyed by it,
   * so those made before are no longer found (and expire on time), while a
   * request still waiting for one gets it.
   */
  let indexGeneration = 0;
  async function cached<T>(key: string, load: () => Promise<T>): Promise<CatalogAnswer<T>> {
    const compute = async () => answer(await load());
    if (!cache) return compute();
    return (await cache.fetch(`${indexGeneration}:${key}`, { context: compute })) as CatalogAnswer<T>;
  }

  // Read on first use, then again in the background once VOCABULARY_SECONDS have passed.
  const vocabularyCache = new LRUCache<"vocabulary", SearchVocabulary>({
    max: 1,
    ttl: VOCABULARY_SECONDS * 1000,
    allowStale: true,
    noDeleteOnFetchRejection: true,
    perf: { now: () => performance.now() },
    fetchMethod: () => queries.readSearchVocabulary(db),
  });
  /**
   * The vocabulary, or none while it cannot be read (the database is down, or
   * slow on a huge catalogue): searches then match each word as typed, as
   * before there was one, instead of failing.
   */
  let vocabularyRetryAt = Number.NEGATIVE_INFINITY;
  const vocabulary = async (): Promise<SearchVocabulary> => {
    // After a failed read, not every search tries again (each try is a slow statement).
    if (performance.now() < vocabularyRetryAt) {
      return vocabularyCache.get("vocabulary", { allowStale: true }) ?? EMPTY_VOCABULARY;
    }
    try {
      return (await vocabularyCache.fetch("vocabulary")) ?? EMPTY_VOCABULARY;
    } catch (error) {
      vocabularyRetryAt = performance.now() + VOCABULARY_RETRY_SECONDS * 1000;
      logFailure(error, "search vocabulary read failed; words are matched as typed");
      return EMPTY_VOCABULARY;
    }
  };
  // A page asks for one search's reading several times (products, counts, facets), and a
  // reading scans the vocabulary: each search is read once per vocabulary, and the readings
  // go with the vocabulary they were made with.
  const readings = new WeakMap<SearchVocabulary, LRUCache<string, { words: SearchWord[] | null }>>();
  /**
   * The search read word by word against the vocabulary (search-vocabulary.server.ts):
   * undefined without a search, null with no word in it.
   */
  const readSearch = async (search: string | undefined) => {
    if (!search) return undefined;
    const current = await vocabulary();
    const read = readings.get(current) ?? new LRUCache<string, { words: SearchWord[] | null }>({ max: 1000 });
    readings.set(current, read);
    const known = read.get(search);
    if (known) return known.words;
    const words = interpretSearch(search, current) ?? null;
    read.set(search, { words });
    return words;
  };

  const catalogIndex = keepCatalogIndex({
    read: async () => {
      const started = performance.now();
      const index = await queries.readCatalogIndex(db);
      if (index) {
        logger.info(
          {
            products: index.size,
            lexemes: index.lexemeCount,
            megabytes: Math.round(index.bytes / 2 ** 20),
            milliseconds: Math.round(performance.now() - started),
          },
          "catalogue index read",
        );
      }
      return index;
    },
    revision: () => queries.readCatalogRevision(db),
    freshForMs: options.cacheSeconds * 1000,
    // Answers made before may be out of date: make them afresh.
    onReplaced: () => {
      indexGeneration++;
    },
    onFailure: logFailure,
  });

  // A search word's English stem is asked of the database once (the index matches what to_tsquery would),
  // keyed as written ("blend:*" for a prefix): searches asking for one together share the read.
  const stems = new LRUCache<string, { stem: IndexTerm[] | null }, string>({
    max: 10_000,
    fetchMethod: async (written, _stale, { context: typed }) => ({
      stem: await queries.readWordStem(db, typed, written),
    }),
  });
  /**
   * A search's reading as the index matches it: undefined without a search,
   * null with no word in it, false when the index cannot match one of its
   * words as PostgreSQL does (readWordStem).
   */
  const indexWords = async (
    words: SearchWord[] | null | undefined,
  ): Promise<IndexedWord[] | null | undefined | false> => {
    if (words === undefined || words === null) return words;
    const plain = words.filter(({ typed }) => isPlainWord(typed));
    if (plain.length === 0) return null;
    const read = await Promise.all(
      plain.map(async ({ typed, alike }) => {
        const prefix = typed.length >= PREFIX_MIN_LENGTH;
        const written = prefix ? `${typed}:*` : typed;
        const known = await stems.fetch(written, { context: typed });
        if (!known?.stem) return null;
        const alikeTerms = alike.filter(isPlainWord).map((lexeme) => ({ lexeme, prefix: false }));
        return { anyOf: [{ lexeme: typed, prefix }, ...known.stem, ...alikeTerms] };
      }),
    );
    return read.every((word) => word !== null) ? (read as IndexedWord[]) : false;
  };

  /**
   * Who answers a search, decided once per answer: the index in use with the
   * search as it reads it, or null when the SQL queries must (no index is
   * ready, or a word the index cannot match as PostgreSQL does).
   */
  const answeringIndex = async (words: SearchWord[] | null | undefined) => {
    const index = await catalogIndex.current();
    if (!index) return null;
    const indexed = await indexWords(words);
    return indexed === false ? null : { index, words: indexed };
  };

  type Answering = NonNullable<Awaited<ReturnType<typeof answeringIndex>>>;
  const keepFromMs = options.keepIndexAnswersFromMs ?? 1;
  /**
   * An answer from the index when one answers, else from the SQL queries
   * through the cache. Most index answers take well under a millisecond, less
   * than the cache's bookkeeping for them (an entry, a timer, a pending
   * fetch: in the benchmark at 100k products the mixed API was faster with
   * the cache off), so only those that took longer are kept. They are as
   * fresh as a cached one: the index is checked once per cache time.
   */
  const fromIndexOrCache = async <T>(
    key: string,
    words: SearchWord[] | null | undefined,
    fromIndex: (answering: Answering) => T | Promise<T>,
    fromSql: () => Promise<T>,
  ): Promise<CatalogAnswer<T>> => {
    const answering = await answeringIndex(words);
    if (!answering) return cached(key, fromSql);
    const keptAs = `${indexGeneration}:${key}`;
    const kept = cache?.get(keptAs);
    if (kept) return kept as CatalogAnswer<T>;
    const started = performance.now();
    const made = answer(await fromIndex(answering));
    if (cache && performance.now() - started >= keepFromMs) cache.set(keptAs, made);
    return made;
  };

  /** One page: chosen by the index when one answers, by SQL otherwise. */
  const findProducts = async (query: CatalogQuery) => {
    const words = await readSearch(query.search);
    return fromIndexOrCache(
      `products:${JSON.stringify(query)}`,
      words,
      ({ index, words }) => index.page(query, words),
      () => queries.findProducts(db, query, words),
    );
  };

  /**
   * The brands and categories, with their labels. They change rarely, so
   * while they cannot be read (the database is down) the last ones read still
   * name the filter panel's choices, instead of none or their raw values.
   */
  let lastFacetValues: CatalogAnswer<FacetValues> | undefined;
  const facetValues = async () => {
    try {
      lastFacetValues = await cached("facet-values", () => queries.readFacetValues(db));
      return lastFacetValues;
    } catch (error) {
      if (lastFacetValues) return lastFacetValues;
      throw error;
    }
  };
  // Keyed by search and price cap only: choosing brands and categories reuses it.
  const facetMatrix = async ({ search, range }: FacetMatrixFilters) => {
    const words = await readSearch(search);
    return fromIndexOrCache(
      `facet-matrix:${JSON.stringify({ search, range })}`,
      words,
      ({ index, words }) => index.facetMatrix({ range }, words),
      () => queries.readFacetMatrix(db, { search, range }, words),
    );
  };
  const listingFacets = async (filters: CatalogFilters): Promise<ListingFacets> => {
    const [matrix, values] = await Promise.all([facetMatrix(filters), facetValues()]);
    return facetsOf(matrix.value, values.value, filters);
  };

  return {
    findProducts,
    countProducts: async (filters: CatalogFilters) => {
      const words = await readSearch(filters.search);
      return fromIndexOrCache(
        `count:${JSON.stringify(filters)}`,
        words,
        ({ index, words }) => ({ count: countOf(index.facetMatrix(filters, words), filters) }),
        // Without the index, one count(*) costs less than the matrix it would sum.
        async () => ({ count: await queries.countProducts(db, filters, words) }),
      );
    },
    /**
     * Suggestions for a search being typed: the best matching products, and
     * the brands and categories whose names match, each with where it leads.
     */
    suggestions: async (search: string | undefined): Promise<CatalogAnswer<SearchSuggestions>> => {
      const words = await readSearch(search);
      if (!words) return answer({ words: [], products: [], brands: [], categories: [] });
      const [found, values] = await Promise.all([
        findProducts({ search, page: 1, size: SUGGESTED_PRODUCTS }),
        facetValues(),
      ]);
      return answer({
        words,
        products: found.value.map((product) => ({ label: product.name, href: productHref(product) })),
        brands: suggestedFacetValues(values.value.brands, words, (band) => shopHref({ band: [band] })),
        categories: suggestedFacetValues(values.value.categories, words, (category) =>
          shopHref({ category: [category] }),
        ),
      });
    },
    /**
     * How a search is read: each word with the catalogue words that answer it
     * (for marking matches in names, and saying which spellings were used);
     * empty without a search or a word in it.
     */
    searchWords: async (search: string | undefined): Promise<SearchWord[]> =>
      (await readSearch(search)) ?? [],
    /** The count, and every brand and category with what it would show (`/facets`, the shop's filter panel). */
    listingFacets: async (filters: CatalogFilters) => answer(await listingFacets(filters)),
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
    /**
     * For a search with no results: the same search spelled as the catalogue
     * spells it, with the number of products it finds; null when no respelling
     * finds any.
     */
    async didYouMean(filters: CatalogFilters): Promise<{ search: string; count: number } | null> {
      const words = await readSearch(filters.search);
      const search = words ? suggestSpelling(words, await vocabulary()) : null;
      if (!search) return null;
      const { count } = await listingFacets({ ...filters, search });
      return count > 0 ? { search, count } : null;
    },
    /** Start reading the search index and vocabulary, so the first searches need not wait for them (at start-up). */
    warmUp: () => {
      // Neither rejects: a failed read is logged, and the SQL queries answer / words are matched as typed.
      void catalogIndex.ready();
      void vocabulary();
    },
    /** Resolves once the search index is read (or its read failed): for tests and benchmarks. */
    indexReady: () => catalogIndex.ready(),
    /** The index in use: its size and revision, or null while the database answers. */
    indexInUse: () => {
      const index = catalogIndex.peek();
      return index && { products: index.size, revision: index.revision, bytes: index.bytes };
    },
    /** Forget every cached answer, the index and the vocabulary, after the catalogue changed. */
    clear: () => {
      cache?.clear();
      catalogIndex.clear();
      vocabularyCache.clear();
    },
    /** The owner's imported pictures (/pictures/…). */
    pictures: createPictureStore(db),
    /** What the cache holds now, for tests and benchmarks. */
    cacheUsage: () => ({ entries: cache?.size ?? 0, bytes: cache?.calculatedSize ?? 0 }),
  };
}

export type Catalog = ReturnType<typeof createCatalog>;
