import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { carts, products, users } from "~/db/schema";
import { productInStock } from "../../../tests/support/shop-context";
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
    await addToCart(db, shopper, mug, 2);
    expect(await addToCart(db, shopper, mug, 3)).toEqual({
      outcome: "added",
      cartId: expect.any(String),
      quantity: 5,
      capped: false,
      stock: 50,
    });
    await addToCart(db, shopper, spoon, 3);
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
    expect(await addToCart(db, shopper, scarce, 10)).toEqual({
      outcome: "added",
      cartId: expect.any(String),
      quantity: 4,
      capped: true,
      stock: 4,
    });
    expect(await addToCart(db, shopper, scarce, 1)).toMatchObject({ quantity: 4, capped: true });
    expect(await addToCart(db, shopper, await product(0), 1)).toEqual({ outcome: "sold-out" });
    expect(await addToCart(db, shopper, 987_654_321, 1)).toEqual({ outcome: "unknown-product" });
    expect(await quantities(shopper)).toEqual({ [scarce]: 4 });
  });

  it("20 adds at once from two tabs never pass the stock", async () => {
    const scarce = await product(5);
    const shopper = guest();
    await addToCart(db, shopper, scarce, 1);
    await Promise.all(Array.from({ length: 20 }, () => addToCart(db, shopper, scarce, 1)));
    expect(await quantities(shopper)).toEqual({ [scarce]: 5 });
  });

  it("sets a quantity up to the stock and 99; 0 removes the line", async () => {
    const plenty = await product(500);
    const scarce = await product(3);
    const shopper = guest();
    await addToCart(db, shopper, plenty, 1);
    await addToCart(db, shopper, scarce, 1);
    expect(await setLineQuantity(db, shopper, plenty, 150)).toBe(99);
    expect(await setLineQuantity(db, shopper, scarce, 7)).toBe(3);
    expect(await setLineQuantity(db, shopper, scarce, 0)).toBe(0);
    expect(await quantities(shopper)).toEqual({ [plenty]: 99 });
  });

  it("says when a price changed since the line was added", async () => {
    const mug = await product(10, 12.5);
    const shopper = guest();
    await addToCart(db, shopper, mug, 1);
    await db.update(products).set({ priceMinor: 1400 }).where(eq(products.id, mug));
    expect((await readCart(db, shopper)).lines[0]).toMatchObject({
      unitPriceCents: 1400,
      priceChanged: true,
    });
  });

  it("an account's cart is the same wherever it signs in", async () => {
    const mug = await product(10);
    const ada = await account();
    await addToCart(db, ada, mug, 2);
    expect(await quantities({ userId: ada.userId })).toEqual({ [mug]: 2 });
  });

  it("signing in merges the guest's cart into the account's, capped by stock, and the guest cart is gone", async () => {
    const mug = await product(4);
    const spoon = await product(10);
    const ada = await account();
    await addToCart(db, ada, mug, 3);
    const shopper = guest();
    await addToCart(db, shopper, mug, 2);
    await addToCart(db, shopper, spoon, 1);
    await mergeGuestCart(db, (shopper as { guestToken: string }).guestToken, ada.userId);
    expect(await quantities(ada)).toEqual({ [mug]: 4, [spoon]: 1 });
    expect(await readCart(db, shopper)).toMatchObject({ lines: [] });
  });

  it("forgets a guest's cart after its 30 days", async () => {
    const mug = await product(10);
    const shopper = guest();
    await addToCart(db, shopper, mug, 1);
    await expireGuestCarts();
    expect(await readCart(db, shopper)).toMatchObject({ lines: [] });
    expect(await removeExpiredCarts(db)).toBeGreaterThanOrEqual(1);
  });

  it("tidies expired guest carts at once and every 6 hours, leaving accounts' carts", async () => {
    const mug = await product(10);
    const ada = await account();
    await addToCart(db, ada, mug, 1);
    const shopper = guest();
    await addToCart(db, shopper, mug, 1);
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
