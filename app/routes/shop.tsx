import { useState } from "react";
import { data, isRouteErrorResponse, Link, redirect, useNavigation } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import { catalogClientFor, servicesContext } from "~/context.server";
import {
  appliedFilters,
  type FacetLabels,
  wayBackLink,
  withoutFiltersHref,
} from "~/features/catalog/browsing/applied-filters";
import { unlessUnavailable } from "~/features/catalog/browsing/catalog-api.server";
import {
  canonicalShopUrl,
  formValuesFromQuery,
  productHref,
  shopHref,
  shopListingFromAddress,
  shopPageHref,
  withoutEmptyParameters,
} from "~/features/catalog/browsing/catalog-url";
import {
  CatalogFilters,
  type FilterFacets,
  SortSelect,
} from "~/features/catalog/browsing/components/catalog-filters";
import {
  CatalogUnavailable,
  CloseSpellings,
  NoProductsMatch,
  noResultsOffer,
  PageOutOfRange,
  ProductGrid,
} from "~/features/catalog/browsing/components/catalog-results";
import { FilterChips } from "~/features/catalog/browsing/components/filter-chips";
import {
  CloseFilterSheet,
  FilterSheet,
  FilterSheetButton,
  ShowResultsButton,
  useFilterSheet,
} from "~/features/catalog/browsing/components/filter-sheet";
import { rangeOnSlider } from "~/features/catalog/browsing/price-range";
import { useShareShopSearch } from "~/features/catalog/browsing/shop-search";
import { useCatalogFilters } from "~/features/catalog/browsing/use-catalog-filters";
import { productCount, quoted, shopProduct } from "~/features/catalog/core/catalog-format";
import {
  type CatalogFilters as CatalogFilterQuery,
  type CatalogQuery,
  parseCatalogQuery,
} from "~/features/catalog/core/catalog-schema";
import { labelOf, PAGE_SIZE_DEFAULT } from "~/features/catalog/core/catalog-vocabulary";
import { useShopperLocale } from "~/utils/locale";
import type { Route } from "./+types/shop";

/** A refused search's Retry-After reaches the page's response (the loader throws it). */
export function headers({ errorHeaders }: Route.HeadersArgs): HeadersInit {
  const retryAfter = errorHeaders?.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : {};
}

export async function loader({ url, context }: Route.LoaderArgs) {
  // The no-JavaScript form sends every field, empty or not: answer with the tidy URL.
  const tidy = withoutEmptyParameters(url.searchParams);
  if (tidy) throw redirect(tidy.size > 0 ? `/?${tidy}` : "/");

  const parsed = parseCatalogQuery(url.searchParams);
  if (!parsed.ok) throw data(parsed.error.message, { status: 400 });
  // A price the slider cannot show (range=47, range=500): the address moves to the one it shows.
  if (parsed.value.range !== undefined && rangeOnSlider(parsed.value.range) !== parsed.value.range) {
    const onSlider = { ...formValuesFromQuery(parsed.value), range: rangeOnSlider(parsed.value.range) };
    throw redirect(`${shopHref({ ...onSlider, page: parsed.value.page })}${url.hash}`);
  }
  // A search counts against the client's share, as the JSON API's do (search-rate-limit.server.ts).
  if (parsed.value.search !== undefined) {
    const client = catalogClientFor(context);
    const admission = await client.searchLimit.admit(client.key);
    if (!admission.allowed) {
      throw data(`Too many searches. Try again in ${admission.retryAfterSeconds} seconds.`, {
        status: 429,
        headers: { "Retry-After": String(admission.retryAfterSeconds) },
      });
    }
  }
  // The shop page always shows five products a page (the API's `size` is for API clients).
  const query: CatalogQuery = { ...parsed.value, size: PAGE_SIZE_DEFAULT };
  const filters: CatalogFilterQuery = {
    search: query.search,
    category: query.category,
    band: query.band,
    range: query.range,
  };
  const { catalog, baseUrl } = context.get(servicesContext);
  const canonicalUrl = canonicalShopUrl(baseUrl, query);

  const [products, facets, searchWords] = await Promise.all([
    unlessUnavailable(catalog.findProducts(query)),
    unlessUnavailable(catalog.listingFacets(filters)),
    unlessUnavailable(catalog.searchWords(query.search)),
  ]);
  if (products === null || facets === null || searchWords === null) {
    // Not thrown: the page still renders, filters and all, with an inline error and Retry; the
    // choices are the brands and categories last read, named, without counts (none when never read).
    const known = await unlessUnavailable(catalog.facetValues());
    return data(
      {
        status: "unavailable" as const,
        query,
        canonicalUrl,
        facets: known && uncounted(known.value),
      },
      { status: 503 },
    );
  }
  const { count, brands, categories } = facets.value;
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
  return data(
    {
      status: "ok" as const,
      query,
      canonicalUrl,
      count,
      facets: { brands, categories },
      wayBack,
      didYouMean,
      searchWords,
      products: products.value.map((product) => shopProduct(product, { brands, categories })),
    },
    { status: pastTheEnd ? 404 : 200 },
  );
}

