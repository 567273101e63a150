import type { CardShelf } from "./card-shelf";
import type { IndexOrders } from "./index-orders";
import type { OptionIndex } from "./option-index";
import type { PostingList } from "./postings";

/** A word of a search as the index matches it: a lexeme as written or as its start. */
export interface IndexTerm {
  lexeme: string;
  prefix: boolean;
}

/** One word of a search: a product matches when it carries any of its terms (as typed, its English stem, its alike words). */
export interface IndexedWord {
  anyOf: IndexTerm[];
}

/**
 * A search as the index matches it: a product matches when it carries every
 * word, or when one of its live variants has the whole search as its SKU
 * (typed in any case): such a product is among the best matches, as one with
 * every word in its name is.
 */
export interface IndexedSearch {
  words: IndexedWord[];
  skuProducts: readonly number[];
}

/** A product's options (names, in order) and each live variant's values, in the same order. */
export interface VariantRows {
  names: string[];
  values: string[][];
}

/** One product as the index reads it (in any order). */
export interface IndexedProductRow {
  id: number;
  bandName: string;
  category: string;
  /** The product as the API and the shop page show it: its card, as card-shelf.ts's productOfCard reads it. */
  card: string;
  /** Its price in whole minor units (kept as a float64: prices reach past 32 bits). */
  priceMinor: number;
  /** Ten times the rating (4.5 → 45). */
  ratingTenths: number;
  /** Microseconds since 1970: PostgreSQL's own precision, so ties order as they do there. */
  createdMicros: number;
  /** Every lexeme of its search vector. */
  lexemes: string[];
  /** The lexemes that come from its name (weight A). */
  nameLexemes: string[];
  /** Whether any unit is on hand: the one thing of its stock the index keeps (the "In stock only" filter). */
  inStock: boolean;
  /** Its options' names and its live variants' values in their order; null without options. */
  variants: VariantRows | null;
}

export interface IndexParts {
  revision: number;
  ids: Int32Array;
  priceMinor: Float64Array;
  ratingTenths: Uint8Array;
  createdMicros: Float64Array;
  brands: Uint16Array;
  categories: Uint16Array;
  brandValues: string[];
  categoryValues: string[];
  /** One bit per position: set when the product is in stock. */
  inStock: Uint32Array;
  postings: Map<string, PostingList>;
  namePostings: Map<string, PostingList>;
  cards: CardShelf;
  options: OptionIndex;
  /** The three orders and the order by id, made from the arrays above. */
  orders: IndexOrders;
}

/** What orders a product in every sort, and its id. */
export interface SortKey {
  id: number;
  priceMinor: number;
  ratingTenths: number;
  createdMicros: number;
}
