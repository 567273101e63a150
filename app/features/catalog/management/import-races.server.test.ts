import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderLines, products, productVariants, stockLevels } from "~/db/schema";
import { racingCheckouts } from "../../../../tests/support/racing-checkouts";
import { recordingMail } from "../../../../tests/support/recording-mailer";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../../tests/support/test-database";
import { readCatalogFile } from "./catalog-file.server";
import { importCatalogRows } from "./catalog-import.server";

/**
 * Imports that rewrite a product's variants (docs/decisions/0045) while
 * shoppers buy it: the import locks those products as the variant writer
 * does, then the stock levels it sets, before it writes anything, so neither
 * side waits for the other in a cycle (nothing is retried here: a lock cycle
 * would fail a checkout or an import), and the books stay exact.
 */
const engines = await openTestDatabases();

describe.each(engines)("imports racing checkouts on $name", (engine: TestDatabase) => {
  const { db } = engine;
  const { queue: mail } = recordingMail(db);

  it("rewrites a product's variants and sets another's stock 4 times while 60 baskets of them buy: exact books", async () => {
    const prefix = `R${randomUUID().slice(0, 6)}`;
    const header = "sku,name,price,stock,brand,category,option1_name,option1_value,variant_sku";
    // The tee's S is restocked and repriced by each file; its M sells. The mug's price changes, its stock does not.
    const file = (small: number, price: string) =>
      [
        header,
        `${prefix}-TEE,Tee,${price},${small},lumen,apparel,Size,S,${prefix}-TEE-S`,
        `${prefix}-TEE,,12,,,,,M,${prefix}-TEE-M`,
        `${prefix}-MUG,Mug,${price},,lumen,kitchen,,,`,
        // The cap's stock is set by every file (plenty): the import locks it before it writes.
        `${prefix}-CAP,Cap,${price},100,lumen,apparel,,,`,
      ].join("\n");
    const run = async (text: string) => {
      const reading = await readCatalogFile(text, "csv");
      expect(reading.problems).toEqual([]);
      return importCatalogRows(db, reading.rows, {
        prune: false,
        keep: reading.skus,
        now: new Date("2026-06-01"),
        onPlan: () => true,
      });
    };
    await run(file(3, "10"));
    const idOf = async (sku: string) =>
      (
        await db.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.sku, sku))
      )[0]?.id as number;
    const productOf = async (sku: string) =>
      (await db.select({ id: products.id }).from(products).where(eq(products.sku, sku)))[0]?.id as number;
    const [teeId, medium, mugId, mugVariant, capId, capVariant] = await Promise.all([
      productOf(`${prefix}-TEE`),
      idOf(`${prefix}-TEE-M`),
      productOf(`${prefix}-MUG`),
      idOf(`${prefix}-MUG`),
      productOf(`${prefix}-CAP`),
      idOf(`${prefix}-CAP`),
    ]);
    await db.execute(
      sql`update stock_levels set on_hand = 10 where variant_id in (${medium}, ${mugVariant})`,
    );

    const checkouts = racingCheckouts(mail, {
      count: 60,
      key: prefix,
      lines: [
        { productId: teeId, variantId: medium, quantity: 1 },
        { productId: mugId, variantId: mugVariant, quantity: 1 },
        { productId: capId, variantId: capVariant, quantity: 1 },
      ],
    });
    const imports = [file(7, "11"), file(0, "12"), file(9, "13"), file(4, "14")].map(run);
    const [placements] = await Promise.all([checkouts.placements, Promise.all(imports)]);
    expect(checkouts.attempts()).toBe(60);
    expect(placements.filter((placement) => placement.outcome === "placed")).toHaveLength(10);
    expect(placements.filter((placement) => placement.outcome === "short")).toHaveLength(50);
    const level = async (variantId: number) =>
      (await db.select().from(stockLevels).where(eq(stockLevels.variantId, variantId)))[0]?.onHand;
    expect(await level(medium)).toBe(0);
    expect(await level(mugVariant)).toBe(0);
    expect(await db.select().from(orderLines).where(eq(orderLines.variantId, medium))).toHaveLength(10);
    // The imports take turns (one lock): the last one's S stock and mug price, whichever it was.
    const [after] = await db.select().from(products).where(eq(products.id, mugId));
    const small = await level(await idOf(`${prefix}-TEE-S`));
    expect([
      [7, 1100],
      [0, 1200],
      [9, 1300],
      [4, 1400],
    ]).toContainEqual([small, after?.priceMinor]);
  });
});

reportPostgresSkipped("imports racing checkouts");
