import type { CatalogFilters, FacetCell, ListingFacets } from "../core/catalog-schema";
import { type OptionCount, optionFacets, pairKey, readOptionChoice } from "../core/option-choices";
import type { FacetValues } from "../core/product-rows.server";
import { countOf } from "../search/index.server";

/**
 * The count and the facets of a listing, from its facet matrix. A brand's
 * count is what choosing it would show given everything else chosen: the
 * chosen categories apply, the chosen brands do not (InstantSearch's
 * disjunctive facets), and likewise for categories.
 */
export function facetsOf(
  matrix: FacetCell[],
  values: FacetValues,
  filters: CatalogFilters,
  /** The same listing's matrix in stock only: "In stock only"'s count. */
  inStockMatrix: FacetCell[],
  /**
   * What choosing each option value would show, and every value of the catalogue: each is listed,
   * at 0 where the filters leave none, so nothing moves under the pointer as counts change (a
   * chosen one no product has is listed too, to be unchosen).
   */
  options: { counts: OptionCount[]; every: OptionCount[] },
): ListingFacets {
  const chosenBrands = filters.band ? new Set(filters.band) : null;
  const chosenCategories = filters.category ? new Set(filters.category) : null;
  const brandCounts = new Map<string, number>();
  const categoryCounts = new Map<string, number>();
  for (const cell of matrix) {
    const brandChosen = !chosenBrands || chosenBrands.has(cell.bandName);
    const categoryChosen = !chosenCategories || chosenCategories.has(cell.category);
    if (categoryChosen) brandCounts.set(cell.bandName, (brandCounts.get(cell.bandName) ?? 0) + cell.count);
    if (brandChosen) categoryCounts.set(cell.category, (categoryCounts.get(cell.category) ?? 0) + cell.count);
  }
  const choices = (rows: FacetValues["brands"], counts: Map<string, number>) =>
    rows.map(({ value, label }) => ({ value, label, count: counts.get(value) ?? 0 }));
  return {
    count: countOf(matrix, filters),
    brands: choices(values.brands, brandCounts),
    categories: choices(values.categories, categoryCounts),
    inStock: countOf(inStockMatrix, filters),
    options: optionFacets(everyValue(options, filters.option ?? [])),
  };
}

/** Every value of the catalogue and every chosen one, each with its count under the filters or 0. */
function everyValue(
  { counts, every }: { counts: OptionCount[]; every: OptionCount[] },
  chosen: readonly string[],
) {
  const counted = new Map(counts.map(({ name, value, count }) => [pairKey(name, value), count]));
  const listed = new Map<string, OptionCount>();
  const chosenValues = chosen.flatMap((choice) => readOptionChoice(choice) ?? []);
  for (const { name, value } of [...every, ...counts, ...chosenValues]) {
    const key = pairKey(name, value);
    if (!listed.has(key)) listed.set(key, { name, value, count: counted.get(key) ?? 0 });
  }
  return [...listed.values()];
}

/** Counts by pairKey (the search port's answer) as a list. */
export function countsByValue(counts: ReadonlyMap<string, number>): OptionCount[] {
  return [...counts].map(([key, count]) => {
    const [name = "", value = ""] = key.split("\u0000");
    return { name, value, count };
  });
}
