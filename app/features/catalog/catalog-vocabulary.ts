import { DEMO_BRANDS, DEMO_CATEGORIES } from "~/db/seed/demo-brands-and-categories";

/**
 * The catalogue's vocabulary: brands, categories, sorts and limits. Plain
 * constants with no dependency, so the browser can import them without
 * pulling in zod. The API keeps the specification's words (`band`,
 * `bandName`); the UI says "brand" and maps it here, once.
 *
 * Brands and categories are data: the shop's are the demo catalogue's
 * (app/db/seed), which this feature reads, never the other way round.
 */
export const BRANDS = DEMO_BRANDS;
export const CATEGORIES = DEMO_CATEGORIES;

export const SORTS = [
  { value: "dsc", label: "High to Low" },
  { value: "asc", label: "Low to High" },
  { value: "date-added", label: "Date Added" },
] as const;

export type SortValue = (typeof SORTS)[number]["value"];

export const SORT_VALUES = SORTS.map((sort) => sort.value) as [SortValue, ...SortValue[]];

export function brandLabel(value: string): string {
  return BRANDS.find((brand) => brand.value === value)?.label ?? value;
}

export function categoryLabel(value: string): string {
  return CATEGORIES.find((category) => category.value === value)?.label ?? value;
}

/** The query parameters of a listing's filters (/counts takes these), in the shop URL's order. */
export const FILTER_PARAMETERS = ["band", "category", "range", "search"] as const;
/** Every query parameter of a listing: the filters, the order and the page (/all-products, the shop page). */
export const QUERY_PARAMETERS = [...FILTER_PARAMETERS, "sort", "page", "size"] as const;

export const PAGE_SIZE_DEFAULT = 5;
export const PAGE_SIZE_MAX = 100;
export const PAGE_MAX = 1_000_000;
export const SEARCH_MAX_LENGTH = 100;
export const PRICE_RANGE = { min: 5, max: 200, step: 5 } as const;
