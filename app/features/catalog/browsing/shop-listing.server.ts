import { shopProduct } from "../core/catalog-format";
import type { CatalogFilters, CatalogQuery } from "../core/catalog-schema";
import { PAGE_SIZE_DEFAULT } from "../core/catalog-vocabulary";
import type { Catalog } from "./catalog.server";
import { unlessUnavailable } from "./catalog-api.server";
import { canonicalShopUrl } from "./catalog-url";
import { optionGroups, type ShopListing, uncounted } from "./shop-listing";

/**
 * The shop page's listing for a query the page has read, and the status its
 * response answers with: 503 while the catalogue cannot be read (the page
 * still renders), 404 past the last page.
 */
export async function readShopListing(
  catalog: Catalog,
  baseUrl: string,
  asked: CatalogQuery,
): Promise<{ listing: ShopListing; status: number }> {
  // The shop page always shows five products a page (the API's `size` is for API clients).
  const query: CatalogQuery = { ...asked, size: PAGE_SIZE_DEFAULT };
  const filters: CatalogFilters = {
    search: query.search,
    category: query.category,
    band: query.band,
    option: query.option,
    range: query.range,
    inStock: query.inStock,
  };
  const canonicalUrl = canonicalShopUrl(baseUrl, query);

  const [products, facets, searchWords] = await Promise.all([
    unlessUnavailable(catalog.findProducts(query)),
    unlessUnavailable(catalog.listingFacets(filters)),
    unlessUnavailable(catalog.searchWords(query.search)),
  ]);
  if (products === null || facets === null || searchWords === null) {
    // The choices are the brands and categories last read, named, without counts (none when never read).
    const known = await unlessUnavailable(catalog.facetValues());
    return {
      listing: { status: "unavailable", query, canonicalUrl, facets: known && uncounted(known.value) },
      status: 503,
    };
  }
  const { count, brands, categories, inStock, options } = facets.value;
  // Nothing matches: find the one filter whose removal brings products back, and a respelled search.
  const [wayBack, didYouMean] =
    count === 0
      ? await Promise.all([
          unlessUnavailable(catalog.wayBack(filters)),
          unlessUnavailable(catalog.didYouMean(filters)),
        ])
      : [null, null];
  // A page past the last one (page 1 always exists, empty or not) is not a page of this listing:
  // 404, so crawlers drop it, with the same listing and its way back to page 1 for a person.
  const pastTheEnd = query.page > 1 && products.value.length === 0;
  return {
    listing: {
      status: "ok",
      query,
      canonicalUrl,
      count,
      facets: { brands, categories, inStock, options: optionGroups(options) },
      wayBack,
      didYouMean,
      searchWords,
      products: products.value.map((product) => shopProduct(product, { brands, categories })),
    },
    status: pastTheEnd ? 404 : 200,
  };
}
