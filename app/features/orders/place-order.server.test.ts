import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { cartLines, carts, orderLines, orders, products, stockLevels } from "~/db/schema";
import { productInStock } from "../../../tests/support/shop-context";
import { SHOPPER_ADDRESS } from "../../../tests/support/shopper";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { isOrderNumber } from "./order-number";
import { type OrderRequest, type Placement, placeOrder } from "./place-order.server";

const engines = await openTestDatabases();
afterAll(() => Promise.all(engines.map((engine) => engine.close())));

const request = (lines: OrderRequest["lines"], key = randomUUID()): OrderRequest => ({
  idempotencyScope: "cart:test",
  idempotencyKey: key,
  userId: null,
  email: "shopper@example.com",
  shippingAddress: SHOPPER_ADDRESS,
  shippingMethod: "standard",
  paymentMethod: "cash-on-delivery",
  shippingCentsFor: () => 499,
  lines,
});

const outcomes = (placements: Placement[]) =>
  placements.reduce<Record<string, number>>((counts, placement) => {
    counts[placement.outcome] = (counts[placement.outcome] ?? 0) + 1;
    return counts;
  }, {});

describe.each(engines)("placing orders on $name", (engine: TestDatabase) => {
  const { db } = engine;

  const product = (onHand: number, price = 19.99) => productInStock(engine, onHand, price);

  const onHand = async (id: number) =>
    (
      await db.select({ onHand: stockLevels.onHand }).from(stockLevels).where(eq(stockLevels.productId, id))
    )[0]?.onHand;

  const ordersNaming = async (id: number) =>
    Number(
      (
        await db.select({ count: sql<number>`count(*)` }).from(orderLines).where(eq(orderLines.productId, id))
      )[0]?.count,
    );

  it("gives every new product a stock level, starting at 0", async () => {
    await product(1); // its brand and category
    const [row] = await db
      .insert(products)
      .values({
        name: "Uncounted lamp",
        description: "Nobody has counted these yet.",
        image: "/images/products/lamp.webp",
        price: 10,
        ratings: 0,
        bandName: "blendMaster",
        category: "home goods",
        creationDate: new Date(),
      })
      .returning({ id: products.id });
    expect(await onHand((row as { id: number }).id)).toBe(0);
  });

  it("takes the stock and writes the order with its lines at today's prices, in whole cents", async () => {
    const kettle = await product(5, 19.99);
    const cup = await product(10, 0.1);
    const placement = await placeOrder(
      db,
      request([
        { productId: kettle, quantity: 2 },
        { productId: cup, quantity: 3 },
      ]),
    );
    expect(placement.outcome).toBe("placed");
    if (placement.outcome !== "placed") return;
    expect(isOrderNumber(placement.order.number)).toBe(true);
    expect(placement.order).toMatchObject({
      status: "placed",
      subtotalCents: 2 * 1999 + 3 * 10,
      shippingCents: 499,
      totalCents: 2 * 1999 + 3 * 10 + 499,
    });
    expect(
      placement.order.lines.map(({ productId, unitPriceCents, quantity, lineTotalCents }) => ({
        productId,
        unitPriceCents,
        quantity,
        lineTotalCents,
      })),
    ).toEqual([
      { productId: kettle, unitPriceCents: 1999, quantity: 2, lineTotalCents: 3998 },
      { productId: cup, unitPriceCents: 10, quantity: 3, lineTotalCents: 30 },
    ]);
    expect([await onHand(kettle), await onHand(cup)]).toEqual([3, 7]);
  });

  it("takes nothing when one line is short, and names each short line with what is left", async () => {
    const scarce = await product(2);
    const plenty = await product(50);
    const key = randomUUID();
    const placement = await placeOrder(
      db,
      request(
        [
          { productId: plenty, quantity: 4 },
          { productId: scarce, quantity: 3 },
        ],
        key,
      ),
    );
    expect(placement).toEqual({ outcome: "short", lines: [{ productId: scarce, asked: 3, left: 2 }] });
    expect([await onHand(scarce), await onHand(plenty)]).toEqual([2, 50]);
    expect(await db.select().from(orders).where(eq(orders.idempotencyKey, key))).toEqual([]);
  });

  it("200 checkouts at once for the last 10 units: exactly 10 orders, stock 0, 190 told it is short", async () => {
    const last = await product(10);
    const placements = await Promise.all(
      Array.from({ length: 200 }, () => placeOrder(db, request([{ productId: last, quantity: 1 }]))),
    );
    expect(outcomes(placements)).toEqual({ placed: 10, short: 190 });
    for (const placement of placements) {
      if (placement.outcome === "short")
        expect(placement.lines).toEqual([{ productId: last, asked: 1, left: 0 }]);
    }
    expect(await onHand(last)).toBe(0);
    expect(await ordersNaming(last)).toBe(10);
  });

  it("two lines of one product ask for their sum, which cannot pass the stock", async () => {
    const kettle = await product(10);
    const placement = await placeOrder(
      db,
      request([
        { productId: kettle, quantity: 6 },
        { productId: kettle, quantity: 6 },
      ]),
    );
    expect(placement).toEqual({ outcome: "short", lines: [{ productId: kettle, asked: 12, left: 10 }] });
    expect(await onHand(kettle)).toBe(10);
  });

  it("the same key sent 20 times at once makes one order, and every answer is that order", async () => {
    const kettle = await product(100);
    const key = randomUUID();
    const placements = await Promise.all(
      Array.from({ length: 20 }, () => placeOrder(db, request([{ productId: kettle, quantity: 2 }], key))),
    );
    expect(outcomes(placements)).toEqual({ placed: 20 });
    const numbers = new Set(
      placements.map((placement) => placement.outcome === "placed" && placement.order.number),
    );
    expect(numbers.size).toBe(1);
    expect(
      placements.filter((placement) => placement.outcome === "placed" && !placement.replayed),
    ).toHaveLength(1);
    expect(await onHand(kettle)).toBe(98);
    expect(
      await db.select({ id: orders.id }).from(orders).where(eq(orders.idempotencyKey, key)),
    ).toHaveLength(1);
  });

  it("refuses a key used before for another order, and keeps one shopper's keys apart from another's", async () => {
    const kettle = await product(100);
    const key = randomUUID();
    const first = await placeOrder(db, request([{ productId: kettle, quantity: 1 }], key));
    expect(first.outcome).toBe("placed");
    const another = {
      ...request([{ productId: kettle, quantity: 1 }], key),
      email: "someone-else@example.com",
    };
    expect((await placeOrder(db, another)).outcome).toBe("key-reused");
    const elsewhere = await placeOrder(db, {
      ...request([{ productId: kettle, quantity: 1 }], key),
      idempotencyScope: "cart:another",
    });
    expect(elsewhere).toMatchObject({ outcome: "placed", replayed: false });
    expect(await onHand(kettle)).toBe(98);
  });

  it("empties the cart it came from when the order is placed, and leaves it when a line is short", async () => {
    const kettle = await product(3);
    const [cart] = await db.insert(carts).values({ tokenHash: randomUUID() }).returning({ id: carts.id });
    const cartId = (cart as { id: string }).id;
    await db.insert(cartLines).values({ cartId, productId: kettle, quantity: 2, unitPriceCentsSeen: 1999 });
    const inCart = async () => (await db.select().from(cartLines).where(eq(cartLines.cartId, cartId))).length;

    const short = await placeOrder(db, { ...request([{ productId: kettle, quantity: 4 }]), cartId });
    expect(short.outcome).toBe("short");
    expect(await inCart()).toBe(1);
    const placed = await placeOrder(db, { ...request([{ productId: kettle, quantity: 2 }]), cartId });
    expect(placed.outcome).toBe("placed");
    expect(await inCart()).toBe(0);
  });

  it("an order's product cannot be deleted: it stays for the books", async () => {
    const kettle = await product(5);
    await placeOrder(db, request([{ productId: kettle, quantity: 1 }]));
    await expect(db.delete(products).where(inArray(products.id, [kettle]))).rejects.toThrow();
  });
});
reportPostgresSkipped("placing orders on $name");
