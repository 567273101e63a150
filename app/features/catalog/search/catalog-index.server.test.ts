import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { writeProductVariants } from "~/commerce/variant-writing.server";
import { type NewProductRow, products } from "~/db/schema";
import { DEMO_BRANDS, DEMO_CATEGORIES } from "~/db/seed/demo-brands-and-categories";
import { DEMO_PRODUCTS } from "~/db/seed/demo-catalog";
import { seedDemoCatalog } from "~/db/seed/seed.server";
import { COMMAND_LINE } from "~/utils/audit-log.server";
import { type RandomSource, randomSource } from "../../../../tests/support/random-source";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../../tests/support/test-database";
import { type Catalog, createCatalog } from "../browsing/catalog.server";
import type { CatalogFilters, CatalogQuery } from "../core/catalog-schema";
import { SORT_VALUES } from "../core/catalog-vocabulary";
import type { CatalogIndex } from "./catalog-index.server";
import { CatalogIndexBuilder } from "./index-builder.server";
import { keepCatalogIndex } from "./index-keeping.server";
import { readCatalogRevision } from "./index-read.server";

/**
 * The search index (catalog-index.server.ts) answers every page, count and
 * facet from memory; the SQL queries answer while it is being read. Both must
 * give the same answers: here, thousands of queries of every kind are asked
 * of a catalogue with an index and of the same catalogue without one, on
 * each database engine.
 */
const engines = await openTestDatabases();

const DAY = 24 * 60 * 60 * 1000;

/**
 * 2,000 products made of the demo's names and descriptions, with few prices,
 * ratings and dates, so that ties in every order are common.
 */
function variedProducts(count: number): NewProductRow[] {
  const random = randomSource(42);
  const start = Date.UTC(2026, 0, 1);
  return Array.from({ length: count }, (_, i) => {
    const demo = DEMO_PRODUCTS[i % DEMO_PRODUCTS.length] as (typeof DEMO_PRODUCTS)[number];
    return {
      name: random.next() < 0.5 ? demo.name : `${demo.name} ${random.pick(["Mini", "Pro", "Air", "Max"])}`,
      // Some in letters of more than one byte (and a quote and a backslash): the index keeps cards as UTF-8.
      description:
        i % 7 === 0 ? `${demo.description} Café-grade, über “quiet” \\ 日本製 ☕` : demo.description,
      image: "/images/products/p.svg",
      priceMinor: random.pick([500, 999, 1950, 4999, 5000, 8999, 12_000, 19_999, 20_000]),
      ratings: random.int(11) / 2,
      bandName: random.pick(DEMO_BRANDS).value,
      category: random.pick(DEMO_CATEGORIES).value,
      // Microseconds apart at times: the index must order ties as PostgreSQL does.
      creationDate: new Date(start + random.int(40) * DAY + random.int(3)),
    };
  });
}

/** Options a product may have, each with the values it may be made in. */
const OPTIONS = [
  { name: "Size", values: ["XL", "S", "M", "L", "40", "41"] },
  { name: "Colour", values: ["Red", "Blue", "Green"] },
  { name: "Material", values: ["Wool", "Cotton"] },
];

/** Choices of option values, some no product has ("Size:XXL", "Fit:Slim"). */
const OPTION_CHOICES = [
  "Size:M",
  "Size:L",
  "Size:41",
  "Size:XXL",
  "Colour:Red",
  "Colour:Blue",
  "Material:Wool",
  "Fit:Slim",
];

/**
 * Gives products options and variants, as the owner does (the variant
 * writer): one to three options, some combinations not made, some archived
 * by a later save. Returns nothing: the index and the SQL read them.
 */
