import { eq, inArray, sql } from "drizzle-orm";
import type pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { writeProductVariants } from "~/commerce/variant-writing.server";
import { productVariantsSchema } from "~/commerce/variants-schema";
import { products, productVariants, stockLevels } from "~/db/schema";
import { seedDemoCatalog } from "~/db/seed/seed.server";
import { COMMAND_LINE } from "~/utils/audit-log.server";
import { productWithVariants } from "../../../../tests/support/product-variants";
import { planOf, type Recorded, recordingDatabase } from "../../../../tests/support/query-plans";
import { describeWhen, postgresServer } from "../../../../tests/support/requirements";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../../tests/support/test-database";
import type { Product } from "./catalog-schema";
import { createStockSnapshot, readStockChanges, readStockLevels } from "./stock-snapshot.server";

/**
 * Listings take their stock from the process's snapshot of the levels
 * (stock-snapshot.server.ts): what a sale, a return or an edit commits
 * reaches it by the next look, including a change whose transaction was
 * still open when a look read.
 */
const engines = await openTestDatabases();

const READS = { readStockChanges, readStockLevels };
const asProduct = (id: number) => ({ id }) as Product;

describe.each(engines)("the stock snapshot, on $name", (engine: TestDatabase) => {
  const { db } = engine;
  let ids: number[];

  const setStock = (productId: number, onHand: number) =>
    db.update(stockLevels).set({ onHand }).where(eq(stockLevels.productId, productId));

  beforeAll(async () => {
    await seedDemoCatalog(db);
    ids = (await db.select({ id: products.id }).from(products).orderBy(products.id).limit(3)).map(
      (row) => row.id,
    );
    for (const [at, id] of ids.entries()) await setStock(id, 10 + at);
  });

  it("shows each product's units on hand, and a product without a level as none", async () => {
    const snapshot = createStockSnapshot(db, READS);
    const found = await snapshot.withStock([...ids.map(asProduct), asProduct(2_000_000)]);
    expect(found.map((product) => product.stock)).toEqual([10, 11, 12, 0]);
  });

  it("shows what a sale, a return and an edit committed once it looks again", async () => {
    // Every listing waits for a look: what it shows is what had committed when it asked.
    const snapshot = createStockSnapshot(db, READS, { lookEveryMs: 0, maxAgeMs: 0 });
    const [first, second] = ids as [number, number];
    expect((await snapshot.withStock([asProduct(first)]))[0]?.stock).toBe(10);
    await db
      .update(stockLevels)
      .set({ onHand: sql`${stockLevels.onHand} - 4` })
      .where(eq(stockLevels.productId, first));
    await setStock(second, 0);
    expect((await snapshot.withStock([asProduct(first), asProduct(second)])).map((p) => p.stock)).toEqual([
      6, 0,
    ]);
    await setStock(second, 11);
    expect((await snapshot.withStock([asProduct(second)]))[0]?.stock).toBe(11);
  });

  it("keeps what it read between looks, and takes the changes at the next one", async () => {
    const snapshot = createStockSnapshot(db, READS, { lookEveryMs: 60_000, maxAgeMs: 60_000 });
    const third = ids[2] as number;
    expect((await snapshot.withStock([asProduct(third)]))[0]?.stock).toBe(12);
    await setStock(third, 3);
    // Not looked again yet: the level read before.
    expect((await snapshot.withStock([asProduct(third)]))[0]?.stock).toBe(12);
    // The catalogue announced a change: the next listing waits for a look.
    snapshot.changed();
    expect((await snapshot.withStock([asProduct(third)]))[0]?.stock).toBe(3);
    await setStock(third, 12);
  });

  it("shows a product's new sum once its variants are archived or restored by the owner", async () => {
    const shirt = await productWithVariants(engine, {
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], priceMinor: 1000, onHand: 3 },
        { values: ["M"], priceMinor: 1000, onHand: 4 },
      ],
    });
    const snapshot = createStockSnapshot(db, READS, { lookEveryMs: 0, maxAgeMs: 0 });
    expect((await snapshot.withStock([asProduct(shirt.productId)]))[0]?.stock).toBe(7);
    // M dropped: archived (its level kept) if an order names it, deleted if not; either way not sold.
    const written = await writeProductVariants(
      db,
      shirt.productId,
      productVariantsSchema.parse({
        options: [{ name: "Size", values: [{ value: "S" }] }],
        variants: [{ id: shirt.variantIds[0], values: ["S"], sku: `${shirt.sku}-1`, priceMinor: 1000 }],
      }),
      COMMAND_LINE,
    );
    expect(written.ok).toBe(true);
    expect((await snapshot.withStock([asProduct(shirt.productId)]))[0]?.stock).toBe(3);
  });

  it("gives a product of several variants its live variants' sum, whichever read finds it", async () => {
    const [product] = ids as [number];
    const [second, archived] = await db
      .insert(productVariants)
      .values([
        { productId: product, sku: `SNAP-${product}-2`, option1: "M", priceMinor: 100 },
        {
          productId: product,
          sku: `SNAP-${product}-3`,
          option1: "L",
          priceMinor: 100,
          archivedAt: new Date(),
        },
      ])
      .returning({ id: productVariants.id });
    await db
      .update(stockLevels)
      .set({ onHand: 5 })
      .where(eq(stockLevels.variantId, second?.id as number));
    await db
      .update(stockLevels)
      .set({ onHand: 7 })
      .where(eq(stockLevels.variantId, archived?.id as number));
    const before = await db
      .select({ onHand: stockLevels.onHand })
      .from(stockLevels)
      .where(
        sql`${stockLevels.productId} = ${product} and ${stockLevels.variantId} not in (${second?.id}, ${archived?.id})`,
      );
    const expected = (before[0]?.onHand ?? 0) + 5;
    // Read by id (a product the snapshot did not know), and by a look at what changed.
    // Beside another product, each its own sum.
    const other = ids[1] as number;
    const [otherLevel] = await db
      .select({ onHand: stockLevels.onHand })
      .from(stockLevels)
      .where(eq(stockLevels.productId, other));
    const both = new Map([
      [product, expected],
      [other, otherLevel?.onHand],
    ]);
    expect(await readStockLevels(db, [product, other])).toEqual(both);
    const looked = (await readStockChanges(db, null)).levels;
    expect(new Map([product, other].map((id) => [id, looked.get(id)]))).toEqual(both);
    const snapshot = createStockSnapshot(db, READS);
    expect((await snapshot.withStock([asProduct(product)]))[0]?.stock).toBe(expected);
    await db
      .delete(productVariants)
      .where(inArray(productVariants.id, [second?.id as number, archived?.id as number]));
  });

  it("reads every level without joining each to its variant: only archived variants, by their index", async () => {
    // At a million products that join took 3 to 5 s, past the statement timeout: listings answered 503.
    const recorded: Recorded[] = [];
    await readStockChanges(recordingDatabase(engine, recorded), null);
    const plan = await planOf(engine, recorded[0] as Recorded);
    // Each read of the variants' table or its indexes (a bitmap's heap scan reads what its index scan found).
    const variantReads = plan
      .split("\n")
      .filter((line) => /Scan (using \S+ )?on product_variants/.test(line) && !line.includes("Bitmap Heap"));
    expect(variantReads.length).toBeGreaterThan(0);
    for (const line of variantReads) expect(line).toContain("product_variants_archived_idx");
  });
});

