import type { MetaDescriptor } from "react-router";
import { productCount, quoted, type ShopProduct } from "../core/catalog-format";
import type { CatalogFilters, CatalogQuery, ListingFacets } from "../core/catalog-schema";
import { labelOf } from "../core/catalog-vocabulary";
import { optionChoice } from "../core/option-choices";
import type { SearchWord } from "../core/search-words";
import type { FacetLabels, WayBack } from "./applied-filters";
import type { FilterFacets, OptionGroup } from "./components/catalog-filters";

interface ListingAddress {
  query: CatalogQuery;
  /** The listing's own address on the shop's public origin (the canonical link). */
  canonicalUrl: string;
}

/** A page of the listing, with everything the page shows around its products. */
interface ListedProducts extends ListingAddress {
  status: "ok";
  /** How many products match, on every page. */
  count: number;
  facets: FilterFacets;
  /** With no match: the one filter whose removal brings products back. */
  wayBack: WayBack | null;
  /** With no match: the search as the catalogue spells it, and what it finds. */
  didYouMean: { search: string; count: number } | null;
  searchWords: SearchWord[];
  products: ShopProduct[];
}

/**
 * The listing while the catalogue cannot be read: the page still shows its
 * filters, with an inline error and Retry. `facets` are the choices last read
 * (uncounted), null when never read, absent when the browser could not reach
 * the server at all.
 */
interface UnavailableListing extends ListingAddress {
  status: "unavailable";
  facets?: FilterFacets | null;
}

/** What the shop page's loader answers. */
export type ShopListing = ListedProducts | UnavailableListing;

/** Brands and categories to choose from when their counts cannot be read. */
export function uncounted({ brands, categories }: FacetLabels): FilterFacets {
  const choices = (rows: FacetLabels["brands"]) =>
    rows.map(({ value, label }) => ({ value, label, count: null }));
  return { brands: choices(brands), categories: choices(categories), inStock: null };
}

/** `/facets`'s option values as the filter panel lists them: each value chosen as `Size:M`, labelled "M". */
export function optionGroups(options: ListingFacets["options"]): OptionGroup[] {
  return Object.entries(options).map(([name, values]) => ({
    name,
    choices: values.map(({ value, count }) => ({ value: optionChoice(name, value), label: value, count })),
  }));
}

/** The shop page's title, description, canonical link and link preview. */
export function shopListingMeta(listing: ShopListing | undefined): MetaDescriptor[] {
  // While the catalogue cannot be read, the brands and categories last read still name the listing.
  const facets = (listing && "facets" in listing ? listing.facets : null) ?? null;
  const title = shopTitle(listing?.query, facets);
  const description = shopDescription(facets);
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: "Backline" },
  ];
  if (listing) {
    tags.push(
      { property: "og:url", content: listing.canonicalUrl },
      { tagName: "link", rel: "canonical", href: listing.canonicalUrl },
    );
  }
  return tags;
}

/** "BlendMaster Home appliances — page 2 — Backline": a tab and a search result say what the listing holds. */
export function shopTitle(query: Partial<CatalogQuery> | undefined, labels: FacetLabels | null): string {
  const named = (values: string[] | undefined, choices: FacetLabels["brands"] | undefined) =>
    (values ?? []).map((value) => labelOf(choices ?? [], value)).join(", ");
  const listing = [named(query?.band, labels?.brands), named(query?.category, labels?.categories)]
    .filter(Boolean)
    .join(" ");
  const parts = [
    listing || "Shop electronics, fitness, home and outdoor gear",
    query?.search ? quoted([query.search]) : "",
    query?.page && query.page > 1 ? `page ${query.page}` : "",
  ].filter(Boolean);
  return `${parts.join(" — ")} | Backline`;
}

/** What the shop holds, from its own brands and categories. */
export function shopDescription(labels: FacetLabels | null): string {
  const list = (choices: FacetLabels["brands"]) => choices.map((choice) => choice.label).join(", ");
  if (!labels || labels.brands.length === 0 || labels.categories.length === 0)
    return "Shop Backline's catalogue: filter by brand, category and price, or search for what you need.";
  return `Shop Backline's catalogue of ${list(labels.categories).toLowerCase()} from ${list(labels.brands)}.`;
}

/** How many filters narrow the listing (the sort does not): the phone's Filters button shows it. */
export function appliedFilterCount(query: CatalogFilters): number {
  return (
    [query.search, query.range, query.inStock].filter(Boolean).length +
    (query.band?.length ?? 0) +
    (query.category?.length ?? 0)
  );
}

/** "Showing 6–10 of 64 products". */
export function resultSummary(count: number, page: number, size: number): string {
  const first = (page - 1) * size + 1;
  if (count === 0 || first > count) return productCount(count);
  const last = Math.min(page * size, count);
  return `Showing ${first === last ? first : `${first}–${last}`} of ${productCount(count)}`;
}
