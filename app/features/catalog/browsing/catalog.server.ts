import type { Database } from "~/db/client.server";
import type {
  CatalogFilters,
  CatalogQuery,
  ListingFacets,
  Product,
  ProductWithStock,
  SearchSuggestions,
  Suggestion,
} from "../core/catalog-schema";
import {
  type FacetValues,
  findProduct,
  findRelatedProducts,
  readFacetValues,
  readSitemapProducts,
} from "../core/product-rows.server";
import { highlightName, type SearchWord } from "../core/search-words";
import { createStockSnapshot, readStockChanges, readStockLevels } from "../core/stock-snapshot.server";
import {
  type CatalogSearch,
  createProductSearch,
  type ProductSearch,
  type SearchQueries,
} from "../search/index.server";
import {
  type AnswerCacheOptions,
  answer,
  type CatalogAnswer,
  createAnswerCache,
} from "./answer-cache.server";
import type { WayBack } from "./applied-filters";
import { productHref, shopHref } from "./catalog-url";
import { countsByValue, facetsOf } from "./facets";

export type { CatalogAnswer } from "./answer-cache.server";

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
const WAY_BACK_FILTERS = [
  "band",
  "category",
  "option",
  "range",
  "inStock",
  "search",
] as const satisfies WayBack["drop"][];

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

/** The reads a catalogue makes; a test may count or fail some of them. */
const CATALOG_READS = {
  readFacetValues,
  findProduct,
  findRelatedProducts,
  readSitemapProducts,
  readStockChanges,
  readStockLevels,
};

export type CatalogQueries = SearchQueries & typeof CATALOG_READS;

/**
 * The catalogue as the routes use it: listings, counts and facets from the
 * search port (the in-memory index, or SQL while none is ready), product
 * pages and the sitemap from the database, behind one cache of answers
 * (answer-cache.server.ts, with a named policy for each kind).
 */
