import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  auditLog,
  orderLines,
  orders,
  productOptions,
  products,
  productVariants,
  stockLevels,
} from "~/db/schema";
import { COMMAND_LINE } from "~/utils/audit-log.server";
import { productInStock } from "../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { writeProductVariants } from "./variant-writing.server";
import { everyCombination, productVariantsSchema, type VariantsAsked } from "./variants-schema";

const engines = await openTestDatabases();

const SIZE_AND_COLOUR = [
  { name: "Size", values: [{ value: "S" }, { value: "M" }, { value: "L" }] },
  { name: "Colour", values: [{ value: "Red", swatch: "#b91c1c" }, { value: "Blue" }] },
];

/** A shirt's variants for every combination of `options`, each with its SKU, price and stock. */
function shirt(prefix: string, options = SIZE_AND_COLOUR): VariantsAsked {
  return productVariantsSchema.parse({
    options,
    variants: everyCombination(options).map((values, at) => ({
      values,
      sku: `${prefix}-${values.join("-")}`,
      priceMinor: 1200 + 100 * at,
      onHand: at,
    })),
  });
}

describe("the variants schema", () => {
  it("makes every combination of the options' values, and one empty one without options", () => {
    expect(everyCombination(SIZE_AND_COLOUR)).toEqual([
      ["S", "Red"],
      ["S", "Blue"],
      ["M", "Red"],
      ["M", "Blue"],
      ["L", "Red"],
      ["L", "Blue"],
    ]);
    expect(everyCombination([])).toEqual([[]]);
  });

  it("names what is wrong where it is: an unknown value, a combination twice, a SKU twice, a 'was' price", () => {
    const result = productVariantsSchema.safeParse({
      options: [{ name: "Size", values: [{ value: "S" }, { value: "M" }] }],
      variants: [
        { values: ["S"], sku: "A", priceMinor: 100 },
        { values: ["XL"], sku: "B", priceMinor: 100 },
        { values: ["S"], sku: "A", priceMinor: 100, compareAtMinor: 100 },
      ],
    });
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join(".")) ?? [];
    expect(paths).toEqual([
      "variants.1.values.0",
      "variants.2.values",
      "variants.2.sku",
      "variants.2.compareAtMinor",
    ]);
  });

  it("refuses two variants without options, and a fourth option", () => {
    const two = productVariantsSchema.safeParse({
      options: [],
      variants: [
        { values: [], sku: "A", priceMinor: 1 },
        { values: [], sku: "B", priceMinor: 1 },
      ],
    });
    expect(two.error?.issues[0]?.message).toBe("A product without options has exactly one variant.");
    const four = productVariantsSchema.safeParse({
      options: ["A", "B", "C", "D"].map((name) => ({ name, values: [{ value: "x" }] })),
      variants: [{ values: ["x", "x", "x", "x"], sku: "A", priceMinor: 1 }],
    });
    expect(four.success).toBe(false);
  });

  it("refuses an option name with a colon: the shop's filter writes a choice as Size:M", () => {
    const colon = productVariantsSchema.safeParse({
      options: [{ name: "Size: EU", values: [{ value: "40" }] }],
      variants: [{ values: ["40"], sku: "A", priceMinor: 1 }],
    });
    expect(colon.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["options.0.name", "An option name cannot hold a colon (:)."],
    ]);
  });
});

