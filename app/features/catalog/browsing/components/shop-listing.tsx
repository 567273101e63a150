import { type ReactNode, useState } from "react";
import { isRouteErrorResponse, Link, useNavigation } from "react-router";
import { useShopMoney } from "~/commerce/use-money";
import { buttonClasses } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import { useFewLeftAt } from "~/utils/few-left";
import { useShopperLocale } from "~/utils/locale";
import type { ShopProduct } from "../../core/catalog-format";
import { appliedFilters, type FacetLabels, wayBackLink, withoutFiltersHref } from "../applied-filters";
import { formValuesFromQuery, productHref, shopHref, shopPageHref } from "../catalog-url";
import { appliedFilterCount, type ShopListing as Listing, resultSummary, uncounted } from "../shop-listing";
import { useShareShopSearch } from "../shop-search";
import { useCatalogFilters } from "../use-catalog-filters";
import { CatalogFilters, type FilterFacets, SortSelect } from "./catalog-filters";
import {
  CatalogUnavailable,
  CloseSpellings,
  NoProductsMatch,
  noResultsOffer,
  PageOutOfRange,
  ProductGrid,
} from "./catalog-results";
import { FilterChips } from "./filter-chips";
import {
  CloseFilterSheet,
  FilterSheet,
  FilterSheetButton,
  ShowResultsButton,
  useFilterSheet,
} from "./filter-sheet";

/**
 * The shop page: the filter panel (a sheet on a phone), the listing's
 * summary, chips and sort, its products or why there are none, and its pages.
 */
export function ShopListing({
  listing,
  cardAction,
}: {
  listing: Listing;
  /** What the route puts at the bottom of each card (the cart's "Add to cart"). */
  cardAction?: (product: ShopProduct) => ReactNode;
}) {
  const { query } = listing;
  const filters = useCatalogFilters(query);
  // The header's search box is the listing's search on this page.
  useShareShopSearch(filters);
  const sheet = useFilterSheet();
  const locale = useShopperLocale();
  const fewLeftAt = useFewLeftAt();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/";
  const count = listing.status === "ok" ? listing.count : 0;
  const totalPages = Math.max(1, Math.ceil(count / query.size));
  const facets = useFacetsKnown(listing);
  // What the listing shows now (the address), not what the form is about to send.
  const shown = formValuesFromQuery(query);
  const labels: FacetLabels = facets ?? { brands: [], categories: [] };
  const money = useShopMoney();
  const wayBack =
    listing.status === "ok" && listing.wayBack
      ? { ...wayBackLink(listing.wayBack, shown, labels, money), count: listing.wayBack.count }
      : null;
  const didYouMean =
    listing.status === "ok" && listing.didYouMean
      ? { ...listing.didYouMean, href: shopHref({ ...shown, search: listing.didYouMean.search }) }
      : null;
  const searchWords = listing.status === "ok" ? listing.searchWords : null;

  return (
    <main id="main" className="mx-auto w-full max-w-7xl px-4 pt-8 pb-16 sm:px-6 lg:px-8 lg:pt-12">
      <ShopIntro />

      <div className="mt-8 grid gap-8 lg:mt-10 lg:grid-cols-[18rem_minmax(0,1fr)] lg:items-start">
        {/* Below 1024 px the panel is a sheet over the page: the aside leaves no empty row behind.
            Beside the results it stays in view, and scrolls within itself when its options make it
            taller than the window (a sticky panel taller than the window would move with the page). */}
        <aside className="max-lg:contents lg:sticky lg:top-24 lg:max-h-[calc(100dvh-7rem)] lg:overflow-y-auto lg:rounded-2xl">
          <FilterSheet sheet={sheet}>
            <CatalogFilters
              filters={filters}
              facets={facets}
              headingId={sheet.headingId}
              headerEnd={<CloseFilterSheet sheet={sheet} />}
              footer={<ShowResultsButton sheet={sheet} count={listing.status === "ok" ? count : null} />}
            />
          </FilterSheet>
        </aside>

        <section id="results" aria-labelledby="results-heading" className="min-w-0">
          <h2 id="results-heading" className="sr-only">
            Products
          </h2>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p role="status" className="text-sm text-slate-700">
              {listing.status === "ok" ? resultSummary(count, query.page, query.size) : ""}
              {/* Focus stays in the field a shopper typed in: the way out of "no results" is told here too. */}
              <span className="sr-only">{noResultsOffer(didYouMean, wayBack)}</span>
            </p>
            <div className="flex flex-wrap items-center gap-3">
              <FilterSheetButton sheet={sheet} applied={appliedFilterCount(query)} />
              <SortSelect filters={filters} />
            </div>
          </div>
          <FilterChips
            applied={appliedFilters(shown, labels, money)}
            clearAllHref={withoutFiltersHref(shown)}
          />
          <CloseSpellings words={count > 0 && searchWords ? searchWords : []} />

          <div aria-busy={loading} className="relative mt-5">
            <div
              aria-hidden="true"
              className={`absolute inset-x-0 -top-3 h-1 overflow-hidden rounded-full transition-opacity ${
                loading ? "opacity-100 delay-150" : "opacity-0"
              }`}
            >
              {/* Sweeps only while the results are busy (app.css). */}
              <div className="progress-bar h-full w-1/3 rounded-full bg-indigo-500" />
            </div>
            <div className={`transition-opacity ${loading ? "opacity-60 delay-150" : "opacity-100"}`}>
              {listing.status === "unavailable" ? (
                <CatalogUnavailable retryHref={shopPageHref(query, query.page)} />
              ) : listing.products.length > 0 ? (
                <ProductGrid
                  products={listing.products}
                  searchWords={searchWords}
                  locale={locale}
                  fewLeftAt={fewLeftAt}
                  hrefFor={(product) => productHref(product, { ...shown, page: query.page })}
                  cardAction={cardAction}
                />
              ) : count > 0 ? (
                <PageOutOfRange
                  page={query.page}
                  totalPages={totalPages}
                  firstPageHref={shopPageHref(query, 1)}
                />
              ) : (
                <NoProductsMatch wayBack={wayBack} didYouMean={didYouMean} />
              )}
            </div>
          </div>

          {listing.status === "ok" && listing.products.length > 0 ? (
            <div className="mt-10">
              <Pagination
                page={query.page}
                totalPages={totalPages}
                // #results: a new page opens at its results, not at the filters above them
                // (without JavaScript too); the shop moves focus there (useFocusAfterNavigation).
                hrefFor={(page) => `${shopPageHref(query, page)}#results`}
                label="Product pages"
              />
            </div>
          ) : null}
        </section>
      </div>
    </main>
  );
}

