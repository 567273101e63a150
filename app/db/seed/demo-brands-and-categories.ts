/**
 * The demo catalogue's brands and categories: each a value (as stored and as
 * the API's `band` and `category` take it) and a label (as shoppers read it).
 * They are the demo catalogue's data: the seed writes them to the brands and
 * categories tables, and the shop reads them from there like any owner's own.
 */
export const DEMO_BRANDS = [
  { value: "teachPro", label: "TeachPro" },
  { value: "cycleFit", label: "CycleFit" },
  { value: "blendMaster", label: "BlendMaster" },
  { value: "artistry", label: "Artistry" },
  { value: "campSafe", label: "CampSafe" },
] as const;

export const DEMO_CATEGORIES = [
  { value: "electronics", label: "Electronics" },
  { value: "fitness", label: "Fitness" },
  { value: "home appliances", label: "Home appliances" },
  { value: "home goods", label: "Home goods" },
  { value: "outdoor", label: "Outdoor" },
] as const;

export type DemoBrandValue = (typeof DEMO_BRANDS)[number]["value"];
export type DemoCategoryValue = (typeof DEMO_CATEGORIES)[number]["value"];

/** A demo brand's label ("blendMaster" → "BlendMaster"), for the demo's names and pictures. */
export function demoBrandLabel(value: string): string {
  return DEMO_BRANDS.find((brand) => brand.value === value)?.label ?? value;
}
