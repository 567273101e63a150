import type { CatalogFilters, CatalogQuery, FacetCell, Product } from "../core/catalog-schema";
import { chosenOptions, productChosen, type VariantValues, valuesCounted } from "../core/option-choices";
import { productOfCard } from "./card-shelf";
import type { CatalogIndex } from "./catalog-index.server";
import type { Removal } from "./index-orders";
import type {
  IndexedProductRow,
  IndexedSearch,
  IndexedWord,
  IndexTerm,
  SortKey,
  VariantRows,
} from "./index-types";
import { priceCapOf } from "./price-cap.server";

/**
 * The index as the catalogue is now: the index read from the database, less
 * the products that changed or went since, plus the changed products as they
 * are now (docs/decisions/0026). One changed price costs the process one
 * product read, not the catalogue; a page merges the few changed products that
 * match into the index's own page, in the same order the SQL gives. Past
 * MAX_CHANGES products the index is read again in the background.
 */

/** A product changed since the index was read, as it is now. */
interface ChangedProduct {
  key: SortKey;
  bandName: string;
  category: string;
  /** Its search vector's lexemes, and those of its name, in code-unit order. */
  lexemes: string[];
  nameLexemes: string[];
  inStock: boolean;
  variants: VariantValues[] | null;
  card: Product;
}

function changedProduct(row: IndexedProductRow): ChangedProduct {
  return {
    key: {
      id: row.id,
      priceMinor: row.priceMinor,
      ratingTenths: row.ratingTenths,
      createdMicros: row.createdMicros,
    },
    bandName: row.bandName,
    category: row.category,
    lexemes: [...row.lexemes].sort(),
    nameLexemes: [...row.nameLexemes].sort(),
    inStock: row.inStock,
    variants: row.variants && variantValuesOf(row.variants),
    card: productOfCard(row.card),
  };
}

/** Each variant's values by option name, as option-choices.ts reads them. */
function variantValuesOf({ names, values }: VariantRows): VariantValues[] {
  return values.map((row) =>
    Object.fromEntries(names.flatMap((name, at) => (row[at] === undefined ? [] : [[name, row[at]]]))),
  );
}

/** Whether sorted lexemes carry a term: the lexeme itself, or (a prefix term) any lexeme it starts. */
function carries(lexemes: readonly string[], { lexeme, prefix }: IndexTerm): boolean {
  let [low, high] = [0, lexemes.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((lexemes[middle] as string) < lexeme) low = middle + 1;
    else high = middle;
  }
  const found = lexemes[low];
  return found !== undefined && (prefix ? found.startsWith(lexeme) : found === lexeme);
}

/** Every word has a term the lexemes carry: a search's match, as the index and the SQL define it. */
const carriesEvery = (lexemes: readonly string[], words: IndexedWord[]) =>
  words.every((word) => word.anyOf.some((term) => carries(lexemes, term)));

/** A search's match: every word carried, or a live variant's SKU the whole search (search-matches.ts). */
const matches = (product: ChangedProduct, lexemes: readonly string[], search: IndexedSearch) =>
  search.skuProducts.includes(product.key.id) || carriesEvery(lexemes, search.words);

/** A page's entry while merging: a product of the index (by position) or a changed one. */
interface Entry {
  key: SortKey;
  /** Whether every word is in its name (a search without a sort lists those first). */
  inName: boolean;
  card: () => Product;
}

/** The order of a page, as sql-search's `ordering` writes it: every order ends on the id. */
function comparator(query: CatalogQuery, bySearch: boolean): (a: Entry, b: Entry) => number {
  const bestRated = (a: SortKey, b: SortKey) =>
    b.ratingTenths - a.ratingTenths || b.createdMicros - a.createdMicros || a.id - b.id;
  switch (query.sort) {
    case "asc":
      return (a, b) => a.key.priceMinor - b.key.priceMinor || a.key.id - b.key.id;
    case "dsc":
      return (a, b) => b.key.priceMinor - a.key.priceMinor || b.key.id - a.key.id;
    case "date-added":
      return (a, b) => b.key.createdMicros - a.key.createdMicros || b.key.id - a.key.id;
    case "rating":
      return (a, b) => bestRated(a.key, b.key);
    default:
      return bySearch
        ? (a, b) => Number(b.inName) - Number(a.inName) || bestRated(a.key, b.key)
        : (a, b) => bestRated(a.key, b.key);
  }
}

/** Products changed since the index was read, at most this many; past it the index is read again. */
export const MAX_CHANGES = 2000;

export class LiveIndex {
  private constructor(
    readonly base: CatalogIndex,
    /** The catalogue revision this state is of. */
    readonly revision: number,
    private readonly removed: Removal | null,
    private readonly changed: ReadonlyMap<number, ChangedProduct>,
  ) {}