describe.each(engines)("writing a product's variants on $name", (engine: TestDatabase) => {
  const { db } = engine;

  const variantsOf = (productId: number) =>
    db
      .select({
        id: productVariants.id,
        sku: productVariants.sku,
        option1: productVariants.option1,
        option2: productVariants.option2,
        priceMinor: productVariants.priceMinor,
        archived: productVariants.archivedAt,
        onHand: stockLevels.onHand,
      })
      .from(productVariants)
      .innerJoin(stockLevels, eq(stockLevels.variantId, productVariants.id))
      .where(eq(productVariants.productId, productId))
      .orderBy(asc(productVariants.position), asc(productVariants.id));

  const priceRange = async (productId: number) =>
    (
      await db
        .select({ low: products.priceMinor, high: products.priceMaxMinor, was: products.compareAtMinor })
        .from(products)
        .where(eq(products.id, productId))
    )[0];

  it("makes 6 variants of 2 options × 3 and 2 values, each with its stock, and the product's price range", async () => {
    const productId = await productInStock(engine, 0);
    const prefix = randomUUID().slice(0, 8);
    const written = await writeProductVariants(db, productId, shirt(prefix), COMMAND_LINE);
    expect(written).toMatchObject({ ok: true, variantIds: expect.any(Array) });
    const variants = await variantsOf(productId);
    expect(variants.map(({ sku, option1, option2, onHand }) => ({ sku, option1, option2, onHand }))).toEqual(
      everyCombination(SIZE_AND_COLOUR).map(([size, colour], at) => ({
        sku: `${prefix}-${size}-${colour}`,
        option1: size,
        option2: colour,
        onHand: at,
      })),
    );
    expect(await priceRange(productId)).toEqual({ low: 1200, high: 1700, was: null });
    // The cheapest variant on sale: its "was" price is the card's.
    const onSale = shirt(prefix);
    onSale.variants = onSale.variants.map((variant, at) => ({
      ...variant,
      compareAtMinor: at === 0 ? 1500 : at === 1 ? 1900 : null,
    }));
    await writeProductVariants(db, productId, onSale, COMMAND_LINE);
    expect(await priceRange(productId)).toEqual({ low: 1200, high: 1700, was: 1500 });
    const options = await db
      .select({ name: productOptions.name, values: productOptions.values })
      .from(productOptions)
      .where(eq(productOptions.productId, productId))
      .orderBy(productOptions.position);
    expect(options).toEqual(SIZE_AND_COLOUR);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `product:${productId}`));
    expect(entry).toMatchObject({ action: "product.variants-changed", actorEmail: "command line" });
  });

  it("keeps a variant asked again by its values, removes one no longer asked, and archives one an order names", async () => {
    const productId = await productInStock(engine, 0);
    const prefix = randomUUID().slice(0, 8);
    const first = await writeProductVariants(db, productId, shirt(prefix), COMMAND_LINE);
    if (!first.ok) throw new Error(first.message);
    const before = await variantsOf(productId);
    const sold = before.find((variant) => variant.option1 === "L" && variant.option2 === "Red");
    const [order] = await db
      .insert(orders)
      .values({
        number: `BL-${prefix.slice(0, 5).toUpperCase()}`,
        idempotencyScope: "test",
        idempotencyKey: prefix,
        requestHash: "x",
        email: "a@example.com",
        shippingAddress: {},
        shippingMethod: "standard",
        paymentMethod: "bank-transfer",
        subtotalCents: 1600,
        shippingCents: 0,
        totalCents: 1600,
        currency: "USD",
      })
      .returning({ id: orders.id });
    await db.insert(orderLines).values({
      orderId: order?.id as number,
      productId,
      variantId: sold?.id as number,
      name: "Shirt",
      sku: sold?.sku as string,
      unitPriceCents: 1600,
      quantity: 1,
      lineTotalCents: 1600,
    });
    // Size L dropped: L/Blue was never sold and goes; L/Red is archived for its order.
    const smaller = [
      { name: "Size", values: [{ value: "S" }, { value: "M" }] },
      SIZE_AND_COLOUR[1],
    ] as typeof SIZE_AND_COLOUR;
    const second = await writeProductVariants(db, productId, shirt(prefix, smaller), COMMAND_LINE);
    expect(second.ok).toBe(true);
    const after = await variantsOf(productId);
    expect(after.filter((variant) => variant.archived === null).map((variant) => variant.id)).toEqual(
      before.slice(0, 4).map((variant) => variant.id),
    );
    expect(after.filter((variant) => variant.archived !== null).map((variant) => variant.id)).toEqual([
      sold?.id,
    ]);
    expect(await priceRange(productId)).toEqual({ low: 1200, high: 1500, was: null });
    // Asked for again by its values, the archived one is back, its stock kept.
    const again = await writeProductVariants(db, productId, shirt(prefix), COMMAND_LINE);
    expect(again.ok).toBe(true);
    const restored = (await variantsOf(productId)).find((variant) => variant.id === sold?.id);
    expect(restored).toMatchObject({ archived: null, onHand: 4 });
  });

  it("lets two variants trade SKUs, and refuses a SKU another product's variant has", async () => {
    const productId = await productInStock(engine, 0);
    const prefix = randomUUID().slice(0, 8);
    const sizes = [{ name: "Size", values: [{ value: "S" }, { value: "M" }] }];
    const asked = (skus: [string, string]) =>
      productVariantsSchema.parse({
        options: sizes,
        variants: [
          { values: ["S"], sku: skus[0], priceMinor: 1000 },
          { values: ["M"], sku: skus[1], priceMinor: 1000 },
        ],
      });
    expect(
      (await writeProductVariants(db, productId, asked([`${prefix}-a`, `${prefix}-b`]), COMMAND_LINE)).ok,
    ).toBe(true);
    expect(
      (await writeProductVariants(db, productId, asked([`${prefix}-b`, `${prefix}-a`]), COMMAND_LINE)).ok,
    ).toBe(true);
    expect((await variantsOf(productId)).map((variant) => variant.sku)).toEqual([
      `${prefix}-b`,
      `${prefix}-a`,
    ]);
    expect(await priceRange(productId)).toEqual({ low: 1000, high: null, was: null });

    const other = await productInStock(engine, 0);
    const refused = await writeProductVariants(
      db,
      other,
      asked([`${prefix}-a`, `${prefix}-c`]),
      COMMAND_LINE,
    );
    expect(refused).toMatchObject({ ok: false, field: "variants" });
    expect(await variantsOf(other)).toHaveLength(1);
  });

  it("refuses a variant id of another product, and changes nothing", async () => {
    const productId = await productInStock(engine, 3);
    const other = await productInStock(engine, 3);
    const [foreign] = await variantsOf(other);
    const refused = await writeProductVariants(
      db,
      productId,
      productVariantsSchema.parse({
        options: [],
        variants: [{ id: foreign?.id, values: [], sku: randomUUID(), priceMinor: 1 }],
      }),
      COMMAND_LINE,
    );
    expect(refused).toMatchObject({ ok: false, field: "variants.0.id" });
    expect((await variantsOf(productId))[0]).toMatchObject({ onHand: 3 });
  });
});

reportPostgresSkipped("writing a product's variants on $name");
