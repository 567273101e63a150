import { describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { type Catalog, createCatalog } from "./catalog.server";
import { allProductsResponse, countsResponse } from "./catalog-api.server";

/** A database that is down: every read fails. */
const failure = () => Promise.reject(new Error("connection refused"));
const brokenCatalog = {
  findProducts: failure,
  countProducts: failure,
  clear: () => {},
} as unknown as Catalog;
const get = (query = "", headers: Record<string, string> = {}) =>
  new Request(`http://shop.test/all-products${query ? `?${query}` : ""}`, { headers });

describe("catalogue API when the database is down", () => {
  it("/all-products and /counts answer 503 with a JSON error and Retry-After, not a 500", async () => {
    for (const response of [
      await allProductsResponse(brokenCatalog, get()),
      await countsResponse(brokenCatalog, get()),
    ]) {
      expect(response.status).toBe(503);
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      expect(response.headers.get("Retry-After")).toBe("5");
      expect(await response.json()).toEqual({
        error: { code: "catalog_unavailable", message: expect.any(String) },
      });
    }
  });

  it("a bad parameter is still a 400, before the database is asked", async () => {
    const response = await allProductsResponse(brokenCatalog, get("size=0"));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { field: string } }).error.field).toBe("size");
  });
});

describe("catalogue API caching", () => {
  const catalog = createCatalog(
    {} as Database,
    { cacheSeconds: 0 },
    {
      readCatalogIndex: async () => null,
      findProducts: async () => [],
      countProducts: async () => 7,
    },
  );

  it("answers 200 with an ETag, and 304 without a body when If-None-Match names it", async () => {
    const first = await countsResponse(catalog, get());
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('{"count":7}');
    const etag = first.headers.get("ETag");
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await countsResponse(catalog, get("", { "If-None-Match": `"other", ${etag}` }));
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("ETag")).toBe(etag);
  });

  it("answers 200 when If-None-Match names another body", async () => {
    expect((await allProductsResponse(catalog, get("", { "If-None-Match": 'W/"stale"' }))).status).toBe(200);
  });
});