  /** The index as read, nothing changed since. */
  static of(base: CatalogIndex): LiveIndex {
    return new LiveIndex(base, base.revision, null, new Map());
  }

  /** How many products changed since the index was read. */
  get changeCount(): number {
    return this.changed.size;
  }

  get size(): number {
    return this.base.size - (this.removed?.positions.length ?? 0) + this.changed.size;
  }

  get bytes(): number {
    return this.base.bytes + this.changed.size * 2048;
  }

  get lexemeCount(): number {
    return this.base.lexemeCount;
  }

  /**
   * The catalogue at `revision`: the products `ids` changed (or went), and
   * `rows` are those of them that still exist, as they are now.
   */
  with(ids: Iterable<number>, rows: readonly IndexedProductRow[], revision: number): LiveIndex {
    const removed = new Set(this.removed?.positions ?? []);
    const changed = new Map(this.changed);
    for (const id of ids) {
      const position = this.base.positionOf(id);
      if (position >= 0) removed.add(position);
      changed.delete(id);
    }
    for (const row of rows) changed.set(row.id, changedProduct(row));
    return new LiveIndex(this.base, revision, removed.size > 0 ? this.base.removal(removed) : null, changed);
  }

  /** One page, as CatalogIndex#page, the changed products in their places. */
  page(query: CatalogQuery, search: IndexedSearch | null | undefined): Product[] {
    if (search === null) return [];
    const mine = this.changedMatching(query, search, query.range);
    if (mine.length === 0) return this.base.page(query, search, this.removed);
    const offset = (query.page - 1) * query.size;
    const bySearch = search !== undefined && !query.sort;
    const inName = bySearch && search ? this.base.inNameOf(search) : () => false;
    const entries: Entry[] = [
      ...this.base.firstPositions(query, search, this.removed, offset + query.size).map((position) => ({
        key: this.base.sortKey(position),
        inName: inName(position),
        card: () => this.base.card(position),
      })),
      ...mine.map((product) => ({
        key: product.key,
        inName: bySearch && search ? matches(product, product.nameLexemes, search) : false,
        card: () => product.card,
      })),
    ];
    return entries
      .sort(comparator(query, bySearch))
      .slice(offset, offset + query.size)
      .map((entry) => entry.card());
  }

  /** The matching products by brand × category under a price cap, as CatalogIndex#facetMatrix, the changed ones counted as they are now. */
  facetMatrix(
    filters: Pick<CatalogFilters, "range" | "inStock" | "option">,
    search: IndexedSearch | null | undefined,
  ): FacetCell[] {
    const cells = this.base.facetMatrix(filters, search, this.removed);
    if (search === null || this.changed.size === 0) return cells;
    const counts = new Map(cells.map((cell) => [`${cell.bandName}\n${cell.category}`, cell]));
    const { inStock, option } = filters;
    for (const product of this.changedMatching({ inStock, option }, search, filters.range)) {
      const key = `${product.bandName}\n${product.category}`;
      const cell = counts.get(key) ?? { bandName: product.bandName, category: product.category, count: 0 };
      counts.set(key, { ...cell, count: cell.count + 1 });
    }
    return [...counts.values()];
  }

  /** How many products count towards each option value, as CatalogIndex#optionCounts, the changed ones as they are now. */
  optionCounts(filters: CatalogFilters, search: IndexedSearch | null | undefined): Map<string, number> {
    const counts = this.base.optionCounts(filters, search, this.removed);
    if (search === null || this.changed.size === 0) return counts;
    const chosen = chosenOptions(filters.option);
    for (const product of this.changedMatching({ ...filters, option: undefined }, search, filters.range)) {
      for (const key of valuesCounted(product.variants ?? [], chosen))
        counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }

  /** The changed products a listing's filters and search keep. */
  private changedMatching(
    filters: Pick<CatalogFilters, "band" | "category" | "inStock" | "option">,
    search: IndexedSearch | undefined,
    range: number | undefined,
  ): ChangedProduct[] {
    const cap = range === undefined ? Number.POSITIVE_INFINITY : priceCapOf(range);
    const chosen = chosenOptions(filters.option);
    return [...this.changed.values()].filter(
      (product) =>
        product.key.priceMinor <= cap &&
        (!filters.band || filters.band.includes(product.bandName)) &&
        (!filters.category || filters.category.includes(product.category)) &&
        (!filters.inStock || product.inStock) &&
        (!chosen || productChosen(product.variants ?? [], chosen)) &&
        (!search || matches(product, product.lexemes, search)),
    );
  }
}
