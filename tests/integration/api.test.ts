import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enginesToRun } from "../support/requirements";
import { type ShopProcess, startShopProcess } from "../support/shop-process";
import { createScratchPostgres, reportPostgresSkipped, type ScratchPostgres } from "../support/test-database";

/**
 * The JSON API as a client sees it, through the production build: status
 * codes, JSON shapes, caching headers and the 400 body for bad parameters.
 * Runs on the embedded database, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
const engines: {
  name: string;
  env: () => Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>;
}[] = [{ name: "PGlite", env: async () => ({ env: {}, cleanup: async () => {} }) }];
if (process.env.TEST_DATABASE_URL) {
  engines.push({
    name: "PostgreSQL",
    env: async () => {
      const scratch: ScratchPostgres = await createScratchPostgres();
      return { env: { DATABASE_URL: scratch.url }, cleanup: () => scratch.drop() };
    },
  });
}

describe.each(enginesToRun(engines))("JSON API on $name", ({ env }) => {
  let shop: ShopProcess;
  let cleanup: () => Promise<void>;
  const get = (path: string, init?: RequestInit) => fetch(`${shop.url}${path}`, init);

  beforeAll(async () => {
    const engine = await env();
    cleanup = engine.cleanup;
    shop = await startShopProcess(engine.env);
  });

  afterAll(async () => {
    await shop?.stop();
    await cleanup?.();
  });

  it("GET /all-products returns the first 5 products as a JSON array", async () => {
    const response = await get("/all-products");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as Record<string, unknown>[];
    expect(body).toHaveLength(5);
    for (const product of body) {
      expect(Object.keys(product).sort()).toEqual(
        [
          "bandName",
          "category",
          "compareAtPrice",
          "creationDate",
          "description",
          "id",
          "image",
          "name",
          "price",
          "priceMax",
          "ratings",
          "ratingCount",
          "stock",
          "variantCount",
        ].sort(),
      );
      expect(typeof product.price).toBe("number");
      // The cheapest and the dearest variant's prices; one variant: the same.
      expect(product.priceMax as number).toBeGreaterThanOrEqual(product.price as number);
      expect(Number.isInteger(product.variantCount) && (product.variantCount as number) >= 1).toBe(true);
      expect(Number.isInteger(product.stock) && (product.stock as number) >= 0).toBe(true);
      expect(new Date(product.creationDate as string).toISOString()).toBe(product.creationDate);
    }
  });

  it("GET /all-products honours page, size, sort and filters", async () => {
    const response = await get("/all-products?page=2&size=3&sort=asc&category=fitness&range=150");
    const body = (await response.json()) as { price: number; category: string }[];
    expect(body).toHaveLength(3);
    expect(body.every((product) => product.category === "fitness" && product.price <= 150)).toBe(true);
    expect(body.map((product) => product.price)).toEqual(
      [...body.map((product) => product.price)].sort((a, b) => a - b),
    );
  });

  it("GET /counts returns {count} for the same filters, and the pages agree with it", async () => {
    const count = (await (await get("/counts?band=blendMaster")).json()) as { count: number };
    expect(count).toEqual({ count: expect.any(Number) });
    const all = (await (await get("/all-products?band=blendMaster&size=100")).json()) as unknown[];
    expect(all).toHaveLength(count.count);
    expect(count.count).toBeGreaterThan(0);
  });

  it("a repeated band or category matches any of them; one value behaves as before", async () => {
    const json = async (path: string) => (await get(path)).json();
    const both = (await json("/all-products?band=campSafe&band=cycleFit&size=100")) as { bandName: string }[];
    const campSafe = (await json("/counts?band=campSafe")) as { count: number };
    const cycleFit = (await json("/counts?band=cycleFit")) as { count: number };
    expect(both).toHaveLength(campSafe.count + cycleFit.count);
    expect(new Set(both.map((product) => product.bandName))).toEqual(new Set(["campSafe", "cycleFit"]));
    expect(await json("/counts?band=cycleFit&band=campSafe&band=cycleFit")).toEqual({
      count: campSafe.count + cycleFit.count,
    });
  });

  it("GET /facets gives the count and each brand and category with its label and disjunctive count", async () => {
    const response = await get("/facets?band=campSafe&category=outdoor");
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBeTruthy();
    const facets = (await response.json()) as {
      count: number;
      brands: { value: string; label: string; count: number }[];
      categories: { value: string; label: string; count: number }[];
    };
    expect(facets.count).toBe(
      ((await (await get("/counts?band=campSafe&category=outdoor")).json()) as { count: number }).count,
    );
    expect(facets.brands.map((brand) => brand.label)).toEqual([
      "TeachPro",
      "CycleFit",
      "BlendMaster",
      "Artistry",
      "CampSafe",
    ]);
    // Each brand counts within the chosen category, whatever brand is chosen; each category within CampSafe.
    for (const brand of facets.brands) {
      const alone = (await (await get(`/counts?band=${brand.value}&category=outdoor`)).json()) as {
        count: number;
      };
      expect(brand.count, brand.value).toBe(alone.count);
    }
    for (const category of facets.categories) {
      const params = new URLSearchParams({ band: "campSafe", category: category.value });
      const alone = (await (await get(`/counts?${params}`)).json()) as { count: number };
      expect(category.count, category.value).toBe(alone.count);
    }
  });

  it("GET /facets lists option values with counts; option= keeps the products with a variant in them", async () => {
    const facets = (await (await get("/facets")).json()) as {
      options: Record<string, { value: string; count: number }[]>;
    };
    // The demo's running shoes come in sizes 39 to 43, and in Black and Blue.
    expect(facets.options.Size?.slice(0, 5)).toEqual(
      ["39", "40", "41", "42", "43"].map((value) => ({ value, count: 1 })),
    );
    expect(facets.options.Colour).toEqual(expect.arrayContaining([{ value: "Blue", count: 1 }]));
    const shoes = (await (await get("/all-products?option=Size:41&option=Colour:Blue")).json()) as {
      name: string;
    }[];
    expect(shoes.map((product) => product.name)).toEqual(["CycleFit Running Shoes"]);
    // Values of one option are alternatives; of two options, one variant must hold both.
    expect(await (await get("/counts?option=Size:41&option=Size:60 × 60 cm")).json()).toEqual({ count: 2 });
    expect(await (await get("/counts?option=Size:41&option=Colour:Plum")).json()).toEqual({ count: 0 });
    // A brand's count follows the option chosen: only CycleFit makes size 41.
    const chosen = (await (await get("/facets?option=Size:41")).json()) as {
      count: number;
      brands: { value: string; count: number }[];
    };
    expect(chosen.count).toBe(1);
    expect(chosen.brands.filter((brand) => brand.count > 0)).toEqual([
      expect.objectContaining({ value: "cycleFit", count: 1 }),
    ]);
  });

  it("GET /all-products gives a product's lowest price, its highest, and the cheapest variant's was price", async () => {
    const [mat] = (await (await get("/all-products?search=yoga+mat+pro")).json()) as {
      price: number;
      priceMax: number;
      compareAtPrice: number | null;
    }[];
    // The demo's mat: Plum at 24.99, was 29.99; Sage and Slate at 29.99.
    expect(mat).toMatchObject({ price: 24.99, priceMax: 29.99, compareAtPrice: 29.99 });
  });

  it("a search for a variant's SKU, in any case, finds its product", async () => {
    const found = (await (await get("/all-products?search=CYCLEFIT-RUNNING-SHOES-41-BLUE")).json()) as {
      name: string;
    }[];
    expect(found.map((product) => product.name)).toEqual(["CycleFit Running Shoes"]);
    expect(await (await get("/counts?search=cyclefit-running-shoes-41-blue")).json()).toEqual({ count: 1 });
  });

  it("GET /suggestions gives the best products and the brands and categories whose names match, with addresses", async () => {
    const response = await get("/suggestions?search=camp");
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBeTruthy();
    const suggestions = (await response.json()) as {
      words: { typed: string; alike: string[]; corrected: boolean }[];
      products: { label: string; href: string }[];
      brands: { label: string; href: string }[];
      categories: { label: string; href: string }[];
    };
    expect(suggestions.words).toEqual([{ typed: "camp", alike: [], corrected: false }]);
    expect(suggestions.products).toHaveLength(5);
    for (const product of suggestions.products) {
      expect(product.href).toMatch(/^\/products\/\d+-[a-z0-9-]+$/);
      expect((await get(product.href)).status, product.href).toBe(200);
    }
    expect(suggestions.brands).toEqual([{ label: "CampSafe", href: "/?band=campSafe" }]);
    // A typo is read as the catalogue spells it; an empty search suggests nothing.
    const typo = (await (await get("/suggestions?search=headphnes")).json()) as typeof suggestions;
    expect(typo.words[0]).toMatchObject({ typed: "headphnes", alike: ["headphones"], corrected: true });
    expect(typo.products.map((product) => product.label)).toEqual(["TeachPro Wireless Headphones"]);
    expect(await (await get("/suggestions?search=")).json()).toEqual({
      words: [],
      products: [],
      brands: [],
      categories: [],
    });
    const category = (await (await get("/suggestions?search=applia")).json()) as typeof suggestions;
    expect(category.categories).toEqual([{ label: "Home appliances", href: "/?category=home+appliances" }]);
  });

  it("an unknown brand or category matches nothing", async () => {
    expect(await (await get("/all-products?band=acme")).json()).toEqual([]);
    expect(await (await get("/counts?category=toys")).json()).toEqual({ count: 0 });
  });

  it("carries short public caching and an ETag; a repeated request gets 304", async () => {
    const first = await get("/all-products?sort=dsc");
    const etag = first.headers.get("etag");
    expect(first.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    expect(etag).toBeTruthy();
    const second = await get("/all-products?sort=dsc", { headers: { "If-None-Match": etag as string } });
    expect(second.status).toBe(304);
    expect(await second.text()).toBe("");
    const other = await get("/all-products?sort=asc", { headers: { "If-None-Match": etag as string } });
    expect(other.status).toBe(200);

    const counts = await get("/counts");
    const countsAgain = await get("/counts", {
      headers: { "If-None-Match": counts.headers.get("etag") as string },
    });
    expect(countsAgain.status).toBe(304);
  });

  it.each([
    ["/all-products?page=abc", "page"],
    ["/all-products?page=0", "page"],
    ["/all-products?size=0", "size"],
    ["/all-products?size=5000", "size"],
    ["/all-products?sort=sideways", "sort"],
    [`/all-products?search=${"x".repeat(101)}`, "search"],
    ["/all-products?range=cheap", "range"],
    ["/all-products?page=1&page=2", "page"],
    ["/counts?range=-1", "range"],
    ["/facets?range=-1", "range"],
    [`/facets?${"band=x&".repeat(21)}`, "band"],
    ["/all-products?option=Size", "option"],
    ["/counts?option=:M", "option"],
    ["/all-products?category=ok&category=%01", "category"],
    [`/counts?search=${"y".repeat(101)}`, "search"],
    [`/suggestions?search=${"z".repeat(101)}`, "search"],
    ["/suggestions?search=a%00b", "search"],
    ["/suggestions?search=a&search=b", "search"],
  ])("GET %s is a 400 naming %s", async (path, field) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as { error: { code: string; message: string; field: string } };
    const message = expect.stringContaining(field);
    expect(body).toEqual({
      error: { code: "invalid_parameter", field, message, fields: [{ field, message }] },
    });
  });

  it("refuses other methods with 405 and an Allow header", async () => {
    const response = await get("/all-products", { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
  });

  it("answers OPTIONS with the methods it takes", async () => {
    for (const path of ["/all-products", "/counts", "/suggestions", "/healthz"]) {
      const response = await get(path, { method: "OPTIONS" });
      expect(response.status, path).toBe(204);
      expect(response.headers.get("allow"), path).toBe("GET, HEAD");
    }
  });

  it("answers HEAD with the headers and no body", async () => {
    const response = await get("/counts", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBeTruthy();
    expect(await response.text()).toBe("");
  });

  it("compresses large answers for clients that accept gzip", async () => {
    const response = await get("/all-products?size=50", { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(((await response.json()) as unknown[]).length).toBe(50);
  });

  it("GET /healthz answers 200 {status: ok} once the database answers", async () => {
    const response = await get("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("sends security headers on API responses", async () => {
    const response = await get("/counts");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("random query strings never produce a 5xx", async () => {
    const names = ["page", "size", "sort", "search", "category", "band", "option", "range", "x"];
    const value = fc.oneof(
      fc.string({ maxLength: 120 }),
      fc.integer({ min: -10, max: 10_000_000 }).map(String),
      fc.constantFrom(
        "asc",
        "Size:41",
        "Colour:Blue",
        "dsc",
        "date-added",
        "rating",
        "",
        "%",
        "%zz",
        "1e9",
        "NaN",
        "0x10",
        " 5 ",
        "\u0000",
      ),
    );
    const query = fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(
        query,
        fc.constantFrom("/all-products", "/counts", "/facets", "/suggestions"),
        async (pairs, path) => {
          const search = new URLSearchParams(pairs).toString();
          const response = await get(`${path}?${search}`);
          await response.arrayBuffer();
          expect(response.status).toBeLessThan(500);
          expect([200, 400]).toContain(response.status);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("raw malformed percent-encoding never produces a 5xx", async () => {
    for (const path of [
      "/all-products?search=%E0%A4%A",
      "/all-products?%%%",
      "/counts?band=%ZZ",
      "/all-products?page=%00",
    ]) {
      const response = await get(path);
      expect(response.status).toBeLessThan(500);
    }
  });
});

reportPostgresSkipped("JSON API on $name");