/** Brands and categories to choose from when their counts cannot be read. */
function uncounted({ brands, categories }: FacetLabels): FilterFacets {
  const choices = (rows: FacetLabels["brands"]) =>
    rows.map(({ value, label }) => ({ value, label, count: null }));
  return { brands: choices(brands), categories: choices(categories) };
}

/**
 * In the browser, the shop asks the server for each new listing. When that
 * fails (the shopper went offline, the server answered 500), the page keeps
 * its filters and shows the same inline error and Retry as when the server
 * says the catalogue is down, instead of the whole-page error. A link the
 * shop cannot read (400) and redirects still go their usual way.
 */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  try {
    return await serverLoader();
  } catch (error) {
    if (error instanceof Response || (isRouteErrorResponse(error) && error.status < 500)) throw error;
    const query = shopListingFromAddress(new URL(request.url).searchParams);
    return {
      status: "unavailable" as const,
      query,
      canonicalUrl: canonicalShopUrl(window.location.origin, query),
    };
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  // While the catalogue cannot be read, the brands and categories last read still name the listing.
  const facets = (loaderData && "facets" in loaderData ? loaderData.facets : null) ?? null;
  const title = shopTitle(loaderData?.query, facets);
  const description = shopDescription(facets);
  const tags: Route.MetaDescriptors = [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: "Backline" },
  ];
  if (loaderData) {
    tags.push(
      { property: "og:url", content: loaderData.canonicalUrl },
      { tagName: "link", rel: "canonical", href: loaderData.canonicalUrl },
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

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { query } = loaderData;
  const filters = useCatalogFilters(query);
  // The header's search box is the listing's search on this page.
  useShareShopSearch(filters);
  const sheet = useFilterSheet();
  const locale = useShopperLocale();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/";
  const count = loaderData.status === "ok" ? loaderData.count : 0;
  const totalPages = Math.max(1, Math.ceil(count / query.size));
  const facets = useFacetsKnown(loaderData);
  // What the listing shows now (the address), not what the form is about to send.
  const shown = formValuesFromQuery(query);
  const labels: FacetLabels = facets ?? { brands: [], categories: [] };
  const wayBack =
    loaderData.status === "ok" && loaderData.wayBack
      ? { ...wayBackLink(loaderData.wayBack, shown, labels), count: loaderData.wayBack.count }
      : null;
  const didYouMean =
    loaderData.status === "ok" && loaderData.didYouMean
      ? { ...loaderData.didYouMean, href: shopHref({ ...shown, search: loaderData.didYouMean.search }) }
      : null;
  const searchWords = loaderData.status === "ok" ? loaderData.searchWords : null;

  return (
    <main id="main" className="mx-auto w-full max-w-7xl px-4 pt-8 pb-16 sm:px-6 lg:px-8 lg:pt-12">
      <header className="max-w-3xl">
        <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">
          The Backline catalogue
        </p>
        <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
          Our Shop Category
        </h1>
        <p className="mt-3 text-base text-slate-600 sm:text-lg">
          Gear for players, makers and movers: filter by brand, category and price, or search for what you
          need.
        </p>
      </header>

      <div className="mt-8 grid gap-8 lg:mt-10 lg:grid-cols-[18rem_minmax(0,1fr)] lg:items-start">
        {/* Below 1024 px the panel is a sheet over the page: the aside leaves no empty row behind. */}
        <aside className="max-lg:contents lg:sticky lg:top-24">
          <FilterSheet sheet={sheet}>
            <CatalogFilters
              filters={filters}
              facets={facets}
              headingId={sheet.headingId}
              headerEnd={<CloseFilterSheet sheet={sheet} />}
              footer={<ShowResultsButton sheet={sheet} count={loaderData.status === "ok" ? count : null} />}
            />
          </FilterSheet>
        </aside>

        <section id="results" aria-labelledby="results-heading" className="min-w-0">
          <h2 id="results-heading" className="sr-only">
            Products
          </h2>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p role="status" className="text-sm text-slate-700">
              {loaderData.status === "ok" ? resultSummary(count, query.page, query.size) : ""}
              {/* Focus stays in the field a shopper typed in: the way out of "no results" is told here too. */}
              <span className="sr-only">{noResultsOffer(didYouMean, wayBack)}</span>
            </p>
            <div className="flex flex-wrap items-center gap-3">
              <FilterSheetButton sheet={sheet} applied={appliedFilterCount(query)} />
              <SortSelect filters={filters} />
            </div>
          </div>
          <FilterChips applied={appliedFilters(shown, labels)} clearAllHref={withoutFiltersHref(shown)} />
          <CloseSpellings words={count > 0 && searchWords ? searchWords : []} />

          <div aria-busy={loading} className="relative mt-5">
            <div
              aria-hidden="true"
              className={`absolute inset-x-0 -top-3 h-1 overflow-hidden rounded-full transition-opacity ${
                loading ? "opacity-100 delay-150" : "opacity-0"
              }`}
            >
              <div className="progress-bar h-full w-1/3 rounded-full bg-indigo-500" />
            </div>
            <div className={`transition-opacity ${loading ? "opacity-60 delay-150" : "opacity-100"}`}>
              {loaderData.status === "unavailable" ? (
                <CatalogUnavailable retryHref={shopPageHref(query, query.page)} />
              ) : loaderData.products.length > 0 ? (
                <ProductGrid
                  products={loaderData.products}
                  searchWords={searchWords}
                  locale={locale}
                  hrefFor={(product) => productHref(product, { ...shown, page: query.page })}
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

          {loaderData.status === "ok" && loaderData.products.length > 0 ? (
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

/**
 * The listing's facets; while the catalogue cannot be read, the server's last
 * known ones (named, uncounted) or, when the browser could not reach the
 * server, the ones this page last showed, so the panel keeps its choices.
 */
function useFacetsKnown(loaderData: Route.ComponentProps["loaderData"]): FilterFacets | null {
  const [lastShown, setLastShown] = useState<FilterFacets | null>(null);
  if (loaderData.status === "ok") {
    if (loaderData.facets !== lastShown) setLastShown(loaderData.facets);
    return loaderData.facets;
  }
  if ("facets" in loaderData && loaderData.facets) return loaderData.facets;
  return lastShown && uncounted(lastShown);
}

/** How many filters narrow the listing (the sort does not): the phone's Filters button shows it. */
function appliedFilterCount(query: CatalogFilterQuery): number {
  return (
    [query.search, query.range].filter(Boolean).length +
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

/** A URL the shop cannot read (page=abc, sort=sideways): say which part, and offer the way back. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const badLink = status === 400;
  const title = badLink
    ? "This link has filters we can't read"
    : status === 429
      ? "Too many searches"
      : "Something went wrong";
  const message =
    (badLink || status === 429) && isRouteErrorResponse(error) && typeof error.data === "string"
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