async function giveOptions(engine: TestDatabase, ids: number[], random: RandomSource) {
  for (const id of ids) {
    const options = random
      .some(OPTIONS)
      .slice(0, 3)
      .map((option) => ({ name: option.name, values: random.some(option.values).slice(0, 3) }))
      .filter((option) => option.values.length > 0);
    if (options.length === 0) continue;
    const combinations = options.reduce<string[][]>(
      (made, option) => made.flatMap((values) => option.values.map((value) => [...values, value])),
      [[]],
    );
    const made = combinations.filter((_, at) => at === 0 || random.next() < 0.7);
    const written = await writeProductVariants(
      engine.db,
      id,
      {
        options: options.map((option) => ({
          name: option.name,
          values: option.values.map((value) => ({ value })),
        })),
        variants: made.map((values, at) => ({
          values,
          sku: `opt-${id}-${values.join("-")}`,
          priceMinor: random.pick([500, 999, 4999, 12_000]) + at,
          onHand: random.int(3),
        })),
      },
      COMMAND_LINE,
    );
    if (!written.ok) throw new Error(`variants refused: ${written.message}`);
  }
}

/** Searches of every kind: prefixes, one letter, stop words, typos, compounds, stems, several words, none. */
const SEARCHES = [
  undefined,
  "b",
  "bl",
  "blend",
  "BLENDER",
  "blendr",
  "headphnes",
  "phones",
  "mixers",
  "running",
  "yoga mta",
  "yoga mat",
  "the",
  "the lantern",
  "a",
  "40",
  "6mm",
  "camp light",
  "zeppelin",
  "!!!",
  "ho",
  "pro air",
  "kettle",
  "café",
  "über",
  "naïve",
  // A live variant's SKU, in any case, finds its product (the demo's shoes; one variant's SKU is "Lantern-7").
  "cyclefit-running-shoes-41-blue",
  "CYCLEFIT-RUNNING-SHOES-40-BLACK",
  "lantern-7",
];

function randomQuery(random: RandomSource): CatalogQuery {
  const query: CatalogQuery = {
    page: 1 + random.int(random.next() < 0.7 ? 3 : 40),
    size: 1 + random.int(20),
  };
  const search = random.pick(SEARCHES);
  if (search !== undefined) query.search = search;
  const band = random.some(DEMO_BRANDS.map((brand) => brand.value));
  if (band.length > 0 && random.next() < 0.5) query.band = band.sort();
  const category = random.some(DEMO_CATEGORIES.map((category) => category.value));
  if (category.length > 0 && random.next() < 0.5) query.category = category.sort();
  if (random.next() < 0.3) query.range = random.pick([5, 19.5, 49.99, 50, 100, 150, 199.99]);
  if (random.next() < 0.3) query.inStock = true;
  const option = random.some(OPTION_CHOICES).slice(0, 3);
  if (option.length > 0 && random.next() < 0.4) query.option = option.sort();
  if (random.next() < 0.6) query.sort = random.pick(SORT_VALUES);
  return query;
}

const filtersOf = ({ page: _page, size: _size, sort: _sort, ...filters }: CatalogQuery): CatalogFilters =>
  filters;

