/**
 * The catalogue's vocabulary: brands, categories, sorts and limits. Plain
 * constants with no dependency, so the browser can import them without
 * pulling in zod. The API keeps the specification's words (`band`,
 * `bandName`); the UI says "brand" and maps it here, once.
 */

export const BRANDS = [
  { value: "teachPro", label: "TeachPro" },
  { value: "cycleFit", label: "CycleFit" },
  { value: "blendMaster", label: "BlendMaster" },
  { value: "artistry", label: "Artistry" },
  { value: "campSafe", label: "CampSafe" },
] as const;

export const CATEGORIES = [
  { value: "electronics", label: "Electronics" },
  { value: "fitness", label: "Fitness" },
  { value: "home appliances", label: "Home appliances" },
  { value: "home goods", label: "Home goods" },
  { value: "outdoor", label: "Outdoor" },
] as const;

export const SORTS = [
  { value: "dsc", label: "High to Low" },
  { value: "asc", label: "Low to High" },
  { value: "date-added", label: "Date Added" },
] as const;

export type BrandValue = (typeof BRANDS)[number]["value"];
export type CategoryValue = (typeof CATEGORIES)[number]["value"];
export type SortValue = (typeof SORTS)[number]["value"];

export const SORT_VALUES = SORTS.map((sort) => sort.value) as [SortValue, ...SortValue[]];

export function brandLabel(value: string): string {
  return BRANDS.find((brand) => brand.value === value)?.label ?? value;
}

export function categoryLabel(value: string): string {
  return CATEGORIES.find((category) => category.value === value)?.label ?? value;
}

export const PAGE_SIZE_DEFAULT = 5;
export const PAGE_SIZE_MAX = 100;
export const PAGE_MAX = 1_000_000;
export const SEARCH_MAX_LENGTH = 100;
export const PRICE_RANGE = { min: 5, max: 200, step: 5 } as const;
