import type { CatalogFilters, CatalogQuery, FacetCell, Product } from "../core/catalog-schema";
import { chosenOptions } from "../core/option-choices";
import { copyBits, countAtMost, countBits, countBitsBetween, has, numbersOf, setBit } from "./bits";
import type { CardShelf } from "./card-shelf";
import type { BitCandidates, CellCandidates, Filter, IndexOrders, Removal } from "./index-orders";
import type { IndexedSearch, IndexParts, SortKey } from "./index-types";
import type { OptionIndex } from "./option-index";
import { Postings } from "./postings";
import { priceCapOf } from "./price-cap.server";
import { ChosenVariants, SearchMatches } from "./search-matches";

/**
 * The catalogue's search index: what a hosted search engine keeps beside the
 * database, kept in the shop's own memory instead (docs/decisions/0021).
 *
 * PostgreSQL stays the only store. The index holds, for every product, what
 * choosing and ordering need — brand, category, price in cents, rating and
 * date added, and its place in each order — and its card (the product as the
 * API writes it, as UTF-8 outside the JS heap); and, for every lexeme of the
 * stored search vectors, the products that carry it (and those that carry it
 * in their name), and the option values of its live variants (option-index.ts).
 * A page, a count or a facet matrix is then a walk over typed
 * arrays in memory, however broad the search: no query touches every match,
 * counts stay exact at any size, and a page's products come from the same
 * reading as their order, with no round trip to the database.
 *
 * It answers exactly what the SQL queries in sql-search.server.ts answer (a test
 * compares them on both engines): the same words match (it indexes the very
 * lexemes PostgreSQL stored, and a search's English stem comes from
 * PostgreSQL), and the same orders, each ending on the id.
 */

export type {
  IndexedProductRow,
  IndexedSearch,
  IndexedWord,
  IndexParts,
  IndexTerm,
  SortKey,
} from "./index-types";

interface Choice {
  brandSet: Set<number> | null;
  categorySet: Set<number> | null;
  cap: number | null;
}

export class CatalogIndex {
  /** The catalogue revision it was read at (catalog_revisions). */
  readonly revision: number;
  readonly size: number;
  private readonly ids: Int32Array;
  private readonly priceMinor: Float64Array;
  private readonly ratingTenths: Uint8Array;
  private readonly createdMicros: Float64Array;
  /** Positions by id, to find a product that changed. */
  private readonly byId: Uint32Array;
  private readonly brands: Uint16Array;
  private readonly categories: Uint16Array;
  private readonly brandValues: string[];
  private readonly categoryValues: string[];
  /** One bit per position, set when the product is in stock, and how many are. */
  private readonly inStock: Uint32Array;
  private readonly inStockCount: number;
  private readonly searches: SearchMatches;
  /** Its products' live variants by option value, and those a choice of values keeps, kept for the next asks. */
  private readonly options: OptionIndex;
  private readonly chosenVariants: ChosenVariants;
  private readonly cards: CardShelf;
  private readonly orders: IndexOrders;
  /**
   * Each brand × category's first position (and, after the last, the size):
   * its products are the positions up to the next one's, cheapest first.
   */
  private readonly cellStarts: Uint32Array;
  /** Each brand × category's prices in cents, in position order (sorted): a price cap is a binary search. */
  private readonly cellPrices: Float64Array[];
  /** Scratch bit sets for a search's matches the filters keep: a page needs two at most (two relevance tiers). */
  private readonly keptBits: [Uint32Array, Uint32Array];

  constructor(parts: IndexParts) {
    this.revision = parts.revision;
    this.size = parts.ids.length;
    this.ids = parts.ids;
    this.priceMinor = parts.priceMinor;
    this.ratingTenths = parts.ratingTenths;
    this.createdMicros = parts.createdMicros;
    this.brands = parts.brands;
    this.categories = parts.categories;
    this.brandValues = parts.brandValues;
    this.categoryValues = parts.categoryValues;
    this.inStock = parts.inStock;
    this.inStockCount = countBits(parts.inStock);
    this.searches = new SearchMatches(
      new Postings(parts.postings, this.size),
      new Postings(parts.namePostings, this.size),
      (id) => this.positionOf(id),
    );
    this.options = parts.options;
    this.chosenVariants = new ChosenVariants((choices) =>
      this.options.matching(chosenOptions(choices) ?? new Map(), this.size),
    );
    this.cards = parts.cards;
    const { priceMinor } = parts;
    this.orders = parts.orders;
    this.byId = this.orders.byId;
    // Positions come by brand × category, then price (CatalogIndexBuilder.build).
    const cellCount = this.brandValues.length * this.categoryValues.length;
    this.cellStarts = new Uint32Array(cellCount + 1);
    for (let position = 0, cell = 0; cell < cellCount; cell++) {
      while (position < this.size && this.cellOf(position) === cell) position++;
      this.cellStarts[cell + 1] = position;
    }
    this.cellPrices = Array.from({ length: cellCount }, (_, cell) =>
      priceMinor.subarray(this.cellStarts[cell], this.cellStarts[cell + 1]),
    );
    this.keptBits = [new Uint32Array(Math.ceil(this.size / 32)), new Uint32Array(Math.ceil(this.size / 32))];
  }

