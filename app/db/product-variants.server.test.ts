import fs from "node:fs";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsBefore } from "../../tests/support/migrations-before";
import { postgresServer, SERVICES_PASS } from "../../tests/support/requirements";
import { productInStock } from "../../tests/support/shop-context";
import {
  createScratchPostgres,
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { type DatabaseHandle, openDatabase } from "./client.server";
import { migrateDatabase } from "./migrate.server";
import {
  cartLines,
  catalogChanges,
  catalogRevisions,
  orderLines,
  productOptions,
  products,
  productVariants,
  stockLevels,
} from "./schema";

// drizzle/0021 (docs/decisions/0045): what a shopper buys is a variant, and every product has one.

const engines = await openTestDatabases();

const variantsOf = (engine: TestDatabase, productId: number) =>
  engine.db
    .select({
      sku: productVariants.sku,
      priceMinor: productVariants.priceMinor,
      option1: productVariants.option1,
    })
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.id));

/** The database's refusal of a write, as a client reads it: its constraint's name, or "" if none. */
async function refusal(write: Promise<unknown>): Promise<string> {
  try {
    await write;
    return "";
  } catch (error) {
    const cause = (error as { cause?: { constraint?: string; message?: string } }).cause;
    return cause?.constraint ?? cause?.message ?? String(error);
  }
}

describe.each(engines)("products and their variants on $name", (engine: TestDatabase) => {
  it("gives every product its one variant: its SKU and price, following the product's", async () => {
    const id = await productInStock(engine, 3, 12.5);
    const [product] = await engine.db.select({ sku: products.sku }).from(products).where(eq(products.id, id));
    expect(await variantsOf(engine, id)).toEqual([{ sku: product?.sku, priceMinor: 1250, option1: null }]);

    await engine.db
      .update(products)
      .set({ priceMinor: 999, sku: `TEA-${id}` })
      .where(eq(products.id, id));
    expect(await variantsOf(engine, id)).toEqual([{ sku: `TEA-${id}`, priceMinor: 999, option1: null }]);

    // Every product the database holds, the demo catalogue's included, is one variant of its own.
    const unmatched = await engine.db
      .select({ id: products.id })
      .from(products)
      .where(
        sql`(select count(*) from ${productVariants} v
              where v.product_id = ${products.id} and v.sku = ${products.sku}
                and v.price_minor = ${products.priceMinor}) <> 1`,
      );
    expect(unmatched).toEqual([]);
  });

  it("leaves a product with options to its variants: the product's price does not overwrite theirs", async () => {
    const id = await productInStock(engine, 1, 20);
    await engine.db.insert(productOptions).values({
      productId: id,
      position: 1,
      name: "Size",
      values: [{ value: "S" }, { value: "M" }],
    });
    await engine.db
      .update(productVariants)
      .set({ option1: "S", sku: `SHIRT-${id}-S` })
      .where(eq(productVariants.productId, id));
    await engine.db
      .insert(productVariants)
      .values({ productId: id, sku: `SHIRT-${id}-M`, option1: "M", priceMinor: 2400 });
    await engine.db.update(products).set({ priceMinor: 1 }).where(eq(products.id, id));
    expect(await variantsOf(engine, id)).toEqual([
      { sku: `SHIRT-${id}-S`, priceMinor: 2000, option1: "S" },
      { sku: `SHIRT-${id}-M`, priceMinor: 2400, option1: "M" },
    ]);
  });

  it("leaves a product of several variants to them even without options: its update still succeeds", async () => {
    const id = await productInStock(engine, 1, 20);
    await engine.db
      .insert(productVariants)
      .values({ productId: id, sku: `PAIR-${id}-2`, option1: "Second", priceMinor: 2400 });
    // A review's recount, an archive, an import: any update of the product row.
    await engine.db.update(products).set({ ratings: 4.5, priceMinor: 1 }).where(eq(products.id, id));
    const variants = await variantsOf(engine, id);
    expect(variants.map((variant) => variant.priceMinor)).toEqual([2000, 2400]);
    expect(variants[1]?.sku).toBe(`PAIR-${id}-2`);
  });

  it("follows the product's one live variant when the others are archived (drizzle/0025)", async () => {
    const id = await productInStock(engine, 1, 20);
    await engine.db
      .insert(productVariants)
      .values({ productId: id, sku: `GONE-${id}`, option1: "Old", priceMinor: 900, archivedAt: new Date() });
    await engine.db.update(products).set({ priceMinor: 2500 }).where(eq(products.id, id));
    const variants = await variantsOf(engine, id);
    // The live one charges what the product says; the archived one keeps its price for its orders.
    expect(variants.map((variant) => variant.priceMinor)).toEqual([2500, 900]);
  });

  it("refuses a SKU twice, two live variants alike, an empty value and a 'was' price not above the price", async () => {
    const id = await productInStock(engine, 1, 20);
    const other = await productInStock(engine, 1, 20);
    const [taken] = await variantsOf(engine, other);
    const variant = (values: Partial<typeof productVariants.$inferInsert>) =>
      engine.db
        .insert(productVariants)
        .values({ productId: id, sku: `V-${Math.random()}`, priceMinor: 100, ...values });

    expect(await refusal(variant({ sku: taken?.sku }))).toBe("product_variants_sku_idx");
    // The product's own first variant has no values: a second without any is the same variant.
    expect(await refusal(variant({}))).toBe("product_variants_values_idx");
    expect(await refusal(variant({ option1: "" }))).toBe("product_variants_values_check");
    expect(await refusal(variant({ option1: "Red", compareAtMinor: 100 }))).toBe(
      "product_variants_compare_at_check",
    );
    // Archived, a variant's values are free again (it stays for the orders that name it).
    expect(await refusal(variant({ option1: "Red", archivedAt: new Date() }))).toBe("");
    expect(await refusal(variant({ option1: "Red", compareAtMinor: 150 }))).toBe("");
  });
});
reportPostgresSkipped("products and their variants on $name");