reportPostgresSkipped("the stock snapshot, on $name");

describeWhen([postgresServer], "the stock snapshot, with a sale still open while it looks", () => {
  const engine = () => engines.find((candidate) => candidate.name === "PostgreSQL") as TestDatabase;

  it("finds a change that committed after a look that ran while its transaction was open", async () => {
    const { db, handle } = engine();
    const [product] = await db.select({ id: products.id }).from(products).orderBy(products.id).limit(1);
    const id = product?.id as number;
    await db.update(stockLevels).set({ onHand: 20 }).where(eq(stockLevels.productId, id));
    const snapshot = createStockSnapshot(db, READS, { lookEveryMs: 0, maxAgeMs: 0 });
    expect((await snapshot.withStock([asProduct(id)]))[0]?.stock).toBe(20);

    // A second connection takes a unit and holds its transaction open while the snapshot looks.
    const sale = await (handle.pool as pg.Pool).connect();
    try {
      await sale.query("begin");
      await sale.query("update stock_levels set on_hand = on_hand - 1 where product_id = $1", [id]);
      // The look sees the level before the sale (not committed), and keeps a horizon no later than it.
      expect((await snapshot.withStock([asProduct(id)]))[0]?.stock).toBe(20);
      // Another change commits meanwhile, so the horizon would pass the open sale if it were taken as "now".
      await db
        .update(stockLevels)
        .set({ onHand: 5 })
        .where(eq(stockLevels.productId, id + 1));
      expect((await snapshot.withStock([asProduct(id + 1)]))[0]?.stock).toBe(5);
      await sale.query("commit");
    } finally {
      sale.release();
    }
    expect((await snapshot.withStock([asProduct(id)]))[0]?.stock).toBe(19);
  });
});