  /** Memory the index holds, in bytes (typed arrays and a rough cost per lexeme). */
  get bytes(): number {
    const arrays = [
      this.ids,
      this.priceMinor,
      this.ratingTenths,
      this.createdMicros,
      this.byId,
      this.brands,
      this.categories,
      this.cellStarts,
      this.inStock,
      ...this.keptBits,
    ];
    return (
      arrays.reduce((sum, array) => sum + array.byteLength, 0) +
      this.orders.bytes +
      this.searches.bytes(this.size) +
      this.options.bytes +
      this.chosenVariants.bytes(this.size) +
      this.cards.bytes
    );
  }

  get lexemeCount(): number {
    return this.searches.postings.lexemes.length;
  }

  private cellOf(position: number): number {
    return (
      (this.brands[position] as number) * this.categoryValues.length + (this.categories[position] as number)
    );
  }

  /**
   * The products of one page, in the query's order (sql-search's
   * `ordering`): a search without a sort lists the products whose name
   * matches every word first, then the others, each best rated first.
   * `removed`: positions not to show (changed since the index was read).
   */
  page(
    query: CatalogQuery,
    search: IndexedSearch | null | undefined,
    removed: Removal | null = null,
  ): Product[] {
    return this.pagePositions(query, search, removed).map((position) => this.cards.at(position));
  }

  /** The first `count` positions of a listing in its order, none of `removed`: to merge with changed products. */
  firstPositions(
    query: CatalogQuery,
    search: IndexedSearch | null | undefined,
    removed: Removal | null,
    count: number,
  ): number[] {
    return this.pagePositions({ ...query, page: 1, size: count }, search, removed);
  }

  /** A product's card, by position. */
  card(position: number): Product {
    return this.cards.at(position);
  }

  /** What orders a position in every sort. */
  sortKey(position: number): SortKey {
    return {
      id: this.ids[position] as number,
      priceMinor: this.priceMinor[position] as number,
      ratingTenths: this.ratingTenths[position] as number,
      createdMicros: this.createdMicros[position] as number,
    };
  }

