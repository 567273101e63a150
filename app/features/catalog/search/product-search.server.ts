import { LRUCache } from "lru-cache";
import type { ShopMoney } from "~/commerce/money";
import { settleShopMoney } from "~/commerce/shop-money.server";
import type { Database } from "~/db/client.server";
import { collectGarbage } from "~/utils/garbage.server";
import { logFailure, logger } from "~/utils/logger.server";
import type { CatalogFilters, CatalogQuery, FacetCell, Product } from "../core/catalog-schema";
import { PREFIX_MIN_LENGTH, type SearchWord } from "../core/search-words";
import type { IndexedSearch, IndexedWord, IndexTerm } from "./catalog-index.server";
import type { LiveIndex } from "./index-changes.server";
import { keepCatalogIndex } from "./index-keeping.server";
import { readCatalogChanges, readCatalogIndex, readWordStem } from "./index-read.server";
import { createSearchReading } from "./search-reading.server";
import {
  countProducts,
  findProducts,
  isPlainWord,
  mayBeSku,
  readFacetMatrix,
  readOptionCounts,
  readSkuProducts,
} from "./sql-search.server";
import { readSearchVocabulary } from "./vocabulary-read.server";

/**
 * The catalogue's search behind one port: a page, a count and a facet matrix
 * of any listing, for one search as the vocabulary reads it. Two adapters
 * answer it: the in-memory index, once a process has read it, and SQL (the
 * embedded database, and every process while its index is read, and a word
 * the index cannot match as PostgreSQL does). A hosted search engine
 * (Meilisearch, Typesense, OpenSearch) would be a third adapter behind the
 * same port (docs/decisions/0021).
 */
export interface ProductSearch {
  /** Who answers: answers from the database are worth caching, most index answers are not. */
  readonly answeredBy: "index" | "database";
  page(query: CatalogQuery): Promise<Product[]> | Product[];
  /** The matching products counted by brand × category under a price cap, in stock only and with the chosen option values when asked. */
  facetMatrix(
    filters: Pick<CatalogFilters, "range" | "inStock" | "option">,
  ): Promise<FacetCell[]> | FacetCell[];
  count(filters: CatalogFilters): Promise<number> | number;
  /** How many products the filters keep count towards each option value (by pairKey, option-choices.ts). */
  optionCounts(filters: CatalogFilters): Promise<Map<string, number>> | Map<string, number>;
}

/** The queries behind the port; a test may count or fail some of them. */
const SEARCH_QUERIES = {
  findProducts,
  countProducts,
  readFacetMatrix,
  readOptionCounts,
  readSkuProducts,
  readCatalogIndex,
  readCatalogChanges,
  readWordStem,
  readSearchVocabulary,
};

export type SearchQueries = typeof SEARCH_QUERIES;

/** How many products of a facet matrix the brand and category choices keep. */
export function countOf(matrix: FacetCell[], filters: CatalogFilters): number {
  const keeps = (chosen: string[] | undefined, value: string) => !chosen || chosen.includes(value);
  return matrix.reduce(
    (sum, cell) =>
      keeps(filters.band, cell.bandName) && keeps(filters.category, cell.category) ? sum + cell.count : sum,
    0,
  );
}

function indexAdapter(index: LiveIndex, words: IndexedSearch | null | undefined): ProductSearch {
  return {
    answeredBy: "index",
    page: (query) => index.page(query, words),
    facetMatrix: ({ range, inStock, option }) => index.facetMatrix({ range, inStock, option }, words),
    count: (filters) => countOf(index.facetMatrix(filters, words), filters),
    optionCounts: (filters) => index.optionCounts(filters, words),
  };
}

function databaseAdapter(
  db: Database,
  queries: SearchQueries,
  words: SearchWord[] | null | undefined,
  skuProducts: readonly number[],
): ProductSearch {
  return {
    answeredBy: "database",
    page: (query) => queries.findProducts(db, query, words, skuProducts),
    facetMatrix: ({ range, inStock, option }) =>
      queries.readFacetMatrix(db, { range, inStock, option }, words, skuProducts),
    // One count(*) costs less than the matrix it would sum.
    count: (filters) => queries.countProducts(db, filters, words, skuProducts),
    optionCounts: (filters) => queries.readOptionCounts(db, filters, words, skuProducts),
  };
}

