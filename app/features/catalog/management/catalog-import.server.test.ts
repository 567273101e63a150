import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { writeProductVariants } from "~/commerce/variant-writing.server";
import { productVariantsSchema } from "~/commerce/variants-schema";
import { catalogRevisions, orderLines, orders, products, stockLevels } from "~/db/schema";
import { seedDemoCatalog } from "~/db/seed/seed.server";
import { COMMAND_LINE } from "~/utils/audit-log.server";
import { onlyVariantOf } from "../../../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../../tests/support/test-database";
import { exportCatalog } from "./catalog-export.server";
import { readCatalogFile, writeCatalogFile } from "./catalog-file.server";
import {
  applyCatalogImport,
  type ImportPlan,
  type ImportRow,
  importCatalogRows,
  planCatalogImport,
} from "./catalog-import.server";

/**
 * The import and export carry each product's stock (absent: an existing
 * product keeps its own, a new one has 0), and an import with `prune` keeps
 * the products an order names, saying so, instead of failing on the foreign
 * key that protects the order's lines.
 */
const engines = await openTestDatabases();

const HEADER = "sku,name,price,stock,brand,category";

/** A file's checked rows, as the command hands them to the import (pictures left out). */
async function rowsOf(
  text: string,
  format: "csv" | "json" = "csv",
): Promise<{ rows: ImportRow[]; skus: Set<string> }> {
  const reading = await readCatalogFile(text, format);
  expect(reading.problems).toEqual([]);
  return { rows: reading.rows.map((row) => ({ ...row, image: undefined })), skus: reading.skus };
}

