import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/client.server";
import { type NewProductRow, products } from "~/db/schema";
import { insertDemoBrandsAndCategories } from "~/db/seed/seed.server";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../../tests/support/test-database";
import type { CatalogQuery, Product } from "../core/catalog-schema";
import { readFacetValues } from "../core/product-rows.server";
import { cardOf } from "../search/card-shelf";
import { CatalogIndexBuilder } from "../search/index-builder.server";
import { searchVocabulary } from "../search/search-vocabulary.server";
import { countProducts, findProducts, readFacetMatrix, readOptionCounts } from "../search/sql-search.server";
import { type CatalogOptions, createCatalog } from "./catalog.server";
import { countsByValue, facetsOf } from "./facets";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 1);

/** A small catalogue with known values: ties in price and date on purpose. */
const FIXTURE: Omit<NewProductRow, "image">[] = [
  {
    name: "BlendMaster Pro 900 Blender",
    bandName: "blendMaster",
    category: "home appliances",
    priceMinor: 8999,
    ratings: 4.5,
    creationDate: new Date(NOW - 10 * DAY),
    description: "Crushes ice and frozen fruit in seconds.",
  },
  {
    name: "CampSafe Trail Lantern",
    bandName: "campSafe",
    category: "outdoor",
    priceMinor: 2450,
    ratings: 4.1,
    creationDate: new Date(NOW - 100 * DAY),
    description: "A rechargeable light for long nights at camp.",
  },
  {
    name: "CycleFit Running Shoes",
    bandName: "cycleFit",
    category: "fitness",
    priceMinor: 5900,
    ratings: 4,
    creationDate: new Date(NOW - 30 * DAY),
    description: "Light shoes for daily training.",
  },
  {
    name: "BlendMaster Stand Mixer",
    bandName: "blendMaster",
    category: "home appliances",
    priceMinor: 14_999,
    ratings: 4.8,
    creationDate: new Date(NOW - 5 * DAY),
    description: "Kneads dough and whips cream with a quiet motor.",
  },
  {
    name: "Artistry Linen Cushion",
    bandName: "artistry",
    category: "home goods",
    priceMinor: 2450,
    ratings: 3.9,
    creationDate: new Date(NOW - 200 * DAY),
    description: "Hand-stitched cover, lovely by a lantern-lit window.",
  },
  {
    name: "TeachPro Smart Tablet",
    bandName: "teachPro",
    category: "electronics",
    priceMinor: 19_999,
    ratings: 4.4,
    creationDate: new Date(NOW - 5 * DAY),
    description: "A tablet for classrooms with a sturdy case.",
  },
  {
    name: "CycleFit Yoga Mat",
    bandName: "cycleFit",
    category: "fitness",
    priceMinor: 500,
    ratings: 0,
    creationDate: new Date(NOW - 700 * DAY),
    description: "Non-slip mat for home workouts.",
  },
  {
    name: "CampSafe Dome Tent",
    bandName: "campSafe",
    category: "outdoor",
    priceMinor: 17_900,
    ratings: 4.6,
    creationDate: new Date(NOW - 60 * DAY),
    description: "Two-person tent that pitches in minutes.",
  },
  {
    name: "Artistry Ceramic Vase",
    bandName: "artistry",
    category: "home goods",
    priceMinor: 2450,
    ratings: 5,
    creationDate: new Date(NOW - 45 * DAY),
    description: "Glazed stoneware for fresh flowers.",
  },
  {
    name: "TeachPro Wireless Headphones",
    bandName: "teachPro",
    category: "electronics",
    priceMinor: 9995,
    ratings: 4.2,
    creationDate: new Date(NOW - 15 * DAY),
    description: "Clear sound for lessons and music.",
  },
  {
    name: "CycleFit Adjustable Dumbbells",
    bandName: "cycleFit",
    category: "fitness",
    priceMinor: 12_000,
    ratings: 4.7,
    creationDate: new Date(NOW - 365 * DAY),
    description: "From 2 to 24 kg with one twist.",
  },
  {
    name: "CampSafe Camping Stove",
    bandName: "campSafe",
    category: "outdoor",
    priceMinor: 5000,
    ratings: 3.5,
    creationDate: new Date(NOW - 15 * DAY),
    description: "Compact gas stove for the outdoor kitchen.",
  },
];