/** Collects what a whole index read left behind; says how long that held the event loop, and what the process holds after it. */
function releaseReadMemory() {
  const started = performance.now();
  collectGarbage();
  logger.info(
    {
      milliseconds: Math.round(performance.now() - started),
      residentMegabytes: Math.round(process.memoryUsage.rss() / 2 ** 20),
    },
    "memory of the index read released",
  );
}

/**
 * The search a catalogue answers with: searches read against the vocabulary,
 * the index kept current, and for each search the adapter that answers it.
 */
export function createProductSearch(db: Database, replaced: Partial<SearchQueries> = {}) {
  const queries = { ...SEARCH_QUERIES, ...replaced };
  const reading = createSearchReading(() => queries.readSearchVocabulary(db));
  /** Counted up when the index in use changes: answers made before may be out of date. */
  let generation = 0;

  /** The currency the index last read was written in: the process's, once that index is in use. */
  let readIn: ShopMoney | undefined;
  const catalogIndex = keepCatalogIndex({
    read: async () => {
      const started = performance.now();
      const read = await queries.readCatalogIndex(db);
      readIn = read?.money;
      const index = read?.index ?? null;
      if (index) {
        logger.info(
          {
            revision: index.revision,
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
    changes: (since, atMost) => queries.readCatalogChanges(db, since, atMost),
    onReplaced: () => {
      // Pages write amounts in the index's currency from now on: its cards' decimals are in it.
      if (readIn) settleShopMoney(readIn);
      generation++;
    },
    // After this turn, when nothing of the read is referenced any more (garbage.server.ts says why).
    onRead: () => setImmediate(releaseReadMemory),
    onApplied: (applied) => logger.info(applied, "catalogue changes applied to the index"),
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

  // A search that is a live variant's SKU finds its product: asked of the database (drizzle/0026's
  // index) once per search and catalogue revision, since a SKU changes only with a catalogue change.
  const skus = new LRUCache<string, { products: number[] }, string>({
    max: 10_000,
    fetchMethod: async (_key, _stale, { context: search }) => ({
      products: await queries.readSkuProducts(db, search),
    }),
  });
  const skuProducts = async (search: string | undefined, revision: number | undefined) => {
    const sku = search?.trim().toLowerCase();
    if (!sku || !mayBeSku(sku)) return [];
    if (revision === undefined) return queries.readSkuProducts(db, sku);
    return (await skus.fetch(`${revision}\n${sku}`, { context: sku }))?.products ?? [];
  };

  return {
    /**
     * A search as the catalogue reads it, and the adapter that answers it:
     * the index in use, or SQL (no index ready, or a word the index cannot
     * match as PostgreSQL does). `generation` names the index state the
     * answers belong to.
     */
    async searchFor(search: string | undefined) {
      const words = await reading.read(search);
      const index = catalogIndex.current();
      const [indexed, skuIds] = await Promise.all([
        index ? indexWords(words) : (false as const),
        words ? skuProducts(search, index?.revision) : [],
      ]);
      const answering =
        index && indexed !== false
          ? indexAdapter(index, indexed ? { words: indexed, skuProducts: skuIds } : indexed)
          : databaseAdapter(db, queries, words, skuIds);
      return { words, search: answering, generation };
    },
    /** The search read word by word (search-vocabulary.server.ts). */
    read: reading.read,
    /** The search respelled as the catalogue spells it, or null. */
    respell: reading.respell,
    /** The index state answers belong to. */
    generation: () => generation,
    /** Start reading the index and vocabulary, so the first searches need not wait for them (at start-up). */
    warmUp() {
      // Neither rejects: a failed read is logged, and the SQL queries answer / words are matched as typed.
      void catalogIndex.ready();
      reading.warmUp();
    },
    /** Whether an index answers (asking starts a read if none is under way). */
    indexReady: () => catalogIndex.current() !== null,
    /** Resolves once the index is read (or its read failed). */
    ready: () => catalogIndex.ready(),
    /** The index in use: its size and revision, or null while the database answers. */
    indexInUse() {
      const index = catalogIndex.peek();
      return index && { products: index.size, revision: index.revision, bytes: index.bytes };
    },
    /**
     * The catalogue changed (the database announced it, or may have while
     * nobody listened): the index applies what changed, at once.
     */
    changed: () => catalogIndex.changed(),
    /** Forgets the index and the vocabulary. */
    clear() {
      catalogIndex.clear();
      reading.clear();
      generation++;
    },
  };
}

export type CatalogSearch = ReturnType<typeof createProductSearch>;