/** The page's heading and what the shop is for. */
function ShopIntro() {
  return (
    <header className="max-w-3xl">
      <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">The Backline catalogue</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
        Our Shop Category
      </h1>
      <p className="mt-3 text-base text-slate-600 sm:text-lg">
        Gear for players, makers and movers: filter by brand, category and price, or search for what you need.
      </p>
    </header>
  );
}

/**
 * The listing's facets; while the catalogue cannot be read, the server's last
 * known ones (named, uncounted) or, when the browser could not reach the
 * server, the ones this page last showed, so the panel keeps its choices.
 */
function useFacetsKnown(listing: Listing): FilterFacets | null {
  const [lastShown, setLastShown] = useState<FilterFacets | null>(null);
  if (listing.status === "ok") {
    if (listing.facets !== lastShown) setLastShown(listing.facets);
    return listing.facets;
  }
  if (listing.facets) return listing.facets;
  return lastShown && uncounted(lastShown);
}

/** A search the server refused (search-rate-limit.server.ts): past the client's share, or while long searches are queued. */
const REFUSED_SEARCH_TITLES: Record<number, string> = { 429: "Too many searches", 503: "The shop is busy" };

/** A URL the shop cannot read (page=abc, sort=sideways): say which part, and offer the way back. */
export function ShopListingError({ error }: { error: unknown }) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const badLink = status === 400;
  const title = badLink
    ? "This link has filters we can't read"
    : (REFUSED_SEARCH_TITLES[status] ?? "Something went wrong");
  // The server's own words for a link it cannot read and a search it refused (they say what to do).
  const message =
    (badLink || status in REFUSED_SEARCH_TITLES) &&
    isRouteErrorResponse(error) &&
    typeof error.data === "string"
      ? error.data
      : "The shop could not be shown. Please try again.";
  return (
    <main id="main" className="mx-auto w-full max-w-3xl px-4 py-20 text-center sm:px-6">
      <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">Our Shop Category</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-4 text-slate-600">{message}</p>
      <Link to="/" className={buttonClasses("primary", "md", "mt-8")}>
        Reset filters
      </Link>
    </main>
  );
}
