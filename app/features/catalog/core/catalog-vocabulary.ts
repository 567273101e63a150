/**
 * The catalogue's vocabulary: sorts, limits and the shape of a facet. Plain
 * constants with no dependency, so the browser can import them without
 * pulling in zod. The API keeps the specification's words (`band`,
 * `bandName`); the UI says "brand" and maps it here, once.
 *
 * Brands and categories are data, not constants here: rows of the brands and
 * categories tables (app/db/schema.ts), read with their counts (catalog.server.ts).
 */
export const SORTS = [
  { value: "dsc", label: "High to Low" },
  { value: "asc", label: "Low to High" },
  { value: "date-added", label: "Date Added" },
  { value: "rating", label: "Top Rated" },
] as const;

export type SortValue = (typeof SORTS)[number]["value"];

export const SORT_VALUES = SORTS.map((sort) => sort.value) as [SortValue, ...SortValue[]];

/** A brand or a category as a shopper chooses it: its value, its label, and how many products it would show. */
export interface FacetChoice {
  value: string;
  label: string;
  count: number;
}

/** A value's label among a facet's choices; the value itself when the catalogue has no such row. */
export function labelOf(choices: readonly { value: string; label: string }[], value: string): string {
  return choices.find((choice) => choice.value === value)?.label ?? value;
}

/** The query parameters of a listing's filters (/counts takes these), in the shop URL's order. */
export const FILTER_PARAMETERS = ["band", "category", "option", "range", "inStock", "search"] as const;
/** Every query parameter of a listing: the filters, the order and the page (/all-products, the shop page). */
export const QUERY_PARAMETERS = [...FILTER_PARAMETERS, "sort", "page", "size"] as const;

export const PAGE_SIZE_DEFAULT = 5;
export const PAGE_SIZE_MAX = 100;
export const PAGE_MAX = 1_000_000;
export const SEARCH_MAX_LENGTH = 100;
/** `band`, `category` and `option` may each be given this many times at most. */
export const FACET_CHOICES_MAX = 20;
export const PRICE_RANGE = { min: 5, max: 200, step: 5 } as const;
