import { describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { createSearchRateLimit } from "../search/search-rate-limit.server";
import { searchVocabulary } from "../search/search-vocabulary.server";
import { type Catalog, createCatalog } from "./catalog.server";
import {
  allProductsResponse,
  type CatalogClient,
  countsResponse,
  facetsResponse,
  suggestionsResponse,
} from "./catalog-api.server";

/** A database that is down: every read fails. */
const failure = () => Promise.reject(new Error("connection refused"));
const brokenCatalog = {
  findProducts: failure,
  countProducts: failure,
  clear: () => {},
} as unknown as Catalog;
/** A client with room for plenty of searches. */
const client: CatalogClient = { searchLimit: createSearchRateLimit(), key: "203.0.113.7" };
const get = (query = "", headers: Record<string, string> = {}) =>
  new Request(`http://shop.test/all-products${query ? `?${query}` : ""}`, { headers });

describe("catalogue API when the database is down", () => {
  it("/all-products and /counts answer 503 with a JSON error and Retry-After, not a 500", async () => {
    for (const response of [
      await allProductsResponse(brokenCatalog, get(), client),
      await countsResponse(brokenCatalog, get(), client),
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
    const response = await allProductsResponse(brokenCatalog, get("size=0"), client);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { field: string } }).error.field).toBe("size");
  });

  it.each(["inStock=yes", "inStock=0", "inStock=true", "inStock=1&inStock=1"])(
    "refuses %s with a 400 naming inStock, on /all-products, /counts and /facets",
    async (query) => {
      for (const answer of [allProductsResponse, countsResponse, facetsResponse]) {
        const response = await answer(brokenCatalog, get(query), client);
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: { field: string } }).error.field).toBe("inStock");
      }
    },
  );
});

describe("catalogue API caching", () => {
  const catalog = createCatalog(
    {} as Database,
    { cacheSeconds: 0 },
    {
      readCatalogIndex: async () => null,
      readSkuProducts: async () => [],
      findProducts: async () => [],
      countProducts: async () => 7,
    },
  );

  it("answers 200 with an ETag, and 304 without a body when If-None-Match names it", async () => {
    const first = await countsResponse(catalog, get(), client);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('{"count":7}');
    const etag = first.headers.get("ETag");
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await countsResponse(catalog, get("", { "If-None-Match": `"other", ${etag}` }), client);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("ETag")).toBe(etag);
  });

  it("answers 200 when If-None-Match names another body", async () => {
    expect(
      (await allProductsResponse(catalog, get("", { "If-None-Match": 'W/"stale"' }), client)).status,
    ).toBe(200);
  });
});

/** A catalogue of no products, over no database and no index, uncached; `findProducts` may be replaced. */
const emptyCatalog = (findProducts = async () => []) =>
  createCatalog(
    {} as Database,
    { cacheSeconds: 0 },
    {
      readCatalogIndex: async () => null,
      readSkuProducts: async () => [],
      readSearchVocabulary: async () => searchVocabulary([]),
      readFacetMatrix: async () => [],
      readOptionCounts: async () => new Map(),
      readFacetValues: async () => ({ brands: [], categories: [] }),
      findProducts,
      countProducts: async () => 0,
    },
  );

describe("catalogue API: searches per client", () => {
  const catalog = emptyCatalog();
  const limited = (): CatalogClient => ({
    searchLimit: createSearchRateLimit({ points: 3, duration: 60 }),
    key: "198.51.100.4",
  });

  it("/suggestions and /facets answer 429 with Retry-After past the client's share, whatever the search", async () => {
    const asking = limited();
    const suggestions = (search: string) =>
      suggestionsResponse(catalog, new Request(`http://shop.test/suggestions?search=${search}`), asking);
    // A different search each time: no cache can answer them, the limit does.
    expect((await suggestions("blendr")).status).toBe(200);
    expect((await suggestions("blendra")).status).toBe(200);
    expect((await facetsResponse(catalog, new Request("http://shop.test/facets"), asking)).status).toBe(200);
    const refused = await suggestions("blendrb");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({
      error: {
        code: "rate_limited",
        message: expect.stringMatching(/^Too many searches\. Try again in \d+ seconds\.$/),
      },
    });
    // Another client is not held back.
    expect((await suggestions("blendrc")).status).toBe(429);
    expect(
      (
        await suggestionsResponse(catalog, new Request("http://shop.test/suggestions?search=x"), {
          ...asking,
          key: "198.51.100.5",
        })
      ).status,
    ).toBe(200);
  });

  it("/all-products and /counts count only calls that search", async () => {
    const asking = limited();
    for (let call = 0; call < 5; call++) {
      expect((await allProductsResponse(catalog, get(`page=${call + 1}`), asking)).status).toBe(200);
      expect((await countsResponse(catalog, get("category=fitness"), asking)).status).toBe(200);
    }
    for (let call = 0; call < 3; call++) {
      expect((await countsResponse(catalog, get(`search=kettle${call}`), asking)).status).toBe(200);
    }
    expect((await allProductsResponse(catalog, get("search=kettle"), asking)).status).toBe(429);
  });
});

describe("catalogue API: long searches", () => {
  it("answers 503 with Retry-After once 16 long searches wait for their turn, and short ones meanwhile", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Every long search's read waits until the test lets them go.
    const catalog = emptyCatalog(async () => {
      await held;
      return [];
    });
    const asking: CatalogClient = { searchLimit: createSearchRateLimit(), key: "198.51.100.9" };
    const longSearch = (n: number) =>
      allProductsResponse(catalog, get(`search=one+two+three+four${n}`), asking);
    // One holds the turn, sixteen wait behind it.
    const answered = Array.from({ length: 17 }, (_, n) => longSearch(n));
    await new Promise(setImmediate);
    const refused = await longSearch(17);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({
      error: {
        code: "searches_busy",
        message: expect.stringMatching(/^The shop is busy with long searches/),
      },
    });
    expect((await countsResponse(catalog, get("search=yoga+mat"), asking)).status).toBe(200);
    release();
    for (const response of await Promise.all(answered)) expect(response.status).toBe(200);
  });
});