describe.each(engines)("importing and exporting stock, on $name", (engine: TestDatabase) => {
  const { db } = engine;
  const run = async (
    text: string,
    { prune = false, format = "csv" as "csv" | "json" } = {},
  ): Promise<ImportPlan> => {
    const { rows, skus } = await rowsOf(text, format);
    return importCatalogRows(db, rows, {
      prune,
      keep: skus,
      now: new Date("2026-06-01"),
      onPlan: () => true,
    });
  };
  /** The catalogue's revision: counted up by every catalogue change (drizzle/0008, 0011). */
  const readCatalogRevision = async () => {
    const [row] = await db.select({ revision: catalogRevisions.revision }).from(catalogRevisions);
    return row?.revision;
  };
  const stockOf = async (sku: string) => {
    const [row] = await db
      .select({ onHand: stockLevels.onHand })
      .from(stockLevels)
      .innerJoin(products, eq(products.id, stockLevels.productId))
      .where(eq(products.sku, sku));
    return row?.onHand;
  };

  beforeEach(async () => {
    await db.execute(sql`truncate orders, order_lines, products, brands, categories cascade`);
  });

  it("lets an import that prunes the demo's products take the demo buyers' orders and reviews with them", async () => {
    await seedDemoCatalog(db, new Date("2026-06-01"));
    await importCatalogRows(
      db,
      [
        {
          line: 2,
          sku: "owner-own-1",
          name: "The owner's own lamp",
          price: 30,
          brand: "blendMaster",
          category: "home goods",
          created: undefined,
        },
      ],
      { prune: true, keep: new Set(["owner-own-1"]), now: new Date("2026-06-01"), onPlan: () => true },
    );
    expect((await db.select({ sku: products.sku }).from(products)).map((row) => row.sku)).toEqual([
      "owner-own-1",
    ]);
    const { rows: left } = (await db.execute(
      sql`select (select count(*)::int from orders where idempotency_scope like 'demo:%') as orders,
                 (select count(*)::int from reviews) as reviews`,
    )) as unknown as { rows: { orders: number; reviews: number }[] };
    expect(left[0]).toEqual({ orders: 0, reviews: 0 });
  });

  it("sets a new product's stock from the file, 0 when the file gives none", async () => {
    const plan = await run([HEADER, "LAMP,Lamp,10,12,lumen,lighting", "MUG,Mug,5,,lumen,kitchen"].join("\n"));
    expect(plan.added).toHaveLength(2);
    expect(await stockOf("LAMP")).toBe(12);
    expect(await stockOf("MUG")).toBe(0);
  });

  it("changes an existing product's stock only when the file gives one, and a change that stays above 0 is no catalogue change", async () => {
    await run([HEADER, "LAMP,Lamp,10,12,lumen,lighting", "MUG,Mug,5,4,lumen,kitchen"].join("\n"));
    const revision = await readCatalogRevision();
    const plan = await run([HEADER, "LAMP,Lamp,10,9,lumen,lighting", "MUG,Mug,5,,lumen,kitchen"].join("\n"));
    expect(plan).toMatchObject({ added: [], unchanged: 1 });
    expect(plan.updated.map((product) => product.sku)).toEqual(["LAMP"]);
    expect(await stockOf("LAMP")).toBe(9);
    expect(await stockOf("MUG")).toBe(4);
    // Neither product's row was written, and no level crossed zero: the index has nothing to apply.
    expect(await readCatalogRevision()).toBe(revision);
    await run([HEADER, "LAMP,Lamp,10,0,lumen,lighting"].join("\n"));
    expect(await stockOf("LAMP")).toBe(0);
    expect(await readCatalogRevision()).toBe((revision as number) + 1);
  });

  it("leaves the prices and stock of a product sold in variants, and says so on its line", async () => {
    await run([HEADER, "SHIRT,Shirt,10,12,lumen,apparel"].join("\n"));
    const [shirt] = await db.select({ id: products.id }).from(products).where(eq(products.sku, "SHIRT"));
    const written = await writeProductVariants(
      db,
      shirt?.id as number,
      productVariantsSchema.parse({
        options: [{ name: "Size", values: [{ value: "S" }, { value: "M" }] }],
        variants: [
          { values: ["S"], sku: "SHIRT-S", priceMinor: 1000, onHand: 3 },
          { values: ["M"], sku: "SHIRT-M", priceMinor: 1200, onHand: 4 },
        ],
      }),
      COMMAND_LINE,
    );
    expect(written.ok).toBe(true);
    // Its price and stock as exported (the cheapest variant's, the sum): nothing to say, nothing changed.
    expect(await run([HEADER, "SHIRT,Shirt,10,7,lumen,apparel"].join("\n"))).toMatchObject({
      unchanged: 1,
      warnings: [],
    });
    const plan = await run([HEADER, "SHIRT,Shirt Tee,15,50,lumen,apparel"].join("\n"));
    expect(plan.warnings).toEqual([
      expect.objectContaining({ line: 2, message: expect.stringContaining("SHIRT is sold in variants") }),
    ]);
    const levels = await db
      .select({ onHand: stockLevels.onHand })
      .from(stockLevels)
      .where(eq(stockLevels.productId, shirt?.id as number))
      .orderBy(stockLevels.variantId);
    expect(levels.map((level) => level.onHand)).toEqual([3, 4]);
    const [after] = await db.select().from(products).where(eq(products.sku, "SHIRT"));
    expect(after).toMatchObject({ name: "Shirt Tee", priceMinor: 1000, priceMaxMinor: 1200 });
  });

  it("keeps a sale made between the import's plan and its write when the file has no stock column", async () => {
    await run([HEADER, "LAMP,Lamp,10,5,lumen,lighting", "MUG,Mug,5,4,lumen,kitchen"].join("\n"));
    const { rows, skus } = await rowsOf(
      ["sku,name,price,brand,category", "LAMP,Lamp,12,lumen,lighting", "MUG,Mug,6,lumen,kitchen"].join("\n"),
    );
    const options = { prune: false, keep: skus, now: new Date("2026-06-01") };
    await db.transaction(async (tx) => {
      const plan = await planCatalogImport(tx, rows, options);
      expect(plan.updated.map((product) => product.sku)).toEqual(["LAMP", "MUG"]);
      // A checkout sells a lamp meanwhile: on PostgreSQL it commits from a connection of its own;
      // PGlite has one connection, so there it runs inside the import's transaction.
      await (engine.kind === "postgres" ? db : tx).execute(sql`
        update stock_levels set on_hand = on_hand - 1
        from products where products.id = stock_levels.product_id and products.sku = 'LAMP'`);
      await applyCatalogImport(tx, plan, options);
    });
    expect(await stockOf("LAMP")).toBe(4);
    expect(await stockOf("MUG")).toBe(4);
    const prices = await db
      .select({ sku: products.sku, priceMinor: products.priceMinor })
      .from(products)
      .orderBy(products.sku);
    expect(prices).toEqual([
      { sku: "LAMP", priceMinor: 1200 },
      { sku: "MUG", priceMinor: 600 },
    ]);
  });

  it("exports each product's stock, and the export imports back changing nothing", async () => {
    await run([HEADER, "LAMP,Lamp,10,12,lumen,lighting", "MUG,Mug,5,0,lumen,kitchen"].join("\n"));
    const exported = await exportCatalog(db);
    expect(exported.map(({ sku, stock }) => [sku, stock])).toEqual([
      ["LAMP", 12],
      ["MUG", 0],
    ]);
    for (const format of ["csv", "json"] as const) {
      const plan = await run(writeCatalogFile(exported, format), { format });
      expect(plan).toMatchObject({ added: [], updated: [], unchanged: 2 });
    }
    expect(writeCatalogFile(exported, "csv").split("\n")[0]).toContain(",price,stock,");
  });

  it("imports a Shopify export's Variant Inventory Qty as the stock", async () => {
    const text = fs.readFileSync(path.resolve("tests/fixtures/catalog/shopify-products.csv"), "utf8");
    await run(text);
    expect(await stockOf("alpine-water-bottle")).toBe(40);
    expect(await stockOf("summit-headlamp")).toBe(25);
    // The jacket's three variants' units together (each its own: catalog-variant-import.server.test.ts).
    const exported = await exportCatalog(db);
    const jacket = exported.filter((record) => record.sku === "trail-runner-jacket");
    expect(jacket.map((record) => record.stock)).toEqual([12, 8, 3]);
  });

  it("with prune, keeps a product an order names and says so, and removes the others the file no longer has", async () => {
    await run(
      [
        HEADER,
        "LAMP,Lamp,10,3,lumen,lighting",
        "MUG,Mug,5,3,lumen,kitchen",
        "BOWL,Bowl,7,3,lumen,kitchen",
      ].join("\n"),
    );
    const [mug] = await db.select({ id: products.id }).from(products).where(eq(products.sku, "MUG"));
    const [order] = await db
      .insert(orders)
      .values({
        number: "BL-TEST1",
        idempotencyScope: "guest:test",
        idempotencyKey: "key-1",
        requestHash: "hash",
        email: "shopper@example.com",
        shippingAddress: { name: "A Shopper" },
        shippingMethod: "standard",
        paymentMethod: "cash-on-delivery",
        subtotalCents: 500,
        shippingCents: 0,
        totalCents: 500,
        currency: "USD",
      })
      .returning({ id: orders.id });
    await db.insert(orderLines).values({
      orderId: order?.id as number,
      productId: mug?.id as number,
      variantId: await onlyVariantOf(db, mug?.id as number),
      name: "Mug",
      sku: "MUG",
      unitPriceCents: 500,
      quantity: 1,
      lineTotalCents: 500,
    });

    const plan = await run([HEADER, "LAMP,Lamp,10,3,lumen,lighting"].join("\n"), { prune: true });
    expect(plan.removed).toEqual(["BOWL"]);
    expect(plan.ordered).toEqual(["MUG"]);
    const left = await db.select({ sku: products.sku }).from(products).orderBy(products.sku);
    expect(left.map((product) => product.sku)).toEqual(["LAMP", "MUG"]);
    // The kept product's category stays with it.
    expect(plan.categories.removed).toEqual([]);
    const [line] = await db.select().from(orderLines);
    expect(line?.productId).toBe(mug?.id);
  });
});

reportPostgresSkipped("importing and exporting stock, on $name");
