import type { CatalogFilters, CatalogQuery, FacetCell, Product } from "../core/catalog-schema";
import {
  copyBits,
  countAtMost,
  countBits,
  countBitsBetween,
  forEachBit,
  has,
  numbersOf,
  setBit,
  stepsOf,
} from "./bits";
import type { CardShelf } from "./card-shelf";
import { type PostingList, Postings } from "./postings";

/**
 * The catalogue's search index: what a hosted search engine keeps beside the
 * database, kept in the shop's own memory instead (docs/decisions/0021).
 *
 * PostgreSQL stays the only store. The index holds, for every product, what
 * choosing and ordering need — brand, category, price in cents, rating and
 * date added, and its place in each order — and its card (the product as the
 * API writes it, as UTF-8 outside the JS heap); and, for every lexeme of the
 * stored search vectors, the products that carry it (and those that carry it
 * in their name). A page, a count or a facet matrix is then a walk over typed
 * arrays in memory, however broad the search: no query touches every match,
 * counts stay exact at any size, and a page's products come from the same
 * reading as their order, with no round trip to the database.
 *
 * It answers exactly what the SQL queries in sql-search.server.ts answer (a test
 * compares them on both engines): the same words match (it indexes the very
 * lexemes PostgreSQL stored, and a search's English stem comes from
 * PostgreSQL), and the same orders, each ending on the id.
 */

/** A word of a search as the index matches it: a lexeme as written or as its start. */
export interface IndexTerm {
  lexeme: string;
  prefix: boolean;
}

/** One word of a search: a product matches when it carries any of its terms (as typed, its English stem, its alike words). */
export interface IndexedWord {
  anyOf: IndexTerm[];
}

/** One product as the index reads it (in any order). */
export interface IndexedProductRow {
  /** The product as the API and the shop page show it. */
  product: Product;
  /** Whole cents (a float: numeric(10,2) reaches past 32 bits). */
  priceCents: number;
  /** Ten times the rating (4.5 → 45). */
  ratingTenths: number;
  /** Microseconds since 1970: PostgreSQL's own precision, so ties order as they do there. */
  createdMicros: number;
  /** Every lexeme of its search vector. */
  lexemes: string[];
  /** The lexemes that come from its name (weight A). */
  nameLexemes: string[];
}

export interface IndexParts {
  revision: number;
  ids: Int32Array;
  priceCents: Float64Array;
  ratingTenths: Uint8Array;
  createdMicros: Float64Array;
  brands: Uint16Array;
  categories: Uint16Array;
  brandValues: string[];
  categoryValues: string[];
  postings: Map<string, PostingList>;
  namePostings: Map<string, PostingList>;
  cards: CardShelf;
}

/** A predicate on positions for the brand, category and price filters; null when they filter nothing. */
type Filter = ((position: number) => boolean) | null;

interface Choice {
  brandSet: Set<number> | null;
  categorySet: Set<number> | null;
  cap: number | null;
}

export class CatalogIndex {
  /** The catalogue revision it was read at (catalog_revisions). */
  readonly revision: number;
  readonly size: number;
  private readonly priceCents: Float64Array;
  private readonly brands: Uint16Array;
  private readonly categories: Uint16Array;
  private readonly brandValues: string[];
  private readonly categoryValues: string[];
  private readonly postings: Postings;
  private readonly namePostings: Postings;
  private readonly cards: CardShelf;
  /** Positions in the shop's order: best rated first, then newest, then by id. */
  private readonly byRating: Uint32Array;
  /** Positions by price, cheapest first, then by id. */
  private readonly byPrice: Uint32Array;
  /** Positions by date added, newest first, then by id, highest first. */
  private readonly byDate: Uint32Array;
  /** Each position's step in byRating, byPrice and byDate: few candidates are paged by sorting theirs. */
  private readonly ratingSteps: Uint32Array;
  private readonly priceSteps: Uint32Array;
  private readonly dateSteps: Uint32Array;
  /**
   * Each brand × category's first position (and, after the last, the size):
   * its products are the positions up to the next one's, cheapest first.
   */
  private readonly cellStarts: Uint32Array;
  /** Each brand × category's prices in cents, in position order (sorted): a price cap is a binary search. */
  private readonly cellPrices: Float64Array[];
  /** Scratch bit sets for a search's matches the filters keep: a page needs two at most (two relevance tiers). */
  private readonly keptBits: [Uint32Array, Uint32Array];
  /**
   * The last searches' matches, one bit per product: a page and its count ask
   * for the same search one after the other. Bounded: MATCHES_KEPT searches,
   * each three bits per product at most (all, and split by relevance).
   */
  private readonly recentMatches = new Map<string, Matches>();

