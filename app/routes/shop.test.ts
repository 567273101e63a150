import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { ShopServices } from "~/context.server";
import type { DatabaseHandle } from "~/db/client.server";
import { type NewProductRow, products } from "~/db/schema";
import { insertDemoBrandsAndCategories } from "~/db/seed/seed.server";
import { type Catalog, createCatalog } from "~/features/catalog/browsing/catalog.server";
import { readFacetValues } from "~/features/catalog/core/product-rows.server";
import { createSearchRateLimit } from "~/features/catalog/search/index.server";
import { countProducts, findProducts, readFacetMatrix } from "~/features/catalog/search/sql-search.server";
import { ok, runLoader } from "../../tests/support/route-loader";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { loader } from "./shop";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 0, 15);

/** Twelve products: eight BlendMaster blenders (the first of them cheapest) and four CycleFit items. */
const FIXTURE: NewProductRow[] = Array.from({ length: 12 }, (_, index) => {
  const blender = index < 8;
  return {
    name: blender ? `BlendMaster Blender ${index + 1}` : `CycleFit Trainer ${index + 1}`,
    bandName: blender ? "blendMaster" : "cycleFit",
    category: blender ? "home appliances" : "fitness",
    priceMinor: (20 + index * 15) * 100,
    ratings: 4,
    creationDate: new Date(NOW - index * DAY),
    description: "A product for the shop page tests.",
    image: `/images/products/test-${index + 1}.svg`,
  };
});

const run = (path: string, services: Partial<ShopServices>) => runLoader(loader, path, services);

const engines = await openTestDatabases();

