import type { CatalogQuery } from "../core/catalog-schema";
import { PAGE_SIZE_DEFAULT, QUERY_PARAMETERS, SORT_VALUES, type SortValue } from "../core/catalog-vocabulary";

/**
 * The shop page's URL is its state. These helpers turn a parsed query back
 * into the query string, in one fixed order and without parameters that
 * filter nothing, so equal states have equal URLs (shareable, cacheable, and
 * Back/Forward land on exactly what the shopper saw).
 */

/** What the filter form holds; empty lists, empty strings and 0 mean "not filtered". */
export interface CatalogFormValues {
  band: string[];
  category: string[];
  /** Chosen option values, as `option` writes them (`Size:M`). */
  option: string[];
  /** Maximum price; 0 = any price. */
  range: number;
  /** Only products with a unit on hand. */
  inStock: boolean;
  search: string;
  sort: SortValue | "";
}

export type ShopUrlState = Partial<CatalogFormValues> & { page?: number };

/** The form's values for a parsed query. */
export function formValuesFromQuery(query: Partial<CatalogQuery>): CatalogFormValues {
  return {
    band: query.band ?? [],
    category: query.category ?? [],
    option: query.option ?? [],
    range: query.range ?? 0,
    inStock: query.inStock ?? false,
    search: query.search ?? "",
    sort: query.sort ?? "",
  };
}

/**
 * The shop listing an address asks for, read leniently and without zod (which
 * the browser does not otherwise need): for showing the filters again when
 * the server could not be asked, never for querying. The server validates
 * whatever is sent next; a value it would refuse is shown here as "not set".
 */
export function shopListingFromAddress(params: URLSearchParams): CatalogQuery {
  const text = (name: string) => params.get(name)?.trim() || undefined;
  const choices = (name: string) => [...new Set(params.getAll(name).filter(Boolean))].sort();
  const sort = params.get("sort");
  const page = Number(params.get("page"));
  const range = Number(params.get("range"));
  return {
    ...(text("search") ? { search: text("search") } : {}),
    ...(choices("band").length > 0 ? { band: choices("band") } : {}),
    ...(choices("category").length > 0 ? { category: choices("category") } : {}),
    ...(choices("option").length > 0 ? { option: choices("option") } : {}),
    ...(range > 0 ? { range } : {}),
    ...(params.get("inStock") === "1" ? { inStock: true as const } : {}),
    ...(SORT_VALUES.includes(sort as SortValue) ? { sort: sort as SortValue } : {}),
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
    size: PAGE_SIZE_DEFAULT,
  };
}

/** The query string of a shop state, parameters in a fixed order, empty ones left out. */
function shopSearchParams(state: ShopUrlState): URLSearchParams {
  const params = new URLSearchParams();
  // Chosen brands and categories in one order, as the server sorts them.
  for (const band of [...(state.band ?? [])].sort()) params.append("band", band);
  for (const category of [...(state.category ?? [])].sort()) params.append("category", category);
  for (const option of [...(state.option ?? [])].sort()) params.append("option", option);
  if (state.range && state.range > 0) params.set("range", String(state.range));
  if (state.inStock) params.set("inStock", "1");
  const search = state.search?.trim();
  if (search) params.set("search", search);
  if (state.sort) params.set("sort", state.sort);
  if (state.page && state.page > 1) params.set("page", String(state.page));
  return params;
}

/** `/` or `/?band=…`: the shop page's address for a state. */
export function shopHref(state: ShopUrlState): string {
  const search = shopSearchParams(state).toString();
  return search ? `/?${search}` : "/";
}

/** The same filters and sort on another page. */
export function shopPageHref(query: Partial<CatalogQuery>, page: number): string {
  return shopHref({ ...formValuesFromQuery(query), page });
}

/**
 * The shop page a product page leads back to: the listing the shopper came
 * from rides in the product page's query, read leniently, since it only ever
 * makes this link.
 */
export function shopReturnHref(params: URLSearchParams): string {
  const listing = shopListingFromAddress(params);
  return shopPageHref(listing, listing.page);
}

/**
 * A GET form submitted without JavaScript sends every field, empty or not
 * (`/?band=&category=&range=0&search=&sort=`). Returns the query string
 * without those no-op parameters, or null when there is nothing to drop, so
 * the server can redirect to the tidy URL.
 */
export function withoutEmptyParameters(params: URLSearchParams): URLSearchParams | null {
  let changed = false;
  const tidy = new URLSearchParams();
  for (const [name, value] of params) {
    const isShopParameter = (QUERY_PARAMETERS as readonly string[]).includes(name);
    if (isShopParameter && (value.trim() === "" || (name === "range" && value === "0"))) {
      changed = true;
      continue;
    }
    tidy.append(name, value);
  }
  return changed ? tidy : null;
}

/**
 * The canonical address of a shop view. A single brand and a single category
 * are kept: they are a small, fixed set of real listings a search engine may
 * want to show ("BlendMaster home appliances"). Several brands or categories
 * at once, search text, price cap, sort and page are dropped: they are
 * combinations, unbounded, or only re-order or slice the same listing, and
 * indexing every one would split the listing into endless duplicates.
 */
export function canonicalShopUrl(origin: string, query: Partial<CatalogQuery>): string {
  const single = (values: string[] | undefined) => (values?.length === 1 ? values : undefined);
  return new URL(shopHref({ band: single(query.band), category: single(query.category) }), origin).toString();
}

/** The longest slug a product address carries; the id is what finds the product. */
const SLUG_MAX_LENGTH = 80;

/** "BlendMaster Pro 900 Blender" → "blendmaster-pro-900-blender"; accents dropped, only a–z, 0–9 and dashes. */
export function productSlug(name: string): string {
  return (
    name
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .slice(0, SLUG_MAX_LENGTH)
      .replace(/^-+|-+$/g, "") || "product"
  );
}

/**
 * A product's page: `/products/12-blendmaster-pro-900-blender`. From a
 * listing, the listing's own query rides along (`?band=blendMaster&page=2`),
 * so the page's breadcrumb leads back to exactly that listing.
 */
export function productHref(product: { id: number; name: string }, listing: ShopUrlState = {}): string {
  const search = shopSearchParams(listing).toString();
  return `/products/${product.id}-${productSlug(product.name)}${search ? `?${search}` : ""}`;
}

/** The id and slug of a product address's last segment ("12-blender"), or null when it names none. */
export function parseProductSegment(segment: string): { id: number; slug: string } | null {
  const match = /^([1-9]\d{0,9})(?:-(.*))?$/.exec(segment);
  const id = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(id) || id > 2_147_483_647) return null;
  return { id, slug: match[2] ?? "" };
}
