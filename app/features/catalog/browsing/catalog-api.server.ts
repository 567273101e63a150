import { apiError, cacheableJson } from "~/utils/http.server";
import { logFailure } from "~/utils/logger.server";
import {
  type ParseResult,
  parseCatalogFilters,
  parseCatalogQuery,
  parseSuggestionsQuery,
} from "../core/catalog-schema";
import { type SearchRateLimit, searchRefusal } from "../search/index.server";
import type { Catalog, CatalogAnswer } from "./catalog.server";

/**
 * The catalogue's public JSON API, answered by the resource routes:
 * the specification's /all-products and /counts, and /facets beside them. Thin: parse with the shared schema, ask the
 * catalogue, answer with an ETag.
 */

/** Short public caching: a catalogue changes rarely, but not never. */
const CATALOG_CACHE_CONTROL = "public, max-age=10, stale-while-revalidate=60";

/** Who asks, for the per-client limit on searches (search-rate-limit.server.ts). */
export interface CatalogClient {
  searchLimit: SearchRateLimit;
  /** The client's rate-limit key (its address; an IPv6 address by its /64). */
  key: string;
}

/**
 * Whether a call is counted against its client's searches, with the search it
 * carries (a long one waits for its turn): always, or when it carries one.
 */
type Counted<Q> = (query: Q) => { search: string | undefined } | null;
const ALWAYS = (query: { search?: string }) => ({ search: query.search });
const WHEN_SEARCHING = (query: { search?: string }) =>
  query.search === undefined ? null : { search: query.search };

/** GET /all-products: one page of products, as an array. */
export function allProductsResponse(catalog: Catalog, request: Request, client: CatalogClient) {
  return catalogResponse(request, client, WHEN_SEARCHING, parseCatalogQuery, catalog.findProducts);
}

/** GET /counts: `{ "count": N }` for the same filters as /all-products. */
export function countsResponse(catalog: Catalog, request: Request, client: CatalogClient) {
  return catalogResponse(request, client, WHEN_SEARCHING, parseCatalogFilters, catalog.countProducts);
}

/**
 * GET /facets: for the same filters as /counts, the count and every brand and
 * category with its label and the number of products choosing it would show
 * (a facet's own choices do not narrow its counts; the other filters do).
 */
export function facetsResponse(catalog: Catalog, request: Request, client: CatalogClient) {
  return catalogResponse(request, client, ALWAYS, parseCatalogFilters, catalog.listingFacets);
}

/**
 * GET /suggestions?search: for the search box's list as the shopper types,
 * the best matching products and the brands and categories whose names match,
 * each with its address.
 */
export function suggestionsResponse(catalog: Catalog, request: Request, client: CatalogClient) {
  return catalogResponse(request, client, ALWAYS, parseSuggestionsQuery, (query) =>
    catalog.suggestions(query.search),
  );
}

/**
 * Every catalogue call: parse the query (400 naming the parameter), count it
 * against the client's searches when it is one (429 past the limit, before
 * any work), read (503 when down), answer with an ETag.
 */
async function catalogResponse<Q>(
  request: Request,
  client: CatalogClient,
  counted: Counted<Q>,
  parse: (params: URLSearchParams) => ParseResult<Q>,
  read: (query: Q) => Promise<CatalogAnswer<unknown>>,
): Promise<Response> {
  const query = parse(new URL(request.url).searchParams);
  if (!query.ok) return apiError(400, query.error);
  const asSearch = counted(query.value);
  let done = () => {};
  if (asSearch) {
    const admission = await client.searchLimit.admit(client.key, asSearch.search);
    if (!admission.allowed) {
      const { status, code, message, headers } = searchRefusal(admission);
      return apiError(status, { code, message }, headers);
    }
    done = admission.done;
  }
  let answer: CatalogAnswer<unknown> | null;
  try {
    answer = await unlessUnavailable(read(query.value));
  } finally {
    // Whatever happened, a long search's turn passes to the next.
    done();
  }
  if (!answer) return catalogUnavailable();
  return cacheableJson(request, answer, CATALOG_CACHE_CONTROL);
}

/** Resolves to null when the read fails, after logging why: the caller answers 503. */
export function unlessUnavailable<T>(read: Promise<T>): Promise<T | null> {
  return read.catch((error: unknown) => {
    logFailure(error, "catalogue read failed");
    return null;
  });
}

/** The database did not answer: the client may retry, nothing it sent was wrong. */
function catalogUnavailable(): Response {
  return apiError(
    503,
    {
      code: "catalog_unavailable",
      message: "The catalogue cannot be read right now. Please try again in a moment.",
    },
    { "Retry-After": "5" },
  );
}
