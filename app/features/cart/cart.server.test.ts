import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { carts, productOptions, products, productVariants, users } from "~/db/schema";
import { productWithVariants } from "../../../tests/support/product-variants";
import { onlyVariantOf, productInStock } from "../../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../tests/support/test-database";
import {
  addToCart,
  type CartOwner,
  keepCartsTidy,
  mergeGuestCart,
  newGuestToken,
  readCart,
  removeExpiredCarts,
  setLineQuantity,
} from "./cart.server";

const engines = await openTestDatabases();

describe.each(engines)("the cart on $name", (engine: TestDatabase) => {
  const { db } = engine;

  const product = (onHand: number, price?: number) => productInStock(engine, onHand, price);

  async function account(): Promise<CartOwner & { userId: string }> {
    const id = randomUUID();
    await db.insert(users).values({ id, name: "Ada", email: `${id}@example.com` });
    return { userId: id };
  }

  const guest = (): CartOwner => ({ guestToken: newGuestToken() });
  /** Every guest cart as it is once its 30 days are over. */
  const expireGuestCarts = () =>
    db.update(carts).set({ expiresAt: sql`now() - interval '1 second'` }).where(sql`${carts.userId} is null`);
  const quantities = async (owner: CartOwner) =>
    Object.fromEntries((await readCart(db, owner)).lines.map((line) => [line.productId, line.quantity]));

  it("adds to a line, and totals the cart in whole cents", async () => {
    const mug = await product(50, 12.5);
    const spoon = await product(50, 0.1);
    const shopper = guest();
    expect(await readCart(db, shopper)).toEqual({
      lines: [],
      itemCount: 0,
      subtotalCents: 0,
      currency: "USD",
      repricedFrom: null,
    });
    await addToCart(db, shopper, { productId: mug, quantity: 2 });
    expect(await addToCart(db, shopper, { productId: mug, quantity: 3 })).toEqual({
      outcome: "added",
      cartId: expect.any(String),
      variantId: await onlyVariantOf(db, mug),
      quantity: 5,
      capped: false,
      stock: 50,
    });
    await addToCart(db, shopper, { productId: spoon, quantity: 3 });
    const cart = await readCart(db, shopper);
    expect(cart).toMatchObject({ itemCount: 8, subtotalCents: 5 * 1250 + 3 * 10 });
    expect(
      cart.lines.map(({ productId, quantity, unitPriceCents, lineTotalCents, priceChanged }) => ({
        productId,
        quantity,
        unitPriceCents,
        lineTotalCents,
        priceChanged,
      })),
    ).toEqual([
      { productId: mug, quantity: 5, unitPriceCents: 1250, lineTotalCents: 6250, priceChanged: false },
      { productId: spoon, quantity: 3, unitPriceCents: 10, lineTotalCents: 30, priceChanged: false },
    ]);
  });

  it("adds only what is on hand and says so; refuses a sold-out or unknown product", async () => {
    const scarce = await product(4);
    const shopper = guest();
    expect(await addToCart(db, shopper, { productId: scarce, quantity: 10 })).toEqual({
      outcome: "added",
      cartId: expect.any(String),
      variantId: await onlyVariantOf(db, scarce),
      quantity: 4,
      capped: true,
      stock: 4,
    });
    expect(await addToCart(db, shopper, { productId: scarce, quantity: 1 })).toMatchObject({
      quantity: 4,
      capped: true,
    });
    const gone = await product(0);
    expect(await addToCart(db, shopper, { productId: gone, quantity: 1 })).toEqual({
      outcome: "sold-out",
      variantId: await onlyVariantOf(db, gone),
    });
    expect(await addToCart(db, shopper, { productId: 987_654_321, quantity: 1 })).toEqual({
      outcome: "unknown-product",
    });
    expect(await quantities(shopper)).toEqual({ [scarce]: 4 });
  });

  it("20 adds at once from two tabs never pass the stock", async () => {
    const scarce = await product(5);
    const shopper = guest();
    await addToCart(db, shopper, { productId: scarce, quantity: 1 });
    await Promise.all(
      Array.from({ length: 20 }, () => addToCart(db, shopper, { productId: scarce, quantity: 1 })),
    );
    expect(await quantities(shopper)).toEqual({ [scarce]: 5 });
  });

  it("sets a quantity up to the stock and 99; 0 removes the line", async () => {
    const plenty = await product(500);
    const scarce = await product(3);
    const shopper = guest();
    await addToCart(db, shopper, { productId: plenty, quantity: 1 });
    await addToCart(db, shopper, { productId: scarce, quantity: 1 });
    const [plentyLine, scarceLine] = [await onlyVariantOf(db, plenty), await onlyVariantOf(db, scarce)];
    expect(await setLineQuantity(db, shopper, plentyLine, 150)).toBe(99);
    expect(await setLineQuantity(db, shopper, scarceLine, 7)).toBe(3);
    expect(await setLineQuantity(db, shopper, scarceLine, 0)).toBe(0);
    expect(await quantities(shopper)).toEqual({ [plenty]: 99 });
  });

  it("holds two variants of one product as two lines, each with its SKU, options, price and stock", async () => {
    const shirt = await productWithVariants(engine, {
      options: [
        { name: "Size", values: ["S", "M"] },
        { name: "Colour", values: ["Red", "Blue"] },
      ],
      variants: [
        { values: ["S", "Red"], priceMinor: 1200, onHand: 5 },
        { values: ["M", "Red"], priceMinor: 1500, onHand: 2 },
        { values: ["M", "Blue"], priceMinor: 1500, onHand: 0 },
      ],
    });
    const [small, medium, blue] = shirt.variantIds as [number, number, number];
    const shopper = guest();
    await addToCart(db, shopper, { productId: shirt.productId, variantId: small, quantity: 2 });
    expect(
      await addToCart(db, shopper, { productId: shirt.productId, variantId: medium, quantity: 3 }),
    ).toMatchObject({ outcome: "added", variantId: medium, quantity: 2, capped: true, stock: 2 });
    const cart = await readCart(db, shopper);
    expect(
      cart.lines.map(({ variantId, sku, options, unitPriceCents, quantity, stock }) => ({
        variantId,
        sku,
        options,
        unitPriceCents,
        quantity,
        stock,
      })),
    ).toEqual([
      {
        variantId: small,
        sku: `${shirt.sku}-1`,
        options: { Size: "S", Colour: "Red" },
        unitPriceCents: 1200,
        quantity: 2,
        stock: 5,
      },
      {
        variantId: medium,
        sku: `${shirt.sku}-2`,
        options: { Size: "M", Colour: "Red" },
        unitPriceCents: 1500,
        quantity: 2,
        stock: 2,
      },
    ]);
    expect(cart).toMatchObject({ itemCount: 4, subtotalCents: 2 * 1200 + 2 * 1500 });
    // Which variant is for the shopper to say; one of another product's, or a sold-out one, adds nothing.
    expect(await addToCart(db, shopper, { productId: shirt.productId, quantity: 1 })).toEqual({
      outcome: "variant-required",
    });
    const mug = await product(5);
    expect(
      await addToCart(db, shopper, {
        productId: shirt.productId,
        variantId: await onlyVariantOf(db, mug),
        quantity: 1,
      }),
    ).toEqual({ outcome: "unknown-variant" });
    expect(
      await addToCart(db, shopper, { productId: shirt.productId, variantId: blue, quantity: 1 }),
    ).toEqual({
      outcome: "sold-out",
      variantId: blue,
    });
    expect(await setLineQuantity(db, shopper, medium, 0)).toBe(0);
    expect((await readCart(db, shopper)).lines.map((line) => line.variantId)).toEqual([small]);
  });

  it("refuses an archived variant, and adds a product's last live one without being told which", async () => {
    const tent = await productWithVariants(engine, {
      options: [{ name: "Size", values: ["2-person", "4-person"] }],
      variants: [
        { values: ["2-person"], priceMinor: 9900, onHand: 3 },
        { values: ["4-person"], priceMinor: 14900, onHand: 3 },
      ],
    });
    const [two, four] = tent.variantIds as [number, number];
    await db.update(productVariants).set({ archivedAt: new Date() }).where(eq(productVariants.id, four));
    const shopper = guest();
    expect(await addToCart(db, shopper, { productId: tent.productId, variantId: four, quantity: 1 })).toEqual(
      {
        outcome: "sold-out",
        variantId: four,
      },
    );
    expect(await addToCart(db, shopper, { productId: tent.productId, quantity: 1 })).toMatchObject({
      outcome: "added",
      variantId: two,
    });
  });

  it("names only the options a line's variant has values for (one made before an option was added)", async () => {
    const tent = await productWithVariants(engine, {
      options: [{ name: "Size", values: ["2-person"] }],
      variants: [{ values: ["2-person"], priceMinor: 9900, onHand: 3 }],
    });
    const shopper = guest();
    await addToCart(db, shopper, { productId: tent.productId, quantity: 1 });
    // An option added later, as rows: the variant has no value for it.
    await db
      .insert(productOptions)
      .values({ productId: tent.productId, position: 2, name: "Colour", values: [] });
    expect((await readCart(db, shopper)).lines[0]?.options).toEqual({ Size: "2-person" });
  });

  it("says when a price changed since the line was added", async () => {
    const mug = await product(10, 12.5);
    const shopper = guest();
    await addToCart(db, shopper, { productId: mug, quantity: 1 });
    await db.update(products).set({ priceMinor: 1400 }).where(eq(products.id, mug));
    expect((await readCart(db, shopper)).lines[0]).toMatchObject({
      unitPriceCents: 1400,
      priceChanged: true,
    });
  });

  it("an account's cart is the same wherever it signs in", async () => {
    const mug = await product(10);
    const ada = await account();
    await addToCart(db, ada, { productId: mug, quantity: 2 });
    expect(await quantities({ userId: ada.userId })).toEqual({ [mug]: 2 });
  });

  it("signing in merges the guest's cart into the account's, capped by stock, and the guest cart is gone", async () => {
    const mug = await product(4);
    const spoon = await product(10);
    const ada = await account();
    await addToCart(db, ada, { productId: mug, quantity: 3 });
    const shopper = guest();
    await addToCart(db, shopper, { productId: mug, quantity: 2 });
    await addToCart(db, shopper, { productId: spoon, quantity: 1 });
    await mergeGuestCart(db, (shopper as { guestToken: string }).guestToken, ada.userId);
    expect(await quantities(ada)).toEqual({ [mug]: 4, [spoon]: 1 });
    expect(await readCart(db, shopper)).toMatchObject({ lines: [] });
  });

  it("forgets a guest's cart after its 30 days", async () => {
    const mug = await product(10);
    const shopper = guest();
    await addToCart(db, shopper, { productId: mug, quantity: 1 });
    await expireGuestCarts();
    expect(await readCart(db, shopper)).toMatchObject({ lines: [] });
    expect(await removeExpiredCarts(db)).toBeGreaterThanOrEqual(1);
  });

  it("tidies expired guest carts at once and every 6 hours, leaving accounts' carts", async () => {
    const mug = await product(10);
    const ada = await account();
    await addToCart(db, ada, { productId: mug, quantity: 1 });
    const shopper = guest();
    await addToCart(db, shopper, { productId: mug, quantity: 1 });
    await expireGuestCarts();
    const failures: unknown[] = [];
    const tidy = keepCartsTidy(db, (error) => failures.push(error));
    try {
      await tidy.first;
      expect(await db.select().from(carts).where(sql`${carts.userId} is null`)).toEqual([]);
      expect(await quantities(ada)).toEqual({ [mug]: 1 });
      expect(failures).toEqual([]);
    } finally {
      tidy.stop();
    }
  });
});

reportPostgresSkipped("the cart on $name");
