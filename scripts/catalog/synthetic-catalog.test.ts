import { asc, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { productVariantsSchema } from "../../app/commerce/variants-schema";
import { orderLines, orders, products } from "../../app/db/schema";
import {
  DEMO_BRANDS as BRANDS,
  DEMO_CATEGORIES as CATEGORIES,
} from "../../app/db/seed/demo-brands-and-categories";
import { DEMO_PRODUCTS } from "../../app/db/seed/demo-catalog";
import productImages from "../../app/db/seed/product-images.generated.json";
import { seedDemoCatalog } from "../../app/db/seed/seed.server";
import { CATALOG_NOW, expectValidProduct } from "../../tests/support/catalog-rows";
import { onlyVariantOf } from "../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { generateCatalog } from "./synthetic-catalog";

const NOW = CATALOG_NOW;

const engines = await openTestDatabases();

describe.each(engines)("generated catalogues on $name", (engine: TestDatabase) => {
  const db = engine.db;
  const allProducts = () => db.select().from(products).orderBy(asc(products.id));

  beforeEach(async () => {
    await db.execute(sql`truncate products restart identity cascade`);
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

  it("with variants, gives a third of the products 2 to 12 variants the variant writer would accept", async () => {
    await generateCatalog(db, { count: 300, now: NOW, variants: true });
    const result = await db.execute(sql`
      select p.id, p.price_minor, p.price_max_minor,
             (select jsonb_agg(jsonb_build_object('name', o.name, 'values', o.values) order by o.position)
                from product_options o where o.product_id = p.id) as options,
             (select jsonb_agg(jsonb_build_object('values', array_remove(array[v.option1, v.option2], null),
                                                  'sku', v.sku, 'priceMinor', v.price_minor) order by v.position)
                from product_variants v where v.product_id = p.id) as variants,
             (select count(*)::int from stock_levels s where s.product_id = p.id) as stock_rows
        from products p order by p.id`);
    const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows as {
      id: number;
      price_minor: number | string;
      price_max_minor: number | string | null;
      options: unknown[] | null;
      variants: { priceMinor: number }[];
      stock_rows: number;
    }[];
    const withOptions = rows.filter((row) => row.options !== null);
    expect(withOptions).toHaveLength(100);
    const counts = new Set<number>();
    for (const row of withOptions) {
      const parsed = productVariantsSchema.safeParse({ options: row.options, variants: row.variants });
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(row.variants.length).toBeGreaterThanOrEqual(2);
      expect(row.variants.length).toBeLessThanOrEqual(12);
      expect(row.stock_rows).toBe(row.variants.length);
      expect(Number(row.price_max_minor)).toBe(
        Math.max(...row.variants.map((variant) => variant.priceMinor)),
      );
      counts.add(row.variants.length);
    }
    expect(counts.size).toBeGreaterThan(5);
    expect(rows.filter((row) => row.options === null).every((row) => row.variants.length === 1)).toBe(true);
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

  it("never replaces a catalogue whose products orders name, and leaves it as it was", async () => {
    await generateCatalog(db, { count: 10, now: NOW });
    const [order] = await db
      .insert(orders)
      .values({
        number: "BL-TEST1",
        idempotencyScope: "cart:test",
        idempotencyKey: "key",
        requestHash: "hash",
        email: "shopper@example.com",
        shippingAddress: {},
        shippingMethod: "standard",
        paymentMethod: "cash-on-delivery",
        subtotalCents: 500,
        shippingCents: 0,
        totalCents: 500,
        currency: "USD",
      })
      .returning({ id: orders.id });
    await db.insert(orderLines).values({
      orderId: (order as { id: number }).id,
      productId: 1,
      variantId: await onlyVariantOf(db, 1),
      name: "Sold",
      sku: "SOLD",
      unitPriceCents: 500,
      quantity: 1,
      lineTotalCents: 500,
    });
    await expect(generateCatalog(db, { count: 5, now: NOW, replace: true })).rejects.toThrow(/has orders/);
    expect(await allProducts()).toHaveLength(10);
  });

  it("generates the same catalogue from the same seed, and a different one from another seed", async () => {
    const names = async (seed: number) => {
      await generateCatalog(db, { count: 200, now: NOW, seed, replace: true });
      return (await allProducts()).map(
        (row) => `${row.name}|${row.priceMinor}|${row.creationDate.toISOString()}`,
      );
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

reportPostgresSkipped("generated catalogues on $name");