const BLENDER = FIXTURE[0] as NewProductRow;
const names = (list: Product[]) => list.map((product) => product.name);
const query = (overrides: Partial<CatalogQuery> = {}): CatalogQuery => ({ page: 1, size: 100, ...overrides });

/** Pages through a query with the given page size and returns every product seen. */
async function everyPage(db: Database, base: Partial<CatalogQuery>, size: number): Promise<Product[]> {
  const seen: Product[] = [];
  for (let page = 1; page < 100; page++) {
    const rows = await findProducts(db, query({ ...base, page, size }));
    if (rows.length === 0) break;
    seen.push(...rows);
  }
  return seen;
}

const engines = await openTestDatabases();

describe.each(engines)("catalogue queries on $name", (engine: TestDatabase) => {
  let db: Database;
  let ids: number[];

  beforeAll(async () => {
    db = engine.db;
    await insertDemoBrandsAndCategories(db);
    const inserted = await db
      .insert(products)
      .values(FIXTURE.map((product) => ({ ...product, image: "/images/products/test.svg" })))
      .returning({ id: products.id });
    ids = inserted.map((row) => row.id);
  });

  const idOf = (name: string) => ids[FIXTURE.findIndex((product) => product.name === name)];

  it("returns products with every API field, dates in ISO 8601 and prices as numbers", async () => {
    const [first] = await findProducts(db, query({ search: "pro 900", size: 1 }));
    expect(first).toEqual({
      id: idOf("BlendMaster Pro 900 Blender"),
      name: "BlendMaster Pro 900 Blender",
      image: "/images/products/test.svg",
      price: 89.99,
      ratings: 4.5,
      ratingCount: 0,
      bandName: "blendMaster",
      category: "home appliances",
      creationDate: new Date(NOW - 10 * DAY).toISOString(),
      description: "Crushes ice and frozen fruit in seconds.",
      priceMax: 89.99,
      variantCount: 1,
      compareAtPrice: null,
    });
  });

  /** The fixture best rated first, the newer of equal ratings first, then by id. */
  const bestRatedFirst = () =>
    FIXTURE.map((product, index) => ({ product, id: ids[index] as number }))
      .sort(
        (a, b) =>
          b.product.ratings - a.product.ratings ||
          (b.product.creationDate as Date).getTime() - (a.product.creationDate as Date).getTime() ||
          a.id - b.id,
      )
      .map(({ product }) => product.name);

  it("without sort or search, lists the best rated first, the newest among equals", async () => {
    const list = names(await findProducts(db, query()));
    expect(list).toEqual(bestRatedFirst());
    expect(list[0]).toBe("Artistry Ceramic Vase");
    expect(list.at(-1)).toBe("CycleFit Yoga Mat");
  });

  it("sorts by rating on request, the same order, and keeps it over relevance in a search", async () => {
    expect(names(await findProducts(db, query({ sort: "rating" })))).toEqual(bestRatedFirst());
    expect(names(await findProducts(db, query({ search: "campsafe", sort: "rating" })))).toEqual([
      "CampSafe Dome Tent",
      "CampSafe Trail Lantern",
      "CampSafe Camping Stove",
    ]);
  });

  it("pages by size: page 2 of 5 holds the sixth to tenth products", async () => {
    const page2 = await findProducts(db, query({ page: 2, size: 5 }));
    expect(names(page2)).toEqual(bestRatedFirst().slice(5, 10));
  });

  it("returns an empty page past the end", async () => {
    expect(await findProducts(db, query({ page: 4, size: 5 }))).toEqual([]);
  });

  it("sorts by price low to high, equal prices by id", async () => {
    const list = await findProducts(db, query({ sort: "asc" }));
    expect(list.map((product) => product.price)).toEqual([...list.map((p) => p.price)].sort((a, b) => a - b));
    const ties = list.filter((product) => product.price === 24.5).map((product) => product.id);
    expect(ties).toEqual([...ties].sort((a, b) => a - b));
    expect(list[0]?.name).toBe("CycleFit Yoga Mat");
  });

  it("sorts by price high to low, equal prices by id descending", async () => {
    const list = await findProducts(db, query({ sort: "dsc" }));
    expect(list[0]?.name).toBe("TeachPro Smart Tablet");
    expect(list.map((product) => product.price)).toEqual([...list.map((p) => p.price)].sort((a, b) => b - a));
    const ties = list.filter((product) => product.price === 24.5).map((product) => product.id);
    expect(ties).toEqual([...ties].sort((a, b) => b - a));
  });

  it("sorts by date added, newest first, equal dates by id descending", async () => {
    const list = await findProducts(db, query({ sort: "date-added" }));
    expect(names(list).slice(0, 2)).toEqual(["TeachPro Smart Tablet", "BlendMaster Stand Mixer"]);
    const dates = list.map((product) => product.creationDate);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it.each([
    [{}],
    [{ sort: "asc" as const }],
    [{ sort: "dsc" as const }],
    [{ sort: "date-added" as const }],
    [{ sort: "rating" as const }],
    [{ search: "camp" }],
    [{ category: ["fitness"], sort: "asc" as const }],
    [{ band: ["campSafe", "cycleFit"], sort: "rating" as const }],
    [{ range: 60, sort: "dsc" as const }],
  ])("paging through %o yields each product exactly once and agrees with the count", async (base) => {
    for (const size of [1, 2, 5]) {
      const seen = await everyPage(db, base, size);
      const uniqueIds = new Set(seen.map((product) => product.id));
      expect(uniqueIds.size).toBe(seen.length);
      const { sort: _sort, ...filters } = base as Partial<CatalogQuery>;
      expect(seen.length).toBe(await countProducts(db, filters));
      expect(names(seen)).toEqual(names(await findProducts(db, query(base))));
    }
  });

  it("filters by exact category", async () => {
    const list = await findProducts(db, query({ category: ["home goods"], sort: "date-added" }));
    expect(names(list)).toEqual(["Artistry Ceramic Vase", "Artistry Linen Cushion"]);
    expect(await countProducts(db, { category: ["home goods"] })).toBe(2);
  });

  it("filters by exact brand", async () => {
    const list = await findProducts(db, query({ band: ["campSafe"], sort: "asc" }));
    expect(names(list)).toEqual(["CampSafe Trail Lantern", "CampSafe Camping Stove", "CampSafe Dome Tent"]);
  });

  it("with several brands or categories, matches any of them", async () => {
    const list = await findProducts(db, query({ band: ["campSafe", "teachPro"], sort: "asc" }));
    expect(names(list)).toEqual([
      "CampSafe Trail Lantern",
      "CampSafe Camping Stove",
      "TeachPro Wireless Headphones",
      "CampSafe Dome Tent",
      "TeachPro Smart Tablet",
    ]);
    expect(await countProducts(db, { category: ["outdoor", "home goods"] })).toBe(5);
    expect(await countProducts(db, { category: ["outdoor", "toys"] })).toBe(3);
  });

  it("matches nothing for an unknown category or brand, or one in the wrong case", async () => {
    for (const filters of [
      { category: ["toys"] },
      { band: ["acme"] },
      { band: ["CampSafe"] },
      { category: ["Fitness"] },
    ]) {
      expect(await findProducts(db, query(filters))).toEqual([]);
      expect(await countProducts(db, filters)).toBe(0);
    }
  });

  it("limits by maximum price, the limit included", async () => {
    const list = await findProducts(db, query({ range: 50 }));
    expect(list.every((product) => product.price <= 50)).toBe(true);
    expect(names(list)).toContain("CampSafe Camping Stove");
    expect(await countProducts(db, { range: 50 })).toBe(5);
  });

  it("combines filters with AND", async () => {
    expect(
      names(await findProducts(db, query({ band: ["cycleFit"], category: ["fitness"], range: 60 }))),
    ).toEqual(["CycleFit Running Shoes", "CycleFit Yoga Mat"]);
    expect(await countProducts(db, { band: ["cycleFit"], category: ["fitness"], range: 60 })).toBe(2);
  });

  describe("search", () => {
    it("matches a partial word, case-insensitively", async () => {
      // Both have it in the name: the better rated comes first.
      expect(names(await findProducts(db, query({ search: "blend" })))).toEqual([
        "BlendMaster Stand Mixer",
        "BlendMaster Pro 900 Blender",
      ]);
      expect(names(await findProducts(db, query({ search: "BLENDMAS" })))).toHaveLength(2);
    });

    it("finds a word by its stem ('mixers' finds 'Mixer')", async () => {
      expect(names(await findProducts(db, query({ search: "mixers" })))).toEqual(["BlendMaster Stand Mixer"]);
    });

    it("finds a prefix of the written word even where the stem is shorter ('runn' finds 'Running')", async () => {
      expect(names(await findProducts(db, query({ search: "runn" })))).toEqual(["CycleFit Running Shoes"]);
    });

    it("searches brand, category and description too", async () => {
      expect(names(await findProducts(db, query({ search: "campsafe" })))).toHaveLength(3);
      expect(await countProducts(db, { search: "appliances" })).toBe(2);
      expect(names(await findProducts(db, query({ search: "stoneware" })))).toEqual([
        "Artistry Ceramic Vase",
      ]);
    });

    it("requires every word", async () => {
      expect(names(await findProducts(db, query({ search: "camp stove" })))).toEqual([
        "CampSafe Camping Stove",
      ]);
      expect(await findProducts(db, query({ search: "camp blender" }))).toEqual([]);
    });

    it("ranks a match in the name above a match in the description", async () => {
      expect(names(await findProducts(db, query({ search: "lantern" })))).toEqual([
        "CampSafe Trail Lantern",
        "Artistry Linen Cushion",
      ]);
    });

    it("keeps the chosen sort over relevance", async () => {
      const list = await findProducts(db, query({ search: "campsafe", sort: "asc" }));
      expect(list.map((product) => product.price)).toEqual([24.5, 50, 179]);
    });

    it("treats tsquery syntax as plain text, and a search of only punctuation or emoji as matching nothing", async () => {
      expect(names(await findProducts(db, query({ search: "tent & | ! :* ('" })))).toEqual([
        "CampSafe Dome Tent",
      ]);
      for (const search of ["&|!():*", "🔥🔥", "—"]) {
        expect(await countProducts(db, { search }), search).toBe(0);
        expect(await findProducts(db, query({ search })), search).toEqual([]);
      }
    });

    it("matches a one-character word as a whole word, not as the start of every word", async () => {
      // "From 2 to 24 kg": "2" finds the dumbbells by their word "2", and nothing by "24" or "200".
      expect(names(await findProducts(db, query({ search: "2" })))).toEqual([
        "CycleFit Adjustable Dumbbells",
      ]);
      expect(await countProducts(db, { search: "t" })).toBe(0);
      expect(await countProducts(db, { search: "te" })).toBeGreaterThan(0);
    });

    it("returns nothing for a word no product has", async () => {
      expect(await findProducts(db, query({ search: "zeppelin" }))).toEqual([]);
      expect(await countProducts(db, { search: "zeppelin" })).toBe(0);
    });
  });

  describe("facets", () => {
    const facetsFor = async (filters: Parameters<typeof countProducts>[1]) =>
      facetsOf(
        await readFacetMatrix(db, filters),
        await readFacetValues(db),
        filters,
        await readFacetMatrix(db, { ...filters, inStock: true }),
        {
          counts: countsByValue(await readOptionCounts(db, filters)),
          every: countsByValue(await readOptionCounts(db, {})),
        },
      );
    const countsOf = (choices: { value: string; count: number }[]) =>
      Object.fromEntries(choices.map((choice) => [choice.value, choice.count]));

    it("lists every brand and category from the data, labelled, in the owner's order, with its count", async () => {
      const facets = await facetsFor({});
      expect(facets.count).toBe(FIXTURE.length);
      expect(facets.brands.map((brand) => brand.label)).toEqual([
        "TeachPro",
        "CycleFit",
        "BlendMaster",
        "Artistry",
        "CampSafe",
      ]);
      expect(facets.categories[2]).toEqual({ value: "home appliances", label: "Home appliances", count: 2 });
      expect(countsOf(facets.brands)).toEqual({
        teachPro: 2,
        cycleFit: 3,
        blendMaster: 2,
        artistry: 2,
        campSafe: 3,
      });
    });

    it("counts a facet's choices with the other filters applied but not its own (disjunctive)", async () => {
      const filters = { band: ["campSafe"], category: ["outdoor", "fitness"], range: 100 };
      const facets = await facetsFor(filters);
      // Brands: within outdoor or fitness up to $100, whichever brands are chosen.
      expect(countsOf(facets.brands)).toEqual({
        teachPro: 0,
        cycleFit: 2,
        blendMaster: 0,
        artistry: 0,
        campSafe: 2,
      });
      // Categories: CampSafe's up to $100, whichever categories are chosen.
      expect(countsOf(facets.categories)).toMatchObject({ outdoor: 2, fitness: 0, electronics: 0 });
      // And the listing's own count is exactly what the query finds.
      expect(facets.count).toBe(await countProducts(db, filters));
      expect(facets.count).toBe(2);
    });

    it("agrees with the count query for any mix of filters", async () => {
      for (const filters of [
        { search: "camp" },
        { search: "blend", range: 100 },
        { band: ["cycleFit", "teachPro"], category: ["fitness"] },
        { band: ["acme"] },
        { category: ["home goods", "outdoor"], search: "lantern" },
      ]) {
        expect((await facetsFor(filters)).count, JSON.stringify(filters)).toBe(
          await countProducts(db, filters),
        );
      }
    });

    it("offers the one filter whose removal brings the most products back", async () => {
      const catalog = createCatalog(db, { cacheSeconds: 0 });
      // No CampSafe product is in fitness. Up to $55, dropping the category shows CampSafe's 2,
      // dropping the brand fitness's 1, dropping the price cap nothing.
      expect(await catalog.wayBack({ band: ["campSafe"], category: ["fitness"], range: 55 })).toEqual({
        drop: "category",
        count: 2,
      });
      expect(await catalog.wayBack({ search: "lantern", range: 20 })).toEqual({ drop: "range", count: 2 });
      expect(await catalog.wayBack({ search: "zeppelin", band: ["cycleFit"] })).toEqual({
        drop: "search",
        count: 3,
      });
      expect(await catalog.wayBack({ band: ["acme"], category: ["toys"] })).toBeNull();
    });
  });

  describe("createCatalog", () => {
    it("reuses answers within the cache time and reads afresh after clear()", async () => {
      const catalog = createCatalog(db, { cacheSeconds: 60 });
      const before = await catalog.countProducts({ search: "kettle" });
      await db.insert(products).values({ ...BLENDER, name: "BlendMaster Kettle", image: "/k.svg" });
      expect((await catalog.countProducts({ search: "kettle" })).value).toEqual(before.value);
      catalog.clear();
      expect((await catalog.countProducts({ search: "kettle" })).value.count).toBe(before.value.count + 1);
      await db.execute(sql`delete from products where name = 'BlendMaster Kettle'`);
    });

    it("with the cache off, answers a change as soon as it is announced", async () => {
      const catalog = createCatalog(db, { cacheSeconds: 0 });
      const before = (await catalog.countProducts({})).value.count;
      await db.insert(products).values({ ...BLENDER, name: "Temporary", image: "/t.svg" });
      // What the database's notification does in the shop (server/services.ts).
      catalog.changed();
      await catalog.indexReady();
      expect((await catalog.countProducts({})).value.count).toBe(before + 1);
      await db.execute(sql`delete from products where name = 'Temporary'`);
    });
  });
});

reportPostgresSkipped("catalogue queries on $name");

/** The cache's clock, held by the test. A fake clock starts at 0, which lru-cache reads as "no start time": start it later. */
function holdCacheClock() {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
  vi.advanceTimersByTime(1_000);
}

describe("the catalogue cache", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A catalogue over queries the test writes, with no database and no search index behind them. */
  const stubbedCatalog = (options: CatalogOptions, replaced: Parameters<typeof createCatalog>[2]) =>
    createCatalog({} as Database, options, {
      readCatalogIndex: async () => null,
      readSkuProducts: async () => [],
      readStockChanges: async () => ({ horizon: "1", levels: new Map() }),
      readStockLevels: async (_db, ids) => new Map(ids.map((id) => [id, 3])),
      ...replaced,
    });
  /** An index of one product, "Product 1", whose name and search vector hold "blender". */
  const blenderIndex = () => {
    const builder = new CatalogIndexBuilder();
    const product = page(1)[0] as Product;
    builder.add({
      ...product,
      card: cardOf(product),
      priceMinor: 1000,
      ratingTenths: 40,
      createdMicros: 0,
      variants: null,
      lexemes: ["blender"],
      nameLexemes: ["blender"],
      inStock: true,
    });
    return builder.build(1);
  };
  const page = (size: number): Product[] =>
    Array.from({ length: size }, (_, i) => ({
      id: i + 1,
      name: `Product ${i + 1}`,
      image: "/images/products/p.svg",
      price: 10,
      priceMax: 10,
      variantCount: 1,
      compareAtPrice: null,
      ratings: 4,
      ratingCount: 3,
      bandName: "cycleFit",
      category: "fitness",
      creationDate: "2026-01-01T00:00:00.000Z",
      description: "x".repeat(400),
    }));

  it("lets simultaneous identical requests share one query", async () => {
    let queries = 0;
    const catalog = stubbedCatalog(
      { cacheSeconds: 10 },
      {
        findProducts: async () => {
          queries++;
          await new Promise((resolve) => setImmediate(resolve));
          return page(5);
        },
        countProducts: async () => 5,
      },
    );
    const answers = await Promise.all(Array.from({ length: 10 }, () => catalog.findProducts(query({}))));
    expect(queries).toBe(1);
    expect(new Set(answers).size).toBe(1);
  });

  it("asks the database for a search word's stem once, however many searches ask for it together", async () => {
    const index = blenderIndex();
    let stemReads = 0;
    const catalog = stubbedCatalog(
      { cacheSeconds: 0 },
      {
        readCatalogIndex: async () => ({ index, money: { currency: "USD", locale: "en-US" } }),
        readSearchVocabulary: async () => searchVocabulary(["blender"]),
        readWordStem: async (_db, typed) => {
          stemReads++;
          return [{ lexeme: typed, prefix: true }];
        },
      },
    );
    await catalog.indexReady();
    const counts = await Promise.all(
      Array.from({ length: 5 }, () => catalog.countProducts({ search: "blend" })),
    );
    expect(counts.map((answer) => answer.value.count)).toEqual([1, 1, 1, 1, 1]);
    expect(catalog.indexInUse()).not.toBeNull();
    expect(stemReads).toBe(1);
  });

  it("keeps what the database answers, and an index answer only when it was costly to make", async () => {
    const index = blenderIndex();
    const [product] = page(1) as [Product];
    let sqlPages = 0;
    let stockReads = 0;
    const withIndex = stubbedCatalog(
      { cacheSeconds: 10 },
      {
        readCatalogIndex: async () => ({ index, money: { currency: "USD", locale: "en-US" } }),
        findProducts: async () => {
          sqlPages++;
          return [];
        },
        readStockLevels: async (_db, ids) => {
          stockReads++;
          return new Map(ids.map((id) => [id, 7]));
        },
      },
    );
    await withIndex.indexReady();
    // An answer's cost is read on the process's clock: held still, every answer takes 0 ms (below the
    // 1 ms default), however slow a loaded machine makes the first one. Held past 0, which lru-cache
    // reads as "no start time" and would re-arm an expiry timer every millisecond for ever.
    vi.useFakeTimers({ toFake: ["performance"] });
    vi.advanceTimersByTime(1_000);
    for (let asked = 0; asked < 2; asked++) {
      expect((await withIndex.countProducts({})).value).toEqual({ count: 1 });
    }
    expect(withIndex.cacheUsage().entries).toBe(0);
    // A page's stock comes from the process's stock snapshot, read by id once: the page is an index
    // answer like the others, made again when asked again.
    for (let asked = 0; asked < 2; asked++) {
      expect((await withIndex.findProducts({ page: 1, size: 5 })).value).toEqual([{ ...product, stock: 7 }]);
    }
    expect(stockReads).toBe(1);
    expect(withIndex.cacheUsage().entries).toBe(0);
    expect(sqlPages).toBe(0);
    // Every index answer counted as costly: each is kept, and asked again it is the same answer.
    const keeping = stubbedCatalog(
      { cacheSeconds: 10, keepIndexAnswersFromMs: 0 },
      { readCatalogIndex: async () => ({ index, money: { currency: "USD", locale: "en-US" } }) },
    );
    await keeping.indexReady();
    const first = await keeping.countProducts({});
    expect(await keeping.countProducts({})).toBe(first);
    expect(keeping.cacheUsage().entries).toBe(1);

    const withoutIndex = stubbedCatalog(
      { cacheSeconds: 10 },
      { findProducts: async () => page(1), countProducts: async () => 1 },
    );
    await withoutIndex.findProducts({ page: 1, size: 5 });
    await withoutIndex.countProducts({});
    expect(withoutIndex.cacheUsage().entries).toBe(2);
  });

  it("after a failed vocabulary read, searches go on matching words as typed without asking again at once", async () => {
    let reads = 0;
    const catalog = stubbedCatalog(
      { cacheSeconds: 10 },
      {
        readSearchVocabulary: async () => {
          reads++;
          throw new Error("canceling statement due to statement timeout");
        },
      },
    );
    expect(await catalog.searchWords("blendr")).toEqual([{ typed: "blendr", alike: [], corrected: false }]);
    expect(await catalog.searchWords("headphnes")).toHaveLength(1);
    expect(reads).toBe(1);
  });

  it("answers a request whose expired answer is let go while the new one is being read", async () => {
    holdCacheClock();
    let count = 1;
    let release: () => void = () => {};
    const catalog = stubbedCatalog(
      { cacheSeconds: 10 },
      {
        findProducts: async () => page(1),
        countProducts: async () => {
          if (count === 2) await new Promise<void>((resolve) => (release = resolve));
          return count;
        },
      },
    );
    expect((await catalog.countProducts({})).value.count).toBe(1);
    count = 2;
    // Expired, but not yet let go: lru-cache lets an expired answer go 1 ms after it expires.
    await vi.advanceTimersByTimeAsync(10_000.5);
    const refreshed = catalog.countProducts({});
    await vi.advanceTimersByTimeAsync(5);
    release();
    expect((await refreshed).value.count).toBe(2);
  });

  it("does not remember a failed read: the next request asks the database again", async () => {
    let calls = 0;
    const catalog = stubbedCatalog(
      { cacheSeconds: 10 },
      {
        findProducts: async () => page(1),
        countProducts: async () => {
          calls++;
          if (calls === 1) throw new Error("connection refused");
          return 42;
        },
      },
    );
    await expect(catalog.countProducts({})).rejects.toThrow("connection refused");
    expect((await catalog.countProducts({})).value).toEqual({ count: 42 });
    expect(calls).toBe(2);
  });

  it("reads afresh once an answer has expired, and lets the expired answer go", async () => {
    holdCacheClock();
    let count = 1;
    const catalog = stubbedCatalog(
      { cacheSeconds: 10 },
      {
        findProducts: async () => page(1),
        countProducts: async () => count,
      },
    );
    expect((await catalog.countProducts({})).value.count).toBe(1);
    count = 2;
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await catalog.countProducts({})).value.count).toBe(1);
    expect(catalog.cacheUsage().entries).toBe(1);
    await vi.advanceTimersByTimeAsync(6_000);
    // Gone without being asked for again: expired answers do not sit in memory.
    expect(catalog.cacheUsage()).toEqual({ entries: 0, bytes: 0 });
    expect((await catalog.countProducts({})).value.count).toBe(2);
  });

  it("holds no more bytes than its limit, however many different pages are asked for", async () => {
    const limit = 2 * 1024 * 1024;
    const catalog = stubbedCatalog(
      { cacheSeconds: 60, cacheMaxBytes: limit },
      {
        findProducts: async (_db, asked) => page(asked.size),
        countProducts: async () => 100,
      },
    );
    const one = await catalog.findProducts(query({ size: 100, page: 1 }));
    // Each answer weighs about 3× its JSON: 100 products of ~550 bytes each.
    expect(one.json.length).toBeGreaterThan(50_000);
    for (let pageNumber = 2; pageNumber <= 500; pageNumber++) {
      await catalog.findProducts(query({ size: 100, page: pageNumber }));
      expect(catalog.cacheUsage().bytes).toBeLessThanOrEqual(limit);
    }
    const { entries, bytes } = catalog.cacheUsage();
    expect(entries).toBeGreaterThan(5);
    expect(entries).toBeLessThan(20);
    expect(bytes).toBeGreaterThan(limit / 2);
  });
});