  constructor(parts: IndexParts) {
    this.revision = parts.revision;
    this.size = parts.ids.length;
    this.priceCents = parts.priceCents;
    this.brands = parts.brands;
    this.categories = parts.categories;
    this.brandValues = parts.brandValues;
    this.categoryValues = parts.categoryValues;
    this.postings = new Postings(parts.postings);
    this.namePostings = new Postings(parts.namePostings);
    this.cards = parts.cards;
    const { ids, priceCents, ratingTenths, createdMicros } = parts;
    const positions = () => Uint32Array.from({ length: this.size }, (_, position) => position);
    this.byRating = positions().sort(
      (a, b) =>
        (ratingTenths[b] as number) - (ratingTenths[a] as number) ||
        (createdMicros[b] as number) - (createdMicros[a] as number) ||
        (ids[a] as number) - (ids[b] as number),
    );
    this.byPrice = positions().sort(
      (a, b) =>
        (priceCents[a] as number) - (priceCents[b] as number) || (ids[a] as number) - (ids[b] as number),
    );
    this.byDate = positions().sort(
      (a, b) =>
        (createdMicros[b] as number) - (createdMicros[a] as number) ||
        (ids[b] as number) - (ids[a] as number),
    );
    this.ratingSteps = stepsOf(this.byRating);
    this.priceSteps = stepsOf(this.byPrice);
    this.dateSteps = stepsOf(this.byDate);
    // Positions come by brand × category, then price (CatalogIndexBuilder.build).
    const cellCount = this.brandValues.length * this.categoryValues.length;
    this.cellStarts = new Uint32Array(cellCount + 1);
    for (let position = 0, cell = 0; cell < cellCount; cell++) {
      while (position < this.size && this.cellOf(position) === cell) position++;
      this.cellStarts[cell + 1] = position;
    }
    this.cellPrices = Array.from({ length: cellCount }, (_, cell) =>
      priceCents.subarray(this.cellStarts[cell], this.cellStarts[cell + 1]),
    );
    this.keptBits = [new Uint32Array(Math.ceil(this.size / 32)), new Uint32Array(Math.ceil(this.size / 32))];
  }

  /** Memory the index holds, in bytes (typed arrays and a rough cost per lexeme). */
  get bytes(): number {
    const arrays = [
      this.priceCents,
      this.brands,
      this.categories,
      this.byRating,
      this.byPrice,
      this.byDate,
      this.ratingSteps,
      this.priceSteps,
      this.dateSteps,
      this.cellStarts,
      ...this.keptBits,
    ];
    return (
      arrays.reduce((sum, array) => sum + array.byteLength, 0) +
      MATCHES_KEPT * Math.ceil(this.size / 32) * 12 +
      this.postings.bytes +
      this.namePostings.bytes +
      this.cards.bytes
    );
  }

  get lexemeCount(): number {
    return this.postings.lexemes.length;
  }

  private cellOf(position: number): number {
    return (
      (this.brands[position] as number) * this.categoryValues.length + (this.categories[position] as number)
    );
  }

  /**
   * The ids of one page, in the query's order (catalog.server's `ordering`):
   * a search without a sort lists the products whose name matches every
   * word first, then the others, each best rated first.
   */
  page(query: CatalogQuery, words: IndexedWord[] | null | undefined): Product[] {
    return this.pagePositions(query, words).map((position) => this.cards.at(position));
  }

