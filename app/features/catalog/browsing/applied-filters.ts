import type { ShopMoney } from "~/commerce/money";
import { quoted } from "../core/catalog-format";
import { labelOf } from "../core/catalog-vocabulary";
import { readOptionChoice } from "../core/option-choices";
import { type CatalogFormValues, shopHref } from "./catalog-url";
import { priceRangeLabel } from "./price-range";

/** The catalogue's labels for brand and category values. */
export interface FacetLabels {
  brands: readonly { value: string; label: string }[];
  categories: readonly { value: string; label: string }[];
}

/** The "in stock only" filter's name, on its checkbox and its chip. */
export const IN_STOCK_ONLY = "In stock only";

/** One filter the shopper applied, as a chip: what it is, and the address without it. */
export interface AppliedFilter {
  /** "Brand", "Category", "Price", "Stock", "Search". */
  kind: string;
  /** "CycleFit", "Up to $50", "“yoga mat”". */
  label: string;
  /** The same listing without this one filter (sort kept, back to page 1). */
  href: string;
}

/**
 * Every filter the listing applies, one chip per brand, per category, for the
 * price cap and for the search, in the filter panel's order.
 */
export function appliedFilters(
  values: CatalogFormValues,
  labels: FacetLabels,
  money: ShopMoney,
): AppliedFilter[] {
  const without = (patch: Partial<CatalogFormValues>) => shopHref({ ...values, ...patch });
  return [
    ...(values.search.trim()
      ? [{ kind: "Search", label: quoted([values.search.trim()]), href: without({ search: "" }) }]
      : []),
    ...values.band.map((band) => ({
      kind: "Brand",
      label: labelOf(labels.brands, band),
      href: without({ band: values.band.filter((value) => value !== band) }),
    })),
    ...values.category.map((category) => ({
      kind: "Category",
      label: labelOf(labels.categories, category),
      href: without({ category: values.category.filter((value) => value !== category) }),
    })),
    ...values.option.map((option) => {
      const read = readOptionChoice(option);
      return {
        kind: read?.name ?? "Option",
        label: read?.value ?? option,
        href: without({ option: values.option.filter((value) => value !== option) }),
      };
    }),
    ...(values.range > 0
      ? [{ kind: "Price", label: priceRangeLabel(values.range, money), href: without({ range: 0 }) }]
      : []),
    ...(values.inStock ? [{ kind: "Stock", label: IN_STOCK_ONLY, href: without({ inStock: false }) }] : []),
  ];
}

/** The address of "Clear all": no filters, the same sort. */
export function withoutFiltersHref(values: CatalogFormValues): string {
  return shopHref({ sort: values.sort });
}

/** A filter whose removal brings results back, as the catalogue found it (catalog.server.ts). */
export interface WayBack {
  drop: "band" | "category" | "option" | "range" | "inStock" | "search";
  count: number;
}

/** "Remove “Outdoor”", with the address that does it. */
export function wayBackLink(
  wayBack: WayBack,
  values: CatalogFormValues,
  labels: FacetLabels,
  money: ShopMoney,
) {
  switch (wayBack.drop) {
    case "band":
      return {
        text: `Remove ${quoted(values.band.map((band) => labelOf(labels.brands, band)))}`,
        href: shopHref({ ...values, band: [] }),
      };
    case "category":
      return {
        text: `Remove ${quoted(values.category.map((category) => labelOf(labels.categories, category)))}`,
        href: shopHref({ ...values, category: [] }),
      };
    case "option":
      return {
        text: `Remove ${quoted(values.option.map((option) => readOptionChoice(option)?.value ?? option))}`,
        href: shopHref({ ...values, option: [] }),
      };
    case "range":
      return {
        text: `Remove ${quoted([priceRangeLabel(values.range, money)])}`,
        href: shopHref({ ...values, range: 0 }),
      };
    case "inStock":
      return {
        text: `Remove ${quoted([IN_STOCK_ONLY])}`,
        href: shopHref({ ...values, inStock: false }),
      };
    case "search":
      return {
        text: `Remove the search ${quoted([values.search.trim()])}`,
        href: shopHref({ ...values, search: "" }),
      };
  }
}
