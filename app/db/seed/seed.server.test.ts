import fs from "node:fs";
import path from "node:path";
import { asc, sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { BRANDS, CATEGORIES } from "~/features/catalog/catalog-schema";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { type ProductRow, products } from "../schema";
import { DEMO_PRODUCTS } from "./demo-catalog";
import productImages from "./product-images.generated.json";
import { generateCatalog, seedDemoCatalog } from "./seed.server";

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date(Date.UTC(2026, 10, 1, 12));
const TWO_YEARS_AGO = new Date(NOW.getTime() - 730 * DAY);

const engines = await openTestDatabases();

afterAll(async () => {
  await Promise.all(engines.map((engine) => engine.close()));
});

function expectValidProduct(product: ProductRow) {
  expect(BRANDS.map((brand) => brand.value)).toContain(product.bandName);
  expect(CATEGORIES.map((category) => category.value)).toContain(product.category);
  expect(product.price).toBeGreaterThanOrEqual(5);
  expect(product.price).toBeLessThanOrEqual(200);
  expect(Math.round(product.price * 100) / 100).toBe(product.price);
  expect(product.ratings).toBeGreaterThanOrEqual(0);
  expect(product.ratings).toBeLessThanOrEqual(5);
  expect(Math.round(product.ratings * 10) / 10).toBe(product.ratings);
  expect(product.creationDate.getTime()).toBeGreaterThan(TWO_YEARS_AGO.getTime());
  expect(product.creationDate.getTime()).toBeLessThanOrEqual(NOW.getTime());
  expect(product.name.length).toBeGreaterThan(0);
  expect(product.description.length).toBeGreaterThan(0);
  expect(product.image).toMatch(/^\/images\/products\/[a-z0-9-]+-[0-9a-f]{8}\.svg$/);
}

describe.each(engines)("the demo catalogue and generated catalogues on $name", (engine: TestDatabase) => {
  const db = engine.db;
  const allProducts = () => db.select().from(products).orderBy(asc(products.id));

  beforeEach(async () => {
    await db.execute(sql`truncate products restart identity`);
  });

  it("loads the whole demo catalogue into an empty shop, every brand and category well represented", async () => {
    const { inserted } = await seedDemoCatalog(db, NOW);
    const rows = await allProducts();

    expect(inserted).toBe(DEMO_PRODUCTS.length);
    expect(rows.length).toBeGreaterThanOrEqual(60);
    for (const brand of BRANDS) {
      const categories = new Set(
        rows.filter((row) => row.bandName === brand.value).map((row) => row.category),
      );
      expect(categories.size, brand.label).toBeGreaterThanOrEqual(3);
    }
    for (const category of CATEGORIES) {
      expect(
        rows.filter((row) => row.category === category.value).length,
        category.label,
      ).toBeGreaterThanOrEqual(10);
    }
  });

  it("stores valid demo products whose pictures exist under public/", async () => {
    await seedDemoCatalog(db, NOW);
    const rows = await allProducts();

    for (const row of rows) {
      expectValidProduct(row);
      expect(fs.existsSync(path.join("public", row.image)), row.image).toBe(true);
    }
    const blender = rows.find((row) => row.name === "BlendMaster Pro 900 Blender");
    const demoBlender = DEMO_PRODUCTS.find((product) => product.name === "BlendMaster Pro 900 Blender");
    expect(blender?.price).toBe(demoBlender?.price);
    expect(blender?.creationDate).toEqual(new Date(NOW.getTime() - (demoBlender?.daysAgo ?? 0) * DAY));
  });

  it("gives ids in order of creation date, oldest first, as a real shop would", async () => {
    await seedDemoCatalog(db, NOW);
    const dates = (await allProducts()).map((row) => row.creationDate.getTime());
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
  });

  it("adds nothing when the shop already has products", async () => {
    expect((await seedDemoCatalog(db, NOW)).inserted).toBe(DEMO_PRODUCTS.length);
    expect((await seedDemoCatalog(db, NOW)).inserted).toBe(0);
    expect(await allProducts()).toHaveLength(DEMO_PRODUCTS.length);
  });

  it("loads the demo catalogue once when two seeders race", async () => {
    const results = await Promise.all([seedDemoCatalog(db, NOW), seedDemoCatalog(db, NOW)]);
    expect(results.map((result) => result.inserted).sort()).toEqual([0, DEMO_PRODUCTS.length]);
    expect(await allProducts()).toHaveLength(DEMO_PRODUCTS.length);
  });

  it("generates exactly the requested number of valid products, across several batches", async () => {
    const { inserted } = await generateCatalog(db, { count: 2345, batchSize: 1000, now: NOW });
    const rows = await allProducts();

    expect(inserted).toBe(2345);
    expect(rows).toHaveLength(2345);
    for (const row of rows) expectValidProduct(row);
    // Generated products reuse the demo pictures.
    const demoImages = new Set(Object.values(productImages));
    for (const row of rows) expect(demoImages.has(row.image), row.image).toBe(true);
    // Every brand meets every category at this size.
    expect(new Set(rows.map((row) => `${row.bandName}/${row.category}`)).size).toBe(
      BRANDS.length * CATEGORIES.length,
    );
  });

  it("adds to the catalogue by default and replaces it with { replace: true }, ids restarting at 1", async () => {
    await seedDemoCatalog(db, NOW);
    await generateCatalog(db, { count: 100, now: NOW });
    expect(await allProducts()).toHaveLength(DEMO_PRODUCTS.length + 100);

    await generateCatalog(db, { count: 50, now: NOW, replace: true });
    const rows = await allProducts();
    expect(rows).toHaveLength(50);
    expect(rows[0]?.id).toBe(1);
  });

  it("generates the same catalogue from the same seed, and a different one from another seed", async () => {
    const names = async (seed: number) => {
      await generateCatalog(db, { count: 200, now: NOW, seed, replace: true });
      return (await allProducts()).map((row) => `${row.name}|${row.price}|${row.creationDate.toISOString()}`);
    };
    const first = await names(7);
    expect(await names(7)).toEqual(first);
    expect(await names(8)).not.toEqual(first);
  });

  it("refuses a count that is not a whole number of 0 or more", async () => {
    await expect(generateCatalog(db, { count: -1 })).rejects.toThrow(RangeError);
    await expect(generateCatalog(db, { count: 1.5 })).rejects.toThrow(RangeError);
    expect((await generateCatalog(db, { count: 0 })).inserted).toBe(0);
  });
});

reportPostgresSkipped("the demo catalogue and generated catalogues on $name");
