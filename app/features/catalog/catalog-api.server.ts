import { apiError, cacheableJson } from "~/utils/http.server";
import { logFailure } from "~/utils/logger.server";
import type { Catalog } from "./catalog.server";
import { parseCatalogFilters, parseCatalogQuery } from "./catalog-schema";

/**
 * The specification's public JSON API, answered by the resource routes
 * /all-products and /counts. Thin: parse with the shared schema, ask the
 * catalogue, answer with an ETag.
 */

/** Short public caching: a catalogue changes rarely, but not never. */
const CATALOG_CACHE_CONTROL = "public, max-age=10, stale-while-revalidate=60";

/** GET /all-products: one page of products, as an array. */
export async function allProductsResponse(catalog: Catalog, request: Request): Promise<Response> {
  const query = parseCatalogQuery(new URL(request.url).searchParams);
  if (!query.ok) return apiError(400, query.error);
  const products = await unlessUnavailable(catalog.findProducts(query.value));
  if (!products) return catalogUnavailable();
  return cacheableJson(request, products, CATALOG_CACHE_CONTROL);
}

/** GET /counts: `{ "count": N }` for the same filters as /all-products. */
export async function countsResponse(catalog: Catalog, request: Request): Promise<Response> {
  const filters = parseCatalogFilters(new URL(request.url).searchParams);
  if (!filters.ok) return apiError(400, filters.error);
  const count = await unlessUnavailable(catalog.countProducts(filters.value));
  if (!count) return catalogUnavailable();
  return cacheableJson(request, count, CATALOG_CACHE_CONTROL);
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