describe.each(engines)("stock per variant on $name", (engine: TestDatabase) => {
  /** A product of two variants, S (its first) and M, each with its stock row; their ids. */
  async function twoSizes(stockS: number, stockM: number) {
    const productId = await productInStock(engine, stockS, 20);
    await engine.db
      .update(productVariants)
      .set({ option1: "S", sku: `TEE-${productId}-S` })
      .where(eq(productVariants.productId, productId));
    const [m] = await engine.db
      .insert(productVariants)
      .values({ productId, sku: `TEE-${productId}-M`, option1: "M", priceMinor: 2000 })
      .returning({ id: productVariants.id });
    const [s] = await engine.db
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(and(eq(productVariants.productId, productId), eq(productVariants.option1, "S")));
    const mId = (m as { id: number }).id;
    await engine.db.update(stockLevels).set({ onHand: stockM }).where(eq(stockLevels.variantId, mId));
    return { productId, s: (s as { id: number }).id, m: mId };
  }
  const setStock = (variantId: number, onHand: number) =>
    engine.db.update(stockLevels).set({ onHand }).where(eq(stockLevels.variantId, variantId));
  const revision = async () => {
    const [row] = await engine.db.select({ revision: catalogRevisions.revision }).from(catalogRevisions);
    return row?.revision ?? 0;
  };
  /** The products recorded as changed after `since`. */
  const changedSince = async (since: number) =>
    (
      await engine.db
        .select({ productId: catalogChanges.productId })
        .from(catalogChanges)
        .where(gt(catalogChanges.revision, since))
    ).map((change) => change.productId);

  it("gives every new variant its own stock row, at 0, beside its product", async () => {
    const { productId, s, m } = await twoSizes(4, 0);
    const rows = await engine.db
      .select({ variantId: stockLevels.variantId, onHand: stockLevels.onHand })
      .from(stockLevels)
      .where(eq(stockLevels.productId, productId))
      .orderBy(asc(stockLevels.variantId));
    expect(rows).toEqual([
      { variantId: s, onHand: 4 },
      { variantId: m, onHand: 0 },
    ]);
  });

  it("records the product as changed only when the sum over its variants crosses zero", async () => {
    const { productId, s, m } = await twoSizes(2, 3);
    let since = await revision();
    await setStock(s, 0);
    // M still has 3: the product is in stock, nothing for the index.
    expect(await changedSince(since)).toEqual([]);
    await setStock(m, 0);
    expect(await changedSince(since)).toEqual([productId]);
    since = await revision();
    await setStock(s, 1);
    expect(await changedSince(since)).toEqual([productId]);
    since = await revision();
    // One statement moving a unit from S to M leaves the sum as it was.
    await engine.db.execute(sql`
      update stock_levels set on_hand = case when variant_id = ${s} then 0 else 1 end
       where variant_id in (${s}, ${m})`);
    expect(await changedSince(since)).toEqual([]);
  });

  it("counts only live variants: a sold-out product is not in stock by an archived variant's units", async () => {
    const { productId, s, m } = await twoSizes(0, 0);
    await engine.db.update(productVariants).set({ archivedAt: new Date() }).where(eq(productVariants.id, m));
    const since = await revision();
    await setStock(m, 5);
    expect(await changedSince(since)).toEqual([]);
    await setStock(s, 1);
    expect(await changedSince(since)).toEqual([productId]);
  });

  it("records a product whose last stocked variant is deleted, and never a deleted product", async () => {
    const { productId, m } = await twoSizes(0, 2);
    const since = await revision();
    await engine.db.delete(productVariants).where(eq(productVariants.id, m));
    expect(await changedSince(since)).toEqual([productId]);
  });
});
reportPostgresSkipped("stock per variant on $name");

