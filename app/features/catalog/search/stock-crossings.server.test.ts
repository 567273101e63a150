import { eq, gt, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { catalogChanges, products, stockLevels } from "~/db/schema";
import { seedDemoCatalog } from "~/db/seed/seed.server";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../../tests/support/test-database";
import { type Catalog, createCatalog } from "../browsing/catalog.server";
import {
  allProductsResponse,
  type CatalogClient,
  countsResponse,
  facetsResponse,
} from "../browsing/catalog-api.server";
import { readCatalogRevision } from "./index-read.server";
import { createSearchRateLimit } from "./search-rate-limit.server";

/**
 * Stock is a catalogue change only when a level crosses zero (drizzle/0011):
 * a sale that leaves units on hand counts no revision, so no process applies
 * anything; selling the last unit, or stock coming back, is recorded like any
 * product change, and a process's index then answers "in stock only" from it.
 */
const engines = await openTestDatabases();

describe.each(engines)("stock crossing zero, on $name", (engine: TestDatabase) => {
  const { db } = engine;
  let indexed: Catalog;
  let withoutIndex: Catalog;
  /** Three demo products: one with plenty, one with the last unit, one sold out. */
  let plenty: number;
  let last: number;
  let soldOut: number;

  const setStock = (productId: number, onHand: number) =>
    db.update(stockLevels).set({ onHand }).where(eq(stockLevels.productId, productId));
  /** The products recorded as changed after a revision. */
  const changedSince = async (revision: number) =>
    (
      await db
        .select({ productId: catalogChanges.productId })
        .from(catalogChanges)
        .where(gt(catalogChanges.revision, revision))
    ).map((change) => change.productId);
  const inStockIds = async (catalog: Catalog) =>
    (await catalog.findProducts({ inStock: true, page: 1, size: 100 })).value.map((product) => product.id);

  beforeAll(async () => {
    await seedDemoCatalog(db);
    const ids = (await db.select({ id: products.id }).from(products).orderBy(products.id)).map(
      (row) => row.id,
    );
    [plenty, last, soldOut] = ids as [number, number, number];
    await setStock(plenty, 10);
    await setStock(last, 1);
    await setStock(soldOut, 0);
    indexed = createCatalog(db, { cacheSeconds: 0 });
    withoutIndex = createCatalog(db, { cacheSeconds: 0 }, { readCatalogIndex: async () => null });
    await indexed.indexReady();
  });

  it("records nothing for a sale that leaves units on hand: 10 to 9", async () => {
    const before = await readCatalogRevision(db);
    await db
      .update(stockLevels)
      .set({ onHand: sql`${stockLevels.onHand} - 1` })
      .where(eq(stockLevels.productId, plenty));
    expect(await readCatalogRevision(db)).toBe(before);
    expect(await changedSince(before)).toEqual([]);
    // Nothing for a process to apply: the index stays at the revision it holds.
    indexed.changed();
    await indexed.indexReady();
    expect(indexed.indexInUse()?.revision).toBe(before);
  });

  it("records the product when its last unit sells (1 to 0), and the index no longer counts it in stock", async () => {
    const inStockBefore = (await indexed.countProducts({ inStock: true })).value.count;
    expect(await inStockIds(indexed)).toContain(last);
    const before = await readCatalogRevision(db);
    await setStock(last, 0);
    expect(await readCatalogRevision(db)).toBe(before + 1);
    expect(await changedSince(before)).toEqual([last]);
    indexed.changed();
    await indexed.indexReady();
    expect(indexed.indexInUse()?.revision).toBe(before + 1);
    expect((await indexed.countProducts({ inStock: true })).value.count).toBe(inStockBefore - 1);
    expect(await inStockIds(indexed)).not.toContain(last);
    expect(await inStockIds(indexed)).toEqual(await inStockIds(withoutIndex));
  });

  it("records the product when stock comes back (0 to 3), and the index counts it in stock again", async () => {
    const before = await readCatalogRevision(db);
    await setStock(soldOut, 3);
    expect(await readCatalogRevision(db)).toBe(before + 1);
    expect(await changedSince(before)).toEqual([soldOut]);
    indexed.changed();
    await indexed.indexReady();
    expect(await inStockIds(indexed)).toContain(soldOut);
    expect(await inStockIds(indexed)).toEqual(await inStockIds(withoutIndex));
    const facets = (await indexed.listingFacets({})).value;
    expect(facets.inStock).toBe((await withoutIndex.listingFacets({})).value.inStock);
    expect(facets.inStock).toBe((await indexed.countProducts({ inStock: true })).value.count);
  });

  it("records one change for a statement that sells out several products at once, none for the others in it", async () => {
    const before = await readCatalogRevision(db);
    await db.execute(
      sql`update stock_levels set on_hand = case when product_id = ${plenty} then 5 else 0 end
          where product_id in (${plenty}, ${soldOut})`,
    );
    expect(await readCatalogRevision(db)).toBe(before + 1);
    expect(await changedSince(before)).toEqual([soldOut]);
  });

  /** Each product's units on hand: its variants' sum (the demo sells some in several). */
  const unitsByProduct = async () => {
    const units = new Map<number, number>();
    for (const level of await db.select().from(stockLevels)) {
      units.set(level.productId, (units.get(level.productId) ?? 0) + level.onHand);
    }
    return units;
  };

  it("gives each product of a page its stock, and honours inStock in the count, on both adapters", async () => {
    // Levels are read again by a look (stock-snapshot.server.ts); told of a change, a catalogue looks at once.
    indexed.changed();
    withoutIndex.changed();
    await indexed.indexReady();
    const levels = await unitsByProduct();
    for (const catalog of [indexed, withoutIndex]) {
      const page = (await catalog.findProducts({ page: 1, size: 100 })).value;
      expect(page.length).toBeGreaterThan(0);
      for (const product of page) expect(product.stock).toBe(levels.get(product.id));
      const inStock = [...levels.values()].filter((onHand) => onHand > 0).length;
      expect((await catalog.countProducts({ inStock: true })).value.count).toBe(inStock);
      expect((await catalog.product(soldOut)).value?.stock).toBe(0);
    }
  });

  it("answers the JSON API with each product's stock, and inStock=1 on /all-products, /counts and /facets", async () => {
    const client: CatalogClient = { searchLimit: createSearchRateLimit(), key: "203.0.113.9" };
    const get = (path: string) => new Request(`http://shop.test${path}`);
    const levels = await unitsByProduct();
    const inStock = [...levels.values()].filter((onHand) => onHand > 0).length;
    const all = (await (
      await allProductsResponse(indexed, get("/all-products?size=100"), client)
    ).json()) as {
      id: number;
      stock: number;
    }[];
    expect(all.map((product) => product.stock)).toEqual(all.map((product) => levels.get(product.id)));
    const stocked = (await (
      await allProductsResponse(indexed, get("/all-products?size=100&inStock=1"), client)
    ).json()) as { stock: number }[];
    expect(stocked).toHaveLength(inStock);
    expect(stocked.every((product) => product.stock > 0)).toBe(true);
    expect(await (await countsResponse(indexed, get("/counts?inStock=1"), client)).json()).toEqual({
      count: inStock,
    });
    const facets = (await (await facetsResponse(indexed, get("/facets?inStock=1"), client)).json()) as {
      count: number;
      inStock: number;
    };
    expect(facets).toMatchObject({ count: inStock, inStock });
  });
});

reportPostgresSkipped("stock crossing zero, on $name");