describe.each(engines)("shop page loader on $name", (engine: TestDatabase) => {
  let services: Partial<ShopServices>;
  beforeAll(async () => {
    await insertDemoBrandsAndCategories(engine.db);
    await engine.db.insert(products).values(FIXTURE);
    // The requests below arrive as http://shop.test: canonical links must come from BASE_URL instead.
    services = {
      baseUrl: "https://shop.example.com",
      catalog: createCatalog(engine.db, { cacheSeconds: 0 }),
    };
  });

  it("reads one page of five products and the count of every match", async () => {
    const { status, body } = await run("/?band=blendMaster&sort=asc&page=2", services);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: "ok",
      count: 8,
      query: { band: ["blendMaster"], sort: "asc", page: 2, size: 5 },
    });
    const names = (ok(body).products as { name: string }[]).map((product) => product.name);
    expect(names).toEqual(["BlendMaster Blender 6", "BlendMaster Blender 7", "BlendMaster Blender 8"]);
  });

  it("reads the facets from the data: labels, and counts that ignore their own facet", async () => {
    const { body } = await run("/?band=blendMaster&category=fitness", services);
    expect(body).toMatchObject({ status: "ok", count: 0 });
    const facets = ok(body).facets as { brands: { value: string; count: number }[]; categories: unknown[] };
    expect(facets.brands).toContainEqual({ value: "cycleFit", label: "CycleFit", count: 4 });
    expect(facets.brands).toContainEqual({ value: "blendMaster", label: "BlendMaster", count: 0 });
    expect(facets.categories).toContainEqual({
      value: "home appliances",
      label: "Home appliances",
      count: 8,
    });
    // Nothing matches: dropping the category brings back BlendMaster's 8, more than dropping the brand (fitness's 4).
    expect(ok(body).wayBack).toEqual({ drop: "category", count: 8 });
  });

  it("reads a search word by word, a typo with its close spelling, and offers a respelling when nothing matches", async () => {
    const typo = ok((await run("/?search=blendr", services)).body);
    expect(typo.searchWords).toEqual([{ typed: "blendr", alike: ["blender"], corrected: true }]);
    expect(typo.count).toBe(8);
    const far = await run("/?search=blxndxr", services);
    expect(far.status).toBe(200);
    expect(ok(far.body)).toMatchObject({ count: 0, didYouMean: { search: "blender", count: 8 } });
  });

  it("answers a search with no word in it as no products (200), not as the catalogue being down", async () => {
    const { status, body } = await run(`/?search=${encodeURIComponent("?!🔥")}`, services);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "ok", count: 0, searchWords: [], didYouMean: null });
    expect(ok(body).wayBack).toMatchObject({ drop: "search" });
  });

  it("labels each card's brand and category from the data", async () => {
    const { body } = await run("/?category=fitness", services);
    const [first] = ok(body).products as Record<string, unknown>[];
    expect(first).toMatchObject({ bandName: "cycleFit", brandLabel: "CycleFit", categoryLabel: "Fitness" });
  });

  it.each([
    ["/?range=47", "/?range=45"],
    ["/?range=48&band=cycleFit&page=2", "/?band=cycleFit&range=50&page=2"],
    ["/?range=500", "/?range=200"],
    ["/?range=1", "/?range=5"],
    ["/?range=49.99", "/?range=50"],
  ])("moves a price the slider cannot show to the one it shows: %s → %s", async (from, to) => {
    expect(await run(from, services)).toEqual({ status: 302, location: to });
  });

  it("does not send what the cards never show", async () => {
    const { body } = await run("/", services);
    const [first] = ok(body).products as Record<string, unknown>[];
    expect(first).not.toHaveProperty("description");
    expect(first).toMatchObject({
      name: expect.any(String),
      image: expect.any(String),
      creationDate: expect.any(String),
    });
  });

  it("shows each card's stock, and with inStock=1 only the products in stock, counted like the other facets", async () => {
    // The last two blenders sold out, the rest with a few or plenty: every other test sees all twelve as listed.
    await engine.db.execute(sql`update stock_levels set on_hand = 3`);
    await engine.db.execute(
      sql`update stock_levels set on_hand = 0 where product_id in
          (select id from products where name in ('BlendMaster Blender 7', 'BlendMaster Blender 8'))`,
    );
    // What the database announces (LISTEN/NOTIFY in the shop): the crossings are applied to the index.
    const catalog = services.catalog as Catalog;
    catalog.changed();
    await catalog.indexReady();
    const all = ok((await run("/?band=blendMaster&sort=asc", services)).body);
    expect(all.count).toBe(8);
    expect((all.facets as { inStock: number }).inStock).toBe(6);
    const { status, body } = await run("/?band=blendMaster&inStock=1&sort=dsc", services);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "ok", count: 6, query: { inStock: true } });
    const cards = ok(body).products as { name: string; stock: number }[];
    expect(cards.map((card) => card.name)).toEqual([
      "BlendMaster Blender 6",
      "BlendMaster Blender 5",
      "BlendMaster Blender 4",
      "BlendMaster Blender 3",
      "BlendMaster Blender 2",
    ]);
    expect(cards.map((card) => card.stock)).toEqual([3, 3, 3, 3, 3]);
    const facets = ok(body).facets as { brands: { value: string; count: number }[]; inStock: number };
    expect(facets.inStock).toBe(6);
    expect(facets.brands).toContainEqual({ value: "cycleFit", label: "CycleFit", count: 4 });
    await engine.db.execute(sql`update stock_levels set on_hand = 0`);
    catalog.changed();
    await catalog.indexReady();
  });

  it("always shows five a page, whatever size the URL asks for", async () => {
    const { body } = await run("/?size=50", services);
    expect((ok(body).products as unknown[]).length).toBe(5);
  });

  it("answers a page past the end with 404, no products and the true count (the page's way back needs it)", async () => {
    const { status, body } = await run("/?page=99", services);
    expect(status).toBe(404);
    expect(body).toMatchObject({ status: "ok", count: 12, products: [] });
    expect((await run("/?band=cycleFit&page=2", services)).status).toBe(404);
    // The last page is a page.
    expect((await run("/?page=3", services)).status).toBe(200);
  });

  it("answers no matching products on page 1 with 200 (an empty listing is a listing), past it with 404", async () => {
    const empty = await run("/?band=cycleFit&category=home+appliances", services);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ status: "ok", count: 0, products: [] });
    expect((await run("/?band=cycleFit&category=home+appliances&page=2", services)).status).toBe(404);
  });

  it("keeps the last brands and categories read, with their labels, while the catalogue cannot be read", async () => {
    let down = false;
    // The database's queries, until it goes down.
    const unlessDown =
      <A extends unknown[], R>(query: (...args: A) => Promise<R>) =>
      (...args: A) =>
        down ? Promise.reject(new Error("connection refused")) : query(...args);
    const catalog = createCatalog(
      engine.db,
      { cacheSeconds: 0 },
      {
        readCatalogIndex: async () => null,
        findProducts: unlessDown(findProducts),
        countProducts: unlessDown(countProducts),
        readFacetMatrix: unlessDown(readFacetMatrix),
        readFacetValues: unlessDown(readFacetValues),
      },
    );
    const withCatalog = { ...services, catalog };
    expect((await run("/", withCatalog)).status).toBe(200);
    down = true;
    const { status, body } = await run("/?category=fitness", withCatalog);
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: "unavailable", query: { category: ["fitness"] } });
    // Every choice, named as the shop names it; no counts, which cannot be known.
    const facets = ok(body).facets as { brands: unknown[]; categories: unknown[] };
    expect(facets.brands).toContainEqual({ value: "cycleFit", label: "CycleFit", count: null });
    expect(facets.categories).toContainEqual({ value: "fitness", label: "Fitness", count: null });
    expect(facets.categories).toContainEqual({
      value: "home appliances",
      label: "Home appliances",
      count: null,
    });
  });

  it("counts searches against the client's share: past it, 429 with the wait, before any work", async () => {
    const limited = { ...services, searchLimit: createSearchRateLimit({ points: 2, duration: 60 }) };
    expect((await run("/?search=blender", limited)).status).toBe(200);
    expect((await run("/?search=blendr", limited)).status).toBe(200);
    // Browsing without a search is never counted.
    expect((await run("/?category=fitness", limited)).status).toBe(200);
    expect(await run("/?search=trainer", limited)).toEqual({
      status: 429,
      body: expect.stringMatching(/^Too many searches\. Try again in \d+ seconds\.$/),
    });
  });

  it("gives a canonical URL on BASE_URL, never the request's Host, with brand and category only", async () => {
    const { body } = await run("/?category=fitness&search=trainer&sort=dsc&page=1", services);
    expect(ok(body).canonicalUrl).toBe("https://shop.example.com/?category=fitness");
  });
});