describe.each(engines)("the search index, on $name", (engine: TestDatabase) => {
  let indexed: Catalog;
  let withoutIndex: Catalog;

  beforeAll(async () => {
    await seedDemoCatalog(engine.db);
    await engine.db.insert(products).values(variedProducts(2_000));
    // The dearest price the shop takes: more cents than 32 bits count.
    await engine.db.insert(products).values({
      ...(variedProducts(1)[0] as NewProductRow),
      name: "Gold Lantern",
      priceMinor: 9_999_999_999,
    });
    // About a third sold out, the rest with a few or many on hand.
    await engine.db.execute(sql`update stock_levels set on_hand = (product_id * 7) % 3 * (product_id % 5)`);
    const ids = await engine.db.select({ id: products.id }).from(products);
    await giveOptions(
      engine,
      ids.map(({ id }) => id).filter((id) => id % 17 === 0),
      randomSource(5),
    );
    // A SKU that is also words: its product and every product with the words match it.
    await engine.db.execute(
      sql`update product_variants set sku = 'Lantern-7' where id = (select min(id) from product_variants where option1 is not null and product_id > 100)`,
    );
    indexed = createCatalog(engine.db, { cacheSeconds: 0 });
    withoutIndex = createCatalog(engine.db, { cacheSeconds: 0 }, { readCatalogIndex: async () => null });
    await indexed.indexReady();
  });

  it("is read with every product", async () => {
    const [row] = await engine.db.select({ count: sql<number>`count(*)::int` }).from(products);
    expect(indexed.indexInUse()?.products).toBe(row?.count);
    expect(withoutIndex.indexInUse()).toBeNull();
  });

  it("answers every page, count and facet as the SQL queries do", async () => {
    const random = randomSource(7);
    // The options asked of matter: chosen values that keep products, and facets that list values.
    let keptByOptions = 0;
    let optionFacetsListed = 0;
    for (let asked = 0; asked < 300; asked++) {
      const query = randomQuery(random);
      const label = JSON.stringify(query);
      const [page, expectedPage] = await Promise.all([
        indexed.findProducts(query),
        withoutIndex.findProducts(query),
      ]);
      // Whole products, byte for byte as the API writes them: the index's cards are the rows.
      expect(page.json, label).toBe(expectedPage.json);
      const filters = filtersOf(query);
      expect((await indexed.countProducts(filters)).value, label).toEqual(
        (await withoutIndex.countProducts(filters)).value,
      );
      const facets = (await indexed.listingFacets(filters)).value;
      expect(facets, label).toEqual((await withoutIndex.listingFacets(filters)).value);
      if (filters.option && facets.count > 0) keptByOptions++;
      if (Object.keys(facets.options).length > 1) optionFacetsListed++;
    }
    expect(keptByOptions).toBeGreaterThan(10);
    expect(optionFacetsListed).toBeGreaterThan(100);
    // Far past the end, and a page with every filter at once.
    for (const query of [
      { page: 100_000, size: 100, search: "bl" },
      { page: 100_000, size: 100 },
      { page: 3, size: 7, search: "lantern", band: ["campSafe"], category: ["outdoor"], range: 150 },
      { page: 2, size: 9, search: "lantern", inStock: true as const, range: 150 },
      { page: 40, size: 20, inStock: true as const },
    ]) {
      expect(
        (await indexed.findProducts(query)).value.map((product) => product.id),
        JSON.stringify(query),
      ).toEqual((await withoutIndex.findProducts(query)).value.map((product) => product.id));
    }
    // Still the index answering: not the SQL queries after a silent failure.
    expect(indexed.indexInUse()).not.toBeNull();
    // The SQL side is slow on PGlite when the machine is busy (CI runs test files side by side).
  }, 120_000);

  /** The product whose variant's SKU is "Lantern-7" (beforeAll). */
  const lanternSkuOwner = async () => {
    const result = await engine.db.execute(
      sql`select product_id from product_variants where sku = 'Lantern-7'`,
    );
    return (result as unknown as { rows: { product_id: number }[] }).rows[0]?.product_id;
  };

  it("finds a product by a live variant's SKU, in any case", async () => {
    const found = (await indexed.findProducts({ search: "CycleFit-Running-Shoes-41-Blue", page: 1, size: 5 }))
      .value;
    expect(found.map((product) => product.name)).toEqual(["CycleFit Running Shoes"]);
    expect((await indexed.countProducts({ search: "cyclefit-running-shoes-41-blue" })).value.count).toBe(1);
    // "lantern-7" is a SKU too, of a product that has neither word: found beside the products that have both.
    const owner = await lanternSkuOwner();
    const bySku = (await indexed.findProducts({ search: "LANTERN-7", page: 1, size: 100 })).value;
    expect(bySku.map((product) => product.id)).toContain(owner);
    // Not a SKU-like search ("lantern"): no look-up, the words alone.
    const words = (await indexed.findProducts({ search: "lantern", page: 1, size: 100 })).value;
    expect(words.map((product) => product.id)).not.toContain(owner);
  });

  it("lists a search's name matches first, best rated first within each", async () => {
    const found = (await indexed.findProducts({ search: "lantern", page: 1, size: 100 })).value;
    const inName = found.map((product) => /lantern/i.test(product.name));
    // Every name match before any product that has the word only elsewhere.
    expect(inName.indexOf(false) === -1 || inName.lastIndexOf(true) < inName.indexOf(false)).toBe(true);
    expect(inName).toContain(true);
    const ratings = found
      .filter((product) => /lantern/i.test(product.name))
      .map((product) => product.ratings);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
  });

  it("applies changed, added and deleted products as the database records them, answering as SQL does", async () => {
    const reads = indexed.indexInUse()?.revision as number;
    const [added] = await engine.db
      .insert(products)
      .values({ ...(variedProducts(1)[0] as NewProductRow), name: "Zeppelin Kettle", priceMinor: 100 })
      .returning({ id: products.id });
    await engine.db.execute(
      sql`update products set price_minor = price_minor + 100, ratings = 5 where id % 97 = 0`,
    );
    await engine.db.execute(sql`delete from products where id % 89 = 0 and name <> 'Zeppelin Kettle'`);
    // Some sell out, some come back: only those crossing zero are changes the index applies.
    await engine.db.execute(
      sql`update stock_levels set on_hand = case when on_hand = 0 then 4 else 0 end where product_id % 83 = 0`,
    );
    // Some products gain options, some change theirs: their option values change with them.
    const ids = await engine.db.select({ id: products.id }).from(products);
    await giveOptions(
      engine,
      ids.map(({ id }) => id).filter((id) => id % 79 === 0 || id % 17 === 1 || id % 34 === 0),
      randomSource(13),
    );
    // What the database would announce (LISTEN/NOTIFY in the shop): the index applies it.
    indexed.changed();
    await indexed.indexReady();
    expect(indexed.indexInUse()?.revision).toBe(await readCatalogRevision(engine.db));
    expect(indexed.indexInUse()?.revision).toBeGreaterThan(reads);
    expect((await indexed.findProducts({ search: "zeppelin", page: 1, size: 5 })).value[0]?.id).toBe(
      added?.id,
    );
    const random = randomSource(11);
    for (let asked = 0; asked < 150; asked++) {
      const query = randomQuery(random);
      const what = JSON.stringify(query);
      expect(
        (await indexed.findProducts(query)).value.map((product) => product.id),
        what,
      ).toEqual((await withoutIndex.findProducts(query)).value.map((product) => product.id));
      expect((await indexed.listingFacets(query)).value, what).toEqual(
        (await withoutIndex.listingFacets(query)).value,
      );
    }
    await engine.db.execute(sql`delete from products where name = 'Zeppelin Kettle'`);
    indexed.changed();
    await indexed.indexReady();
    expect((await indexed.countProducts({ search: "zeppelin" })).value.count).toBe(0);
  }, 120_000);
});