  /** The position of the product with this id, or -1. */
  positionOf(id: number): number {
    let [low, high] = [0, this.size];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.ids[this.byId[middle] as number] as number) < id) low = middle + 1;
      else high = middle;
    }
    const position = this.byId[low];
    return position !== undefined && this.ids[position] === id ? position : -1;
  }

  /** These positions, as a removal for `page` and `facetMatrix`. */
  removal(positions: Iterable<number>): Removal {
    const bits = new Uint32Array(Math.ceil(this.size / 32));
    for (const position of positions) setBit(bits, position);
    const sorted = Uint32Array.from(positions).sort();
    return { bits, positions: sorted };
  }

  /** Whether a matching position has every word in its name: a search's first tier. */
  inNameOf(search: IndexedSearch): (position: number) => boolean {
    const tiers = this.searches.tiersOf(this.searches.of(search), search);
    return (position) => has(tiers.inName.all, position);
  }

  private pagePositions(
    query: CatalogQuery,
    search: IndexedSearch | null | undefined,
    removed: Removal | null,
  ): number[] {
    const offset = (query.page - 1) * query.size;
    if (search === null) return [];
    const choice = this.choiceOf(query);
    const keep = this.filterFor(choice, removed);
    const order = this.orders.order(query.sort, query.range);
    const inStockOnly = query.inStock === true;
    const chosen = query.option?.length ? this.chosenVariants.of(query.option) : null;
    if (search === undefined && !inStockOnly && !chosen) {
      if (keep === null) return this.orders.slice(order, offset, query.size);
      if (removed && !this.filters(choice))
        return this.orders.sliceWithout(order, offset, query.size, removed);
      return this.orders.pageOf(this.chosenCells(choice, removed), keep, order, offset, query.size);
    }
    // Without a search, the products with the chosen option values, or else those in stock, are the matches.
    const searched = search === undefined ? null : this.searches.of(search);
    const matches = searched ?? chosen ?? this.inStockMatches();
    // Past the last match there is nothing to look for (a deep page costs nothing).
    if (offset >= matches.count) return [];
    // The matches the filters keep, counted exactly: the page is then walked or gathered, whichever costs less.
    const cells = keep && this.chosenCells(choice, null);
    const andInStock = inStockOnly && (searched !== null || chosen !== null);
    const andChosen = searched && chosen ? chosen.all : null;
    const kept = (candidates: BitCandidates, scratch: 0 | 1) =>
      cells || andInStock || andChosen
        ? this.keptOf(candidates, cells, this.keptBits[scratch], removed, { andInStock, andChosen })
        : candidates;
    if (query.sort || !searched || !search)
      return this.orders.pageOf(kept(matches, 0), null, order, offset, query.size);
    const tiers = this.searches.tiersOf(searched, search);
    const inName = kept(tiers.inName, 0);
    const first = this.orders.pageOf(inName, null, order, offset, query.size);
    if (first.length === query.size) return first;
    // A short first page used up the names: the rest follow them.
    const rest = this.orders.pageOf(
      kept(tiers.elsewhere, 1),
      null,
      order,
      Math.max(0, offset - inName.count),
      query.size - first.length,
    );
    return [...first, ...rest];
  }

  /**
   * The products matching a search and a price cap, counted by brand and
   * category (catalog.server's readFacetMatrix): binary searches in each
   * cell's prices without a search, one pass over the matches with one.
   */
  facetMatrix(
    filters: Pick<CatalogFilters, "range" | "inStock" | "option">,
    search: IndexedSearch | null | undefined,
    removed: Removal | null = null,
  ): FacetCell[] {
    const cap = filters.range === undefined ? Number.POSITIVE_INFINITY : priceCapOf(filters.range);
    if (search === null) return [];
    const matched = this.matchedBits(filters, search, { withChosen: true });
    const counts = matched
      ? this.tally(matched, cap)
      : this.cellPrices.map((prices) => countAtMost(prices, cap));
    // A removed position counted above is taken out again: one step each.
    for (const position of removed?.positions ?? []) {
      if ((this.priceMinor[position] as number) > cap || (matched && !has(matched, position))) continue;
      const cell = this.cellOf(position);
      counts[cell] = (counts[cell] as number) - 1;
    }
    const cells: FacetCell[] = [];
    counts.forEach((count, cell) => {
      if (count === 0) return;
      const bandName = this.brandValues[Math.floor(cell / this.categoryValues.length)] as string;
      const category = this.categoryValues[cell % this.categoryValues.length] as string;
      cells.push({ bandName, category, count });
    });
    return cells;
  }

  /**
   * How many products the filters and the search keep count towards each
   * option value (by pairKey; valuesCounted in option-choices.ts says which).
   */
  optionCounts(
    filters: CatalogFilters,
    search: IndexedSearch | null | undefined,
    removed: Removal | null = null,
  ): Map<string, number> {
    if (search === null) return new Map();
    const matched = this.matchedBits(filters, search, { withChosen: false });
    const { brandSet, categorySet, cap } = this.choiceOf(filters);
    const chosen = chosenOptions(filters.option);
    const counts = this.options.newCounts();
    const inStock = filters.inStock ? this.inStock : null;
    this.cellPrices.forEach((prices, cell) => {
      const brand = Math.floor(cell / this.categoryValues.length);
      if (brandSet && !brandSet.has(brand)) return;
      if (categorySet && !categorySet.has(cell % this.categoryValues.length)) return;
      const from = this.cellStarts[cell] as number;
      const to = from + countAtMost(prices, cap ?? Number.POSITIVE_INFINITY);
      // Without a search or a chosen value, a whole cell's counts are made once per index, less
      // the products changed since; anything else walks the cell's products with options.
      if (search === undefined && !chosen && to === this.cellStarts[cell + 1]) {
        this.options.addCell(counts, cell, this.cellStarts, inStock);
        for (const position of removed?.positions ?? []) {
          if (position >= from && position < to && (!inStock || has(inStock, position)))
            this.options.addPosition(counts, position, -1);
        }
      } else this.options.addRange(counts, { from, to }, matched, removed?.bits ?? null, chosen);
    });
    return this.options.byKey(counts);
  }

  /** A search's matches, in stock only and with the chosen option values when asked; null for every product. */
  private matchedBits(
    filters: Pick<CatalogFilters, "inStock" | "option">,
    search: IndexedSearch | undefined,
    { withChosen }: { withChosen: boolean },
  ): Uint32Array | null {
    const searched = search === undefined ? null : this.searches.of(search).all;
    const chosen = withChosen && filters.option?.length ? this.chosenVariants.of(filters.option).all : null;
    let matched = searched && chosen ? andBits(searched, chosen) : (searched ?? chosen);
    if (filters.inStock) matched = matched ? andBits(matched, this.inStock) : this.inStock;
    return matched;
  }

  /**
   * The runs of positions the filters choose: each chosen brand × category's
   * products under the price cap; counted without those removed.
   */
  private chosenCells({ brandSet, categorySet, cap }: Choice, removed: Removal | null): CellCandidates {
    const runs: CellCandidates["runs"] = [];
    let count = 0;
    this.cellPrices.forEach((prices, cell) => {
      const brand = Math.floor(cell / this.categoryValues.length);
      const category = cell % this.categoryValues.length;
      if ((brandSet && !brandSet.has(brand)) || (categorySet && !categorySet.has(category))) return;
      const from = this.cellStarts[cell] as number;
      const upTo = countAtMost(prices, cap ?? Number.POSITIVE_INFINITY);
      if (upTo > 0) runs.push({ from, to: from + upTo });
      count += upTo;
    });
    for (const position of removed?.positions ?? []) {
      if (runs.some(({ from, to }) => position >= from && position < to)) count--;
    }
    return { runs, count, removed };
  }

  /**
   * The candidates within the chosen runs (all, without runs), in stock when
   * asked, none removed, as bits written into `into`, with their number.
   */
  private keptOf(
    candidates: BitCandidates,
    cells: CellCandidates | null,
    into: Uint32Array,
    removed: Removal | null,
    { andInStock, andChosen }: { andInStock: boolean; andChosen: Uint32Array | null },
  ): BitCandidates {
    into.fill(0);
    let count = 0;
    if (cells) for (const { from, to } of cells.runs) count += copyBits(candidates.all, into, from, to);
    else into.set(candidates.all);
    for (const also of [andInStock ? this.inStock : null, andChosen]) {
      if (!also) continue;
      for (let block = 0; block < into.length; block++) {
        into[block] = (into[block] as number) & (also[block] as number);
      }
    }
    if (andInStock || andChosen || !cells) count = countBits(into);
    for (const position of removed?.positions ?? []) {
      if (!has(into, position)) continue;
      into[position >>> 5] = (into[position >>> 5] as number) & ~(1 << (position & 31));
      count--;
    }
    return { bits: true, all: into, count };
  }

  /** The products in stock, as a page's candidates. */
  private inStockMatches(): BitCandidates {
    return { bits: true, all: this.inStock, count: this.inStockCount };
  }

  /** Whether any of the brand, category and price filters is chosen. */
  private filters({ brandSet, categorySet, cap }: Choice): boolean {
    return brandSet !== null || categorySet !== null || cap !== null;
  }

  /** The brands and categories chosen (as the index numbers them), and the price cap in cents. */
  private choiceOf(filters: CatalogFilters): Choice {
    return {
      brandSet: filters.band ? numbersOf(this.brandValues, filters.band) : null,
      categorySet: filters.category ? numbersOf(this.categoryValues, filters.category) : null,
      cap: filters.range === undefined ? null : priceCapOf(filters.range),
    };
  }

  private filterFor({ brandSet, categorySet, cap }: Choice, removed: Removal | null): Filter {
    if (!brandSet && !categorySet && cap === null && !removed) return null;
    return (position) =>
      (!removed || !has(removed.bits, position)) &&
      (!brandSet || brandSet.has(this.brands[position] as number)) &&
      (!categorySet || categorySet.has(this.categories[position] as number)) &&
      (cap === null || (this.priceMinor[position] as number) <= cap);
  }

  /** Each brand × category's count of matched products at most `cap` cents: the bits set in the start of its run. */
  private tally(bits: Uint32Array, cap: number): number[] {
    return this.cellPrices.map((prices, cell) => {
      const from = this.cellStarts[cell] as number;
      return countBitsBetween(bits, from, from + countAtMost(prices, cap));
    });
  }
}

/** The positions in both bit sets, as a new one. */
function andBits(a: Uint32Array, b: Uint32Array): Uint32Array {
  const both = new Uint32Array(a.length);
  for (let block = 0; block < both.length; block++) both[block] = (a[block] as number) & (b[block] as number);
  return both;
}
