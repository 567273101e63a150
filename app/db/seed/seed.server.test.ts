import fs from "node:fs";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { CATALOG_NOW, expectValidProduct } from "../../../tests/support/catalog-rows";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { productOptions, products, productVariants, stockLevels } from "../schema";
import { DEMO_BRANDS as BRANDS, DEMO_CATEGORIES as CATEGORIES } from "./demo-brands-and-categories";
import { DEMO_PRODUCTS } from "./demo-catalog";
import { seedDemoCatalog } from "./seed.server";

const DAY = 24 * 60 * 60 * 1000;
const NOW = CATALOG_NOW;

const engines = await openTestDatabases();

describe.each(engines)("the demo catalogue on $name", (engine: TestDatabase) => {
  const db = engine.db;
  const allProducts = () => db.select().from(products).orderBy(asc(products.id));

  beforeEach(async () => {
    await db.execute(sql`truncate products restart identity cascade`);
  });

  it("makes each demo product's rating the mean of its demo buyers' reviews, each backed by a shipped order", async () => {
    await seedDemoCatalog(db, NOW);
    const rows = await allProducts();
    for (const row of rows) {
      const demo = DEMO_PRODUCTS.find((product) => product.slug === row.sku);
      expect(row.ratings, row.name).toBe(demo?.ratings);
      expect(row.ratingCount > 0, row.name).toBe((demo?.ratings ?? 0) > 0);
    }
    const { rows: unbacked } = (await db.execute(sql`
      select r.id from reviews r
      where not exists (
        select 1 from orders o join order_lines l on l.order_id = o.id
        join order_events e on e.order_id = o.id and e.to_status = 'shipped'
        where o.user_id = r.user_id and l.product_id = r.product_id)`)) as unknown as { rows: unknown[] };
    expect(unbacked).toEqual([]);
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

  it("gives every demo product stock: most plenty, a few nearly gone, at least three sold out", async () => {
    await seedDemoCatalog(db, NOW);
    // A product's stock is its variants' sum.
    const levels = (
      await db
        .select({ onHand: sql<number>`sum(${stockLevels.onHand})::int` })
        .from(stockLevels)
        .groupBy(stockLevels.productId)
    ).map((level) => level.onHand);
    expect(levels).toHaveLength(DEMO_PRODUCTS.length);
    expect(levels.filter((onHand) => onHand === 0).length).toBeGreaterThanOrEqual(3);
    expect(levels.filter((onHand) => onHand >= 1 && onHand <= 3).length).toBeGreaterThanOrEqual(3);
    expect(levels.filter((onHand) => onHand > 5).length).toBeGreaterThan(DEMO_PRODUCTS.length / 2);
  });

  it("sells a few demo products in sizes and colours: their variants, swatches, a 'was' price and a price range", async () => {
    await seedDemoCatalog(db, NOW);
    const [shoes] = await db.select().from(products).where(eq(products.sku, "cyclefit-running-shoes"));
    const shoeVariants = await db
      .select({
        sku: productVariants.sku,
        option1: productVariants.option1,
        option2: productVariants.option2,
      })
      .from(productVariants)
      .where(eq(productVariants.productId, shoes?.id as number));
    expect(shoeVariants).toHaveLength(8);
    expect(shoeVariants).toContainEqual({
      sku: "cyclefit-running-shoes-41-blue",
      option1: "41",
      option2: "Blue",
    });
    const options = await db
      .select({ name: productOptions.name, values: productOptions.values })
      .from(productOptions)
      .where(eq(productOptions.productId, shoes?.id as number))
      .orderBy(productOptions.position);
    expect(options.map((option) => option.name)).toEqual(["Size", "Colour"]);
    expect(options[1]?.values).toContainEqual({ value: "Blue", swatch: "#1d4ed8" });
    const [pillow] = await db.select().from(products).where(eq(products.sku, "artistry-linen-throw-pillow"));
    expect(pillow).toMatchObject({ priceMinor: 2_750, priceMaxMinor: 3_450 });
    const [plum] = await db
      .select()
      .from(productVariants)
      .where(eq(productVariants.sku, "cyclefit-yoga-mat-pro-plum"));
    expect(plum).toMatchObject({ priceMinor: 2_499, compareAtMinor: 2_999 });
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
    // 89.99 in the demo's list is 8,999 cents in a dollar shop.
    expect(blender?.priceMinor).toBe(8_999);
    expect(demoBlender?.price).toBe(89.99);
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
});

reportPostgresSkipped("the demo catalogue on $name");