reportPostgresSkipped("the search index, on $name");

describe("keeping the index", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const indexAt = (revision: number): CatalogIndex => new CatalogIndexBuilder().build(revision);

  /**
   * A keeper over a catalogue whose revision the test sets; counts the whole
   * reads and the reads of changes.
   */
  function keeper() {
    const state = {
      revision: 1,
      reads: 0,
      changeReads: [] as number[],
      everything: false,
      failNext: false,
      failChanges: false,
      failures: 0,
      none: false,
      replaced: 0,
      applied: 0,
      readsInUse: 0,
    };
    const keeping = keepCatalogIndex({
      read: async () => {
        state.reads++;
        if (state.none) return null;
        if (state.failNext) {
          state.failNext = false;
          throw new Error("connection refused");
        }
        return indexAt(state.revision);
      },
      changes: async (since) => {
        state.changeReads.push(since);
        if (state.failChanges) throw new Error("connection refused");
        return state.everything
          ? { everything: true, revision: state.revision }
          : { everything: false, revision: state.revision, ids: [], rows: [] };
      },
      onReplaced: () => {
        state.replaced++;
      },
      onRead: () => {
        state.readsInUse++;
      },
      onApplied: () => {
        state.applied++;
      },
      onFailure: () => {
        state.failures++;
      },
    });
    return { state, keeping };
  }

  it("has none until the first read ends, then answers from it", async () => {
    const { keeping } = keeper();
    expect(keeping.current()).toBeNull();
    await keeping.ready();
    expect(keeping.current()?.revision).toBe(1);
  });

  it("applies a change it is told of from the changes since its revision, without reading the catalogue again", async () => {
    const { state, keeping } = keeper();
    await keeping.ready();
    state.revision = 2;
    keeping.changed();
    await keeping.ready();
    expect(keeping.current()?.revision).toBe(2);
    expect(state).toMatchObject({ reads: 1, applied: 1, readsInUse: 1 });
    expect(state.changeReads.at(-1)).toBe(1);
  });

  it("reads everything again when everything may have changed, the old index answering meanwhile", async () => {
    const { state, keeping } = keeper();
    await keeping.ready();
    state.revision = 5;
    state.everything = true;
    keeping.changed();
    // The read under way does not take the index away.
    expect(keeping.current()?.revision).toBe(1);
    state.everything = false;
    await keeping.ready();
    expect(keeping.current()?.revision).toBe(5);
    expect(state).toMatchObject({ reads: 2, readsInUse: 2 });
  });

  it("catches up after a whole read with what changed while it was read", async () => {
    const { state, keeping } = keeper();
    const first = keeping.ready();
    // Announced while the first read runs: applied once it ends, from its revision.
    state.revision = 1;
    keeping.changed();
    await first;
    await keeping.ready();
    expect(state.changeReads).toContain(1);
  });

  it("reads the changes of many announcements once at a time, and once more after the last", async () => {
    const { state, keeping } = keeper();
    await keeping.ready();
    // The catch-up read after the first whole read is not one of these.
    const before = state.changeReads.length;
    for (let revision = 2; revision <= 6; revision++) {
      state.revision = revision;
      keeping.changed();
    }
    await keeping.ready();
    expect(keeping.current()?.revision).toBe(6);
    expect(state.changeReads.length - before).toBeLessThanOrEqual(2);
  });

  it("after a failed first read, lets SQL answer and tries again only after a pause", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const { state, keeping } = keeper();
    state.failNext = true;
    await keeping.ready();
    expect(state.failures).toBe(1);
    expect(keeping.current()).toBeNull();
    expect(state.reads).toBe(1);
    vi.advanceTimersByTime(5_000);
    expect(keeping.current()).toBeNull();
    await keeping.ready();
    expect(state.reads).toBe(2);
    expect(keeping.current()?.revision).toBe(1);
  });

  it("keeps answering from its index when the changes cannot be read, and tries again", async () => {
    vi.useFakeTimers({ toFake: ["performance", "setTimeout", "clearTimeout"] });
    const { state, keeping } = keeper();
    await keeping.ready();
    state.revision = 2;
    state.failChanges = true;
    keeping.changed();
    await keeping.ready();
    expect(state.failures).toBe(1);
    expect(keeping.current()?.revision).toBe(1);
    state.failChanges = false;
    await vi.advanceTimersByTimeAsync(5_000);
    await keeping.ready();
    expect(keeping.current()?.revision).toBe(2);
  });

  it("with none to read, asks again only after a pause", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const { state, keeping } = keeper();
    state.none = true;
    await keeping.ready();
    expect(keeping.current()).toBeNull();
    expect(keeping.current()).toBeNull();
    expect(state).toMatchObject({ reads: 1, replaced: 0, failures: 0 });
    state.none = false;
    vi.advanceTimersByTime(5_000);
    await keeping.ready();
    expect(keeping.current()?.revision).toBe(1);
    expect(state).toMatchObject({ reads: 2, replaced: 1 });
  });

  it("does not put in use a read that began before clear()", async () => {
    const { state, keeping } = keeper();
    const first = keeping.ready();
    keeping.clear();
    state.revision = 2;
    await first;
    expect(keeping.current()).toBeNull();
    await keeping.ready();
    expect(keeping.current()?.revision).toBe(2);
  });
});