export function createCatalog(
  db: Database,
  options: CatalogOptions,
  /** The queries behind the cache; a test may count or fail some of them. */
  replaced: Partial<CatalogQueries> = {},
) {
  const reads = { ...CATALOG_READS, ...replaced };
  const search: CatalogSearch = createProductSearch(db, replaced);
  const cacheOptions: AnswerCacheOptions = {
    seconds: options.cacheSeconds,
    maxBytes: options.cacheMaxBytes,
    keepIndexAnswersFromMs: options.keepIndexAnswersFromMs,
  };
  const cache = createAnswerCache(cacheOptions);
  const stock = createStockSnapshot(db, reads);

  /** An answer of the search port, kept as the adapter that made it deserves. */
  const searched = async <T>(
    key: string,
    searchText: string | undefined,
    ask: (port: ProductSearch) => T | Promise<T>,
  ): Promise<CatalogAnswer<T>> => {
    const { search: port, generation } = await search.searchFor(searchText);
    const policy = port.answeredBy === "database" ? "database" : "slow-index";
    return cache.remember(policy, key, generation, () => ask(port));
  };
  /** A read of the database, kept for the cache's seconds. */
  const read = <T>(key: string, load: () => Promise<T>) =>
    cache.remember("database", key, search.generation(), load);

  /** A page's products without their stock: for what shows none (suggestions). */
  const findCards = (query: CatalogQuery) =>
    searched(`cards:${JSON.stringify(query)}`, query.search, (port) => port.page(query));
  /**
   * A page's products with their stock from the process's stock snapshot
   * (stock-snapshot.server.ts: a few seconds old at most), kept as the
   * adapter that made the page deserves (docs/decisions/0027: a product
   * selling out or coming back is a catalogue change, and answers kept from
   * before it are not given).
   */
  const findProducts = (query: CatalogQuery): Promise<CatalogAnswer<ProductWithStock[]>> =>
    searched(`products:${JSON.stringify(query)}`, query.search, async (port) =>
      stock.withStock(await port.page(query)),
    );

  /**
   * The brands and categories, with their labels. They change rarely, so
   * while they cannot be read (the database is down) the last ones read still
   * name the filter panel's choices, instead of none or their raw values.
   */
  const facetValues = () =>
    cache.remember("last-known", "facet-values", search.generation(), () => reads.readFacetValues(db));
  // Keyed by search, price cap, "in stock only" and option values: choosing brands and categories reuses it.
  const facetMatrix = ({ search: text, range, inStock, option }: CatalogFilters) =>
    searched(`facet-matrix:${JSON.stringify({ search: text, range, inStock, option })}`, text, (port) =>
      port.facetMatrix({ range, inStock, option }),
    );
  const optionCounts = (filters: CatalogFilters) =>
    searched(`option-counts:${JSON.stringify(filters)}`, filters.search, async (port) =>
      countsByValue(await port.optionCounts(filters)),
    );
  const listingFacets = async (filters: CatalogFilters): Promise<ListingFacets> => {
    // "In stock only"'s own count is the listing's with it: a second matrix unless it is chosen.
    // Every option value of the catalogue is listed, at 0 where the filters leave none (as brands are).
    const unfiltered = Object.keys(filters).length === 0;
    const [matrix, inStockMatrix, values, options, everyOption] = await Promise.all([
      facetMatrix(filters),
      filters.inStock ? undefined : facetMatrix({ ...filters, inStock: true }),
      facetValues(),
      optionCounts(filters),
      unfiltered ? undefined : optionCounts({}),
    ]);
    return facetsOf(matrix.value, values.value, filters, (inStockMatrix ?? matrix).value, {
      counts: options.value,
      every: (everyOption ?? options).value,
    });
  };

  return {
    findProducts,
    countProducts: (filters: CatalogFilters) =>
      searched(`count:${JSON.stringify(filters)}`, filters.search, async (port) => ({
        count: await port.count(filters),
      })),
    /**
     * Suggestions for a search being typed: the best matching products, and
     * the brands and categories whose names match, each with where it leads.
     */
    suggestions: async (text: string | undefined): Promise<CatalogAnswer<SearchSuggestions>> => {
      const words = await search.read(text);
      if (!words) return answer({ words: [], products: [], brands: [], categories: [] });
      const [found, values] = await Promise.all([
        findCards({ search: text, page: 1, size: SUGGESTED_PRODUCTS }),
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
    searchWords: async (text: string | undefined): Promise<SearchWord[]> => (await search.read(text)) ?? [],
    /** The count, and every brand and category with what it would show (`/facets`, the shop's filter panel). */
    listingFacets: async (filters: CatalogFilters) => answer(await listingFacets(filters)),
    /** The catalogue's brands and categories, without counts. */
    facetValues,
    /** One product with its stock, or null. */
    product: (id: number) =>
      read(`product:${id}`, async () => {
        const found = await reads.findProduct(db, id);
        return found ? ((await stock.withStock([found]))[0] ?? null) : null;
      }),
    /** A few products of the same category, best rated first, with their stock. */
    relatedProducts: (product: Pick<Product, "id" | "category">, limit: number) =>
      read(`related:${product.id}:${product.category}:${limit}`, async () =>
        stock.withStock(await reads.findRelatedProducts(db, product, limit)),
      ),
    /** One slice of the sitemap's products, and how many there are in all. */
    sitemapProducts: (offset: number, limit: number) =>
      read(`sitemap:${offset}:${limit}`, async () => {
        const [rows, all] = await Promise.all([
          reads.readSitemapProducts(db, offset, limit),
          search.searchFor(undefined).then(({ search: port }) => port.count({})),
        ]);
        return { rows, total: all };
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
      const words = await search.read(filters.search);
      const respelled = words ? await search.respell(words) : null;
      if (!respelled) return null;
      const { count } = await listingFacets({ ...filters, search: respelled });
      return count > 0 ? { search: respelled, count } : null;
    },
    /** Start reading the search index and vocabulary, so the first searches need not wait for them (at start-up). */
    warmUp: () => {
      search.warmUp();
      // A failed read is read again by the first listing, which answers 503 if it fails too.
      stock.warmUp().catch(() => {});
    },
    /**
     * Whether the search index is read and answers (for /healthz): until then
     * SQL answers, more slowly. Asking starts a read if none is under way.
     */
    ready: () => search.indexReady(),
    /** Resolves once the search index is read (or its read failed): for tests and benchmarks. */
    indexReady: () => search.ready(),
    /** The index in use: its size and revision, or null while the database answers. */
    indexInUse: () => search.indexInUse(),
    /**
     * The catalogue changed: the database announced it (LISTEN/NOTIFY), or
     * may have while nobody listened. The index applies what changed; answers
     * made before are not given again.
     */
    changed: () => {
      stock.changed();
      search.changed();
    },
    /** Forget every cached answer, the index and the vocabulary. */
    clear: () => {
      cache.clear();
      search.clear();
      stock.clear();
    },
    /** What the cache holds now, for tests and benchmarks. */
    cacheUsage: () => cache.usage(),
  };
}

export type Catalog = ReturnType<typeof createCatalog>;