  private pagePositions(query: CatalogQuery, words: IndexedWord[] | null | undefined): number[] {
    const offset = (query.page - 1) * query.size;
    if (words === null) return [];
    const choice = this.choiceOf(query);
    const keep = this.filterFor(choice);
    const order = this.order(query.sort, query.range);
    if (words === undefined) {
      if (keep === null) return this.slice(order, offset, query.size);
      return this.pageOf(this.chosenCells(choice), keep, order, offset, query.size);
    }
    const matches = this.matches(words);
    // Past the last match there is nothing to look for (a deep page costs nothing).
    if (offset >= matches.count) return [];
    // The matches the filters keep, counted exactly: the page is then walked or gathered, whichever costs less.
    const cells = keep && this.chosenCells(choice);
    const kept = (candidates: BitCandidates, scratch: 0 | 1) =>
      cells ? this.keptOf(candidates, cells, this.keptBits[scratch]) : candidates;
    if (query.sort) return this.pageOf(kept(matches, 0), null, order, offset, query.size);
    const tiers = this.relevanceTiers(matches, words);
    const inName = kept(tiers.inName, 0);
    const first = this.pageOf(inName, null, order, offset, query.size);
    if (first.length === query.size) return first;
    // A short first page used up the names: the rest follow them.
    const rest = this.pageOf(
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
  facetMatrix(filters: Pick<CatalogFilters, "range">, words: IndexedWord[] | null | undefined): FacetCell[] {
    const cap = filters.range === undefined ? Number.POSITIVE_INFINITY : Math.round(filters.range * 100);
    if (words === null) return [];
    const counts =
      words === undefined
        ? this.cellPrices.map((prices) => countAtMost(prices, cap))
        : this.tally(this.matches(words).all, cap);
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
   * An order to page through, and the steps of it that can hold a product
   * under the price cap: in price order, those that cost more are skipped.
   */
  private order(sort: CatalogQuery["sort"], range: number | undefined): Order {
    const whole = { from: 0, to: this.size };
    switch (sort) {
      case "asc":
      case "dsc": {
        const priced = { positions: this.byPrice, steps: this.priceSteps };
        const cap = range === undefined ? this.size : this.countPricedAtMost(Math.round(range * 100));
        // Price high to low, then id high to low: exactly the reverse of "asc".
        return sort === "asc"
          ? { ...priced, reversed: false, from: 0, to: cap }
          : { ...priced, reversed: true, from: this.size - cap, to: this.size };
      }
      case "date-added":
        return { positions: this.byDate, steps: this.dateSteps, reversed: false, ...whole };
      default:
        // "rating", and no sort: the shop's order.
        return { positions: this.byRating, steps: this.ratingSteps, reversed: false, ...whole };
    }
  }

  /** How many products cost at most `cap` cents: a binary search in price order. */
  private countPricedAtMost(cap: number): number {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.priceCents[this.byPrice[middle] as number] as number) <= cap) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The position at a step of an order. */
  private at(order: Order, step: number): number {
    return order.positions[order.reversed ? this.size - 1 - step : step] as number;
  }

  /** A position's step in an order. */
  private stepOf(order: Order, position: number): number {
    const step = order.steps[position] as number;
    return order.reversed ? this.size - 1 - step : step;
  }

  /** The runs of positions the filters choose: each chosen brand × category's products under the price cap. */
  private chosenCells({ brandSet, categorySet, cap }: Choice): CellCandidates {
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
    return { runs, count };
  }

  /** The candidates within the chosen runs, as bits written into `into`, with their number. */
  private keptOf(candidates: BitCandidates, { runs }: CellCandidates, into: Uint32Array): BitCandidates {
    into.fill(0);
    let count = 0;
    for (const { from, to } of runs) count += copyBits(candidates.all, into, from, to);
    return { bits: true, all: into, count };
  }

  /** The brands and categories chosen (as the index numbers them), and the price cap in cents. */
  private choiceOf(filters: CatalogFilters): Choice {
    return {
      brandSet: filters.band ? numbersOf(this.brandValues, filters.band) : null,
      categorySet: filters.category ? numbersOf(this.categoryValues, filters.category) : null,
      cap: filters.range === undefined ? null : Math.round(filters.range * 100),
    };
  }

  private filterFor({ brandSet, categorySet, cap }: Choice): Filter {
    if (!brandSet && !categorySet && cap === null) return null;
    return (position) =>
      (!brandSet || brandSet.has(this.brands[position] as number)) &&
      (!categorySet || categorySet.has(this.categories[position] as number)) &&
      (cap === null || (this.priceCents[position] as number) <= cap);
  }

  /** Positions at `offset` and after in an order, when nothing filters. */
  private slice(order: Order, offset: number, size: number): number[] {
    const found: number[] = [];
    const end = Math.min(order.to, order.from + offset + size);
    for (let step = order.from + offset; step < end; step++) {
      found.push(this.at(order, step));
    }
    return found;
  }

  /**
   * Up to `size` positions of the candidates, in an order, after `offset` of
   * them. Walking the order costs about (offset + size) steps per share of
   * the catalogue the candidates are, so few candidates are cheaper gathered
   * and their steps sorted (a typed array's numeric sort). `keep` is the
   * filters' test, for walking runs of positions (a bit set is already kept).
   */
  private pageOf(candidates: Candidates, keep: Filter, order: Order, offset: number, size: number): number[] {
    const span = order.to - order.from;
    const walking = Math.min(span, ((offset + size) * span) / Math.max(1, candidates.count));
    const gathering = candidates.count * (1 + Math.log2(candidates.count + 1));
    if (gathering < walking) {
      const steps = this.gatherSteps(candidates, order).sort();
      return Array.from(steps.subarray(offset, offset + size), (step) => this.at(order, step));
    }
    const bits = "bits" in candidates ? candidates.all : null;
    const found: number[] = [];
    let skipped = 0;
    for (let step = order.from; step < order.to && found.length < size; step++) {
      const position = this.at(order, step);
      if (bits ? !has(bits, position) : keep && !keep(position)) continue;
      if (skipped < offset) skipped++;
      else found.push(position);
    }
    return found;
  }

  /** The steps in `order` of the candidates. */
  private gatherSteps(candidates: Candidates, order: Order): Uint32Array {
    const steps = new Uint32Array(candidates.count);
    let kept = 0;
    const add = (position: number) => {
      const step = this.stepOf(order, position);
      if (step >= order.from && step < order.to) steps[kept++] = step;
    };
    if ("bits" in candidates) forEachBit(candidates.all, add);
    else {
      for (const { from, to } of candidates.runs) {
        for (let position = from; position < to; position++) add(position);
      }
    }
    return steps.subarray(0, kept);
  }

  /** A search's matches split by relevance: every word in the name, or not. */
  private relevanceTiers(matches: Matches, words: IndexedWord[]): Matches["tiers"] & object {
    if (!matches.tiers) {
      const name = this.bitsOf(this.namePostings, words);
      const inName = new Uint32Array(matches.all.length);
      const elsewhere = new Uint32Array(matches.all.length);
      for (let block = 0; block < inName.length; block++) {
        inName[block] = (matches.all[block] as number) & (name[block] as number);
        elsewhere[block] = (matches.all[block] as number) & ~(name[block] as number);
      }
      const named = countBits(inName);
      matches.tiers = {
        inName: { bits: true, all: inName, count: named },
        elsewhere: { bits: true, all: elsewhere, count: matches.count - named },
      };
    }
    return matches.tiers;
  }

  /** Each brand × category's count of matched products at most `cap` cents: the bits set in the start of its run. */
  private tally(bits: Uint32Array, cap: number): number[] {
    return this.cellPrices.map((prices, cell) => {
      const from = this.cellStarts[cell] as number;
      return countBitsBetween(bits, from, from + countAtMost(prices, cap));
    });
  }

  /** The products matching every word of a search (and, once asked, in their names), kept for the next asks. */
  private matches(words: IndexedWord[]): Matches {
    const key = JSON.stringify(words);
    let found = this.recentMatches.get(key);
    if (found) {
      // Most recently used last: the first key is the one to let go.
      this.recentMatches.delete(key);
    } else {
      const all = this.bitsOf(this.postings, words);
      found = { bits: true, all, count: countBits(all), tiers: null };
      if (this.recentMatches.size >= MATCHES_KEPT) {
        this.recentMatches.delete(this.recentMatches.keys().next().value as string);
      }
    }
    this.recentMatches.set(key, found);
    return found;
  }

  /** One bit per product matching every word: for each word, the products carrying any of its terms. */
  private bitsOf(postings: Postings, words: IndexedWord[]): Uint32Array {
    const blocks = Math.ceil(this.size / 32);
    const all = new Uint32Array(blocks);
    words.forEach((word, index) => {
      const carrying = index === 0 ? all : new Uint32Array(blocks);
      for (const term of word.anyOf) {
        for (const list of postings.matching(term)) {
          if (list.bits) {
            for (let block = 0; block < blocks; block++) {
              carrying[block] = (carrying[block] as number) | (list.bits[block] as number);
            }
          } else {
            for (const position of list.positions) setBit(carrying, position);
          }
        }
      }
      if (index > 0) {
        for (let block = 0; block < blocks; block++) {
          all[block] = (all[block] as number) & (carrying[block] as number);
        }
      }
    });
    return all;
  }
}

/** Searches whose matches an index keeps (MB per search: products / 4 million at most). */
const MATCHES_KEPT = 32;

/** Candidates for a page as a bit set: a search's matches. */
interface BitCandidates {
  bits: true;
  all: Uint32Array;
  count: number;
}

/** Candidates for a page as runs of positions (brand × category cells, each up to its price cap). */
interface CellCandidates {
  runs: { from: number; to: number }[];
  count: number;
}

type Candidates = BitCandidates | CellCandidates;

interface Matches extends BitCandidates {
  /** Read when a page in order of relevance first needs them. */
  tiers: { inName: BitCandidates; elsewhere: BitCandidates } | null;
}

/** An order (its positions, and each position's step in it), between two steps. */
interface Order {
  positions: Uint32Array;
  steps: Uint32Array;
  reversed: boolean;
  from: number;
  to: number;
}
