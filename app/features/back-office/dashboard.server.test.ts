import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { OrderStatus } from "~/commerce/order-states";
import { orders, products } from "~/db/schema";
import { demoOrderScope } from "~/db/seed/demo-orders";
import { productWithVariants } from "../../../tests/support/product-variants";
import { productInStock } from "../../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { dashboardOf } from "./dashboard.server";

/**
 * The dashboard's figures: orders and revenue by UTC day, today and over 7
 * and 30 days, cancelled orders left out of revenue and the demo buyers'
 * orders out of both; the orders waiting; the products at or under the
 * low-stock line, archived ones left out.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("the dashboard's figures on $name");

const NOW = new Date("2026-11-25T09:30:00Z");
let placed = 0;

async function order(
  engine: TestDatabase,
  createdAt: string,
  totalCents: number,
  status: OrderStatus = "placed",
  idempotencyScope = "test",
  currency = "USD",
) {
  placed++;
  await engine.db.insert(orders).values({
    number: `BL-T${placed}`,
    idempotencyScope,
    idempotencyKey: `key-${placed}`,
    requestHash: "hash",
    status,
    email: "shopper@example.com",
    shippingAddress: {},
    shippingMethod: "standard",
    paymentMethod: "bank-transfer",
    subtotalCents: totalCents - 499,
    shippingCents: 499,
    totalCents,
    currency,
    createdAt: new Date(createdAt),
  });
}

describe.each(engines)("the dashboard's figures on $name", (engine: TestDatabase) => {
  it("counts orders and revenue by UTC day, today and over 7 and 30 days, without cancelled revenue nor demo orders", async () => {
    await order(engine, "2026-11-25T00:00:00Z", 1_000); // today, at its first instant (UTC)
    await order(engine, "2026-11-25T09:00:00Z", 2_550);
    await order(engine, "2026-11-25T08:00:00Z", 9_999, "cancelled"); // counted as an order, not as revenue
    await order(engine, "2026-11-24T23:59:59Z", 700, "shipped"); // yesterday in UTC, whatever a clock says
    await order(engine, "2026-11-19T12:00:00Z", 1_234, "paid"); // 6 days ago: in the last 7 days
    await order(engine, "2026-11-18T12:00:00Z", 4_000, "paid"); // 7 days ago: only in the 30
    await order(engine, "2026-10-27T00:00:00Z", 500); // 29 days ago: the 30th day
    await order(engine, "2026-10-26T23:59:59Z", 100_000); // 30 days ago: out
    // A demo buyer's order (docs/decisions/0033) is not the shop's: neither counted nor summed.
    await order(engine, "2026-11-25T07:00:00Z", 50_000, "shipped", demoOrderScope("demo-buyer-1"));
    // Sold in euros before the owner switched to dollars: an order, never added to dollars.
    await order(engine, "2026-11-20T12:00:00Z", 8_888, "paid", "test", "EUR");

    const dashboard = await dashboardOf(engine.db, { now: NOW, lowStockAt: 5, currency: "USD" });

    expect(dashboard.today).toBe("2026-11-25");
    expect(dashboard.currency).toBe("USD");
    expect(dashboard.periods.today).toEqual({ orders: 3, revenueCents: 3_550, otherCurrencySales: 0 });
    expect(dashboard.periods.last7Days).toEqual({ orders: 6, revenueCents: 5_484, otherCurrencySales: 1 });
    expect(dashboard.periods.last30Days).toEqual({ orders: 8, revenueCents: 9_984, otherCurrencySales: 1 });
    expect(dashboard.days).toHaveLength(30);
    expect(dashboard.days[0]).toEqual({
      day: "2026-10-27",
      orders: 1,
      revenueCents: 500,
      otherCurrencySales: 0,
    });
    expect(dashboard.days.at(-1)).toEqual({
      day: "2026-11-25",
      orders: 3,
      revenueCents: 3_550,
      otherCurrencySales: 0,
    });
    expect(dashboard.days.find(({ day }) => day === "2026-11-24")).toEqual({
      day: "2026-11-24",
      orders: 1,
      revenueCents: 700,
      otherCurrencySales: 0,
    });
    expect(dashboard.days.find(({ day }) => day === "2026-11-20")).toEqual({
      day: "2026-11-20",
      orders: 1,
      revenueCents: 0,
      otherCurrencySales: 1,
    });
    expect(dashboard.days.find(({ day }) => day === "2026-11-10")).toEqual({
      day: "2026-11-10",
      orders: 0,
      revenueCents: 0,
      otherCurrencySales: 0,
    });
    // Waiting: placed (not paid), oldest first, and paid (not shipped).
    expect(dashboard.waiting).toMatchObject({ placed: 4, paid: 3 });
    expect(dashboard.waiting.oldest.map(({ totalCents }) => totalCents)).toEqual([
      100_000, 500, 1_000, 2_550,
    ]);
  });

  it("lists the products at or under the low-stock line, fewest first, without archived ones", async () => {
    const none = await productInStock(engine, 0);
    const five = await productInStock(engine, 5);
    await productInStock(engine, 6);
    const archived = await productInStock(engine, 1);
    await engine.db.update(products).set({ archivedAt: NOW }).where(eq(products.id, archived));

    const dashboard = await dashboardOf(engine.db, { now: NOW, lowStockAt: 5, currency: "USD" });

    expect(dashboard.lowStock.at).toBe(5);
    expect(dashboard.lowStock.count).toBe(2);
    expect(dashboard.lowStock.products.map(({ id, onHand }) => [id, onHand])).toEqual([
      [none, 0],
      [five, 5],
    ]);
    const stricter = await dashboardOf(engine.db, { now: NOW, lowStockAt: 0, currency: "USD" });
    expect(stricter.lowStock.products.map(({ id }) => id)).toEqual([none]);
  });

  it("lists a product sold in variants by each variant low on stock, with its options", async () => {
    const shirt = await productWithVariants(engine, {
      options: [{ name: "Size", values: ["S", "M", "L"] }],
      variants: [
        { values: ["S"], priceMinor: 1000, onHand: 2 },
        { values: ["M"], priceMinor: 1000, onHand: 40 },
        { values: ["L"], priceMinor: 1000, onHand: 1 },
      ],
    });
    const dashboard = await dashboardOf(engine.db, { now: NOW, lowStockAt: 3, currency: "USD" });
    const listed = dashboard.lowStock.products.filter(({ id }) => id === shirt.productId);
    expect(listed.map(({ variantId, options, onHand }) => [variantId, options, onHand])).toEqual([
      [shirt.variantIds[2], "Size L", 1],
      [shirt.variantIds[0], "Size S", 2],
    ]);
  });
});