/**
 * A shop as it was before drizzle/0021, with a few products, a cart and an order; then migrated by
 * the current code (0021 to 0023).
 */
async function migratedProducts(handle: DatabaseHandle) {
  const before = migrationsBefore("0021_product_variants");
  try {
    await migrateDatabase(handle, { migrationsFolder: before });
  } finally {
    fs.rmSync(before, { recursive: true, force: true });
  }
  await handle.db.execute(sql`insert into brands (value, label, position) values ('b', 'B', 0)`);
  await handle.db.execute(sql`insert into categories (value, label, position) values ('c', 'C', 0)`);
  await handle.db.execute(sql`
    insert into products (sku, name, description, image, price_minor, ratings, band_name, category, creation_date)
    select 'SKU-' || n, 'P' || n, '', '/p.png', n * 100, 0, 'b', 'c', now() from generate_series(1, 50) as n`);
  // A cart and an order of product 7, as lines were written then (by product): drizzle/0023 makes
  // them its variant's.
  await handle.db.execute(sql`insert into carts (token_hash) values ('guest')`);
  await handle.db.execute(sql`
    insert into cart_lines (cart_id, product_id, quantity, unit_price_cents_seen, currency_seen)
    select id, 7, 2, 700, 'USD' from carts`);
  await handle.db.execute(sql`
    insert into orders (number, idempotency_scope, idempotency_key, request_hash, email, shipping_address,
                        shipping_method, payment_method, subtotal_cents, shipping_cents, total_cents, currency)
    values ('BL-OLD01', 'cart:x', 'key', 'hash', 'a@example.com', '{}', 'standard', 'bank-transfer', 700, 0, 700, 'USD')`);
  await handle.db.execute(sql`
    insert into order_lines (order_id, product_id, name, unit_price_cents, quantity, line_total_cents)
    select id, 7, 'P7', 700, 1, 700 from orders`);
  await migrateDatabase(handle);
  const [seven] = await handle.db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(eq(productVariants.sku, "SKU-7"));
  expect(
    await handle.db.select({ variantId: cartLines.variantId, quantity: cartLines.quantity }).from(cartLines),
  ).toEqual([{ variantId: seven?.id, quantity: 2 }]);
  expect(
    await handle.db
      .select({ variantId: orderLines.variantId, sku: orderLines.sku, options: orderLines.options })
      .from(orderLines),
  ).toEqual([{ variantId: seven?.id, sku: "SKU-7", options: {} }]);
  const variants = await handle.db
    .select({ sku: productVariants.sku, priceMinor: productVariants.priceMinor, productSku: products.sku })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .orderBy(asc(productVariants.id));
  expect(variants).toHaveLength(50);
  expect(
    variants.every((row, index) => row.sku === row.productSku && row.priceMinor === (index + 1) * 100),
  ).toBe(true);
}

const closers: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(closers.map((close) => close())));

describe("drizzle/0021–0023: every product there was becomes its one variant, and its lines that variant's", () => {
  if (!SERVICES_PASS)
    it("on PGlite", async () => {
      const handle = await openDatabase({ dataDir: "memory://" });
      closers.push(() => handle.close());
      await migratedProducts(handle);
    });

  if (postgresServer.met)
    it("on PostgreSQL", async () => {
      const scratch = await createScratchPostgres();
      const handle = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
      closers.push(() => handle.close().then(() => scratch.drop()));
      await migratedProducts(handle);
    });
});
reportPostgresSkipped("drizzle/0021–0023: every product there was becomes its one variant, on $name");
