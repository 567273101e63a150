import type { ShopLifecycle } from "~/context.server";
import type { DatabaseHandle } from "~/db/client.server";
import {
  cacheableReply,
  catalogUnavailable,
  errorReply,
  type JsonReply,
  unlessUnavailable,
} from "~/utils/http.server";
import type { Catalog } from "./catalog.server";
import { parseCatalogFilters, parseCatalogQuery } from "./catalog-schema";

/**
 * The specification's public JSON API. Thin: parse with the shared schema,
 * ask the catalogue, answer. Served by server/catalog-api.ts.
 */

/** GET /all-products: one page of products, as an array. */
export async function allProductsReply(
  catalog: Catalog,
  params: URLSearchParams,
  ifNoneMatch?: string | null,
): Promise<JsonReply> {
  const query = parseCatalogQuery(params);
  if (!query.ok) return errorReply(400, query.error);
  const products = await unlessUnavailable(catalog.findProducts(query.value));
  if (!products) return catalogUnavailable();
  return cacheableReply(ifNoneMatch, products);
}

/** GET /counts: `{ "count": N }` for the same filters as /all-products. */
export async function countsReply(
  catalog: Catalog,
  params: URLSearchParams,
  ifNoneMatch?: string | null,
): Promise<JsonReply> {
  const filters = parseCatalogFilters(params);
  if (!filters.ok) return errorReply(400, filters.error);
  const count = await unlessUnavailable(catalog.countProducts(filters.value));
  if (!count) return catalogUnavailable();
  return cacheableReply(ifNoneMatch, count);
}

const PING_TIMEOUT_MS = 2_000;

/**
 * GET /healthz: 200 once the database answers, 503 while it does not or while
 * the process shuts down — for load balancers.
 */
export async function healthReply(database: DatabaseHandle, lifecycle: ShopLifecycle): Promise<JsonReply> {
  const headers = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };
  if (lifecycle.draining) return { status: 503, headers, body: JSON.stringify({ status: "shutting-down" }) };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      database.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("database ping timed out")), PING_TIMEOUT_MS);
      }),
    ]);
    return { status: 200, headers, body: JSON.stringify({ status: "ok" }) };
  } catch {
    return { status: 503, headers, body: JSON.stringify({ status: "unavailable" }) };
  } finally {
    clearTimeout(timer);
  }
}