describe("shop page loader", () => {
  it("redirects the empty fields of a no-JavaScript form to the tidy URL", async () => {
    expect(await run("/?band=&category=fitness&range=0&search=&sort=", {})).toEqual({
      status: 302,
      location: "/?category=fitness",
    });
    expect(await run("/?band=&category=&range=0&search=&sort=", {})).toEqual({ status: 302, location: "/" });
  });

  it("refuses a malformed URL with 400 and a message naming the parameter", async () => {
    const { status, body } = await run("/?page=abc", {});
    expect(status).toBe(400);
    expect(body).toMatch(/page/);
    const stock = await run("/?inStock=yes", {});
    expect(stock.status).toBe(400);
    expect(stock.body).toMatch(/inStock/);
  });

  it("renders an inline error state (503), not a crash, when the catalogue cannot be read", async () => {
    const failure = () => Promise.reject(new Error("connection refused"));
    const catalog = {
      findProducts: failure,
      countProducts: failure,
      listingFacets: failure,
      facetValues: failure,
      searchWords: failure,
      clear: () => {},
    } as unknown as Catalog;
    const database = {} as DatabaseHandle;
    const { status, body } = await run("/?search=mixer", { baseUrl: "http://shop.test", catalog, database });
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: "unavailable", query: { search: "mixer" } });
  });
});

reportPostgresSkipped("shop page loader on $name");
