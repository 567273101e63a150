/**
 * The demo catalogue's brands and categories: each a value (as stored and as
 * the API's `band` and `category` take it) and a label (as shoppers read it).
 * They are the catalogue's data, owned here with the rest of the demo data;
 * the catalogue feature reads them from here (catalog-vocabulary.ts). Plain
 * constants with no dependency, so the browser can load them.
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
