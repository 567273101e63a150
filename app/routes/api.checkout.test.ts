import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { mailQueue, orders, products, stockLevels } from "~/db/schema";
import { productInStock, shopContext } from "../../tests/support/shop-context";
import { SHOPPER_ADDRESS } from "../../tests/support/shopper";
import { openPgliteTestDatabase } from "../../tests/support/test-database";
import { loader as cartLoader } from "./api.cart";
import { action as linesAction } from "./api.cart-lines";
import { action as checkoutAction } from "./api.checkout";

const engine = await openPgliteTestDatabase();
afterAll(() => engine.close());
// Room for every checkout these tests send from one client address (the limit has its own test below).
const { context, signedUp } = shopContext(engine, {
  shoppingLimits: { cartChanges: 1_000, checkouts: 1_000, duration: 60 },
});

const checkout = {
  email: "ada@example.com",
  shippingAddress: SHOPPER_ADDRESS,
  shippingMethod: "standard",
  paymentMethod: "bank-transfer",
};

async function send(
  handler: (args: never) => Promise<Response> | Response,
  path: string,
  init: { method?: string; cookie?: string; key?: string | null; body?: unknown; raw?: string },
) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (init.cookie) headers.cookie = init.cookie;
  if (init.key !== null) headers["Idempotency-Key"] = init.key ?? randomUUID();
  const request = new Request(`http://localhost:3000${path}`, {
    method: init.method ?? "POST",
    headers,
    body: init.method === "GET" ? undefined : (init.raw ?? JSON.stringify(init.body ?? {})),
  });
  const response = await handler({ request, context, params: {} } as never);
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    cookie: response.headers.get("set-cookie")?.split(";")[0],
  };
}

/** A guest's cart with `quantity` of a product that has `onHand` units; its cookie and the product. */
async function guestCart(onHand: number, quantity: number, price = 12.5) {
  const productId = await productInStock(engine, onHand, price);
  const added = await send(linesAction, "/api/cart/lines", { body: { productId, quantity } });
  return { cookie: added.cookie as string, productId };
}

const place = (cookie: string, key?: string, body: unknown = checkout) =>
  send(checkoutAction, "/api/checkout", { cookie, key, body });

describe("POST /api/checkout", () => {
  it("places the cart as an order: 201, totals in dollars, the stock taken, the cart emptied", async () => {
    const { cookie, productId } = await guestCart(10, 2, 12.5);
    const placed = await place(cookie);
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({
      order: {
        status: "placed",
        lines: [{ productId, unitPrice: 12.5, quantity: 2, lineTotal: 25 }],
        subtotal: 25,
        shipping: 4.99,
        total: 29.99,
      },
    });
    expect((placed.body.order as { number: string }).number).toMatch(/^BL-[0-9A-HJKMNP-TV-Z]{5}$/);
    const [level] = await engine.db.select().from(stockLevels).where(eq(stockLevels.productId, productId));
    expect(level?.onHand).toBe(8);
    const cart = await send(cartLoader, "/api/cart", { method: "GET", cookie, key: null });
    expect(cart.body).toMatchObject({ lines: [], itemCount: 0 });
  });

  it("places 99 of a $300,000 product, past 32 bits of cents, at the total it was shown", async () => {
    const { cookie, productId } = await guestCart(99, 99, 300_000);
    const placed = await place(cookie, undefined, { ...checkout, expectedTotal: 29_700_000 });
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({
      order: {
        lines: [{ productId, unitPrice: 300_000, quantity: 99, lineTotal: 29_700_000 }],
        subtotal: 29_700_000,
        shipping: 0,
        total: 29_700_000,
      },
    });
  });

  it("standard shipping is free from $50, express is not", async () => {
    const { cookie } = await guestCart(10, 4, 12.5);
    expect((await place(cookie)).body).toMatchObject({ order: { subtotal: 50, shipping: 0, total: 50 } });
    const express = await guestCart(10, 4, 12.5);
    const placed = await place(express.cookie, undefined, { ...checkout, shippingMethod: "express" });
    expect(placed.body).toMatchObject({ order: { shipping: 14.99, total: 64.99 } });
  });

  it("the same key again answers the same order with 200, and a key reused for another checkout is a 422", async () => {
    const { cookie } = await guestCart(10, 1);
    const key = randomUUID();
    const first = await place(cookie, key);
    const again = await place(cookie, key);
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body).toEqual(first.body);
    const reused = await place(cookie, key, { ...checkout, paymentMethod: "cash-on-delivery" });
    expect(reused).toMatchObject({ status: 422, body: { error: { code: "idempotency_key_reused" } } });
  });

  it("409 naming each short line and what is left, taking nothing", async () => {
    const { cookie, productId } = await guestCart(3, 3);
    await engine.db.update(stockLevels).set({ onHand: 1 }).where(eq(stockLevels.productId, productId));
    const short = await place(cookie);
    expect(short).toMatchObject({
      status: 409,
      body: { error: { code: "stock_short", lines: [{ productId, asked: 3, left: 1 }] } },
    });
    const [level] = await engine.db.select().from(stockLevels).where(eq(stockLevels.productId, productId));
    expect(level?.onHand).toBe(1);
  });

  it("409 for an empty cart", async () => {
    const placed = await send(checkoutAction, "/api/checkout", { body: checkout });
    expect(placed).toMatchObject({ status: 409, body: { error: { code: "cart_empty" } } });
  });

  it.each([
    [{ ...checkout, email: "ada" }, "email"],
    [{ ...checkout, shippingAddress: { ...SHOPPER_ADDRESS, name: " " } }, "shippingAddress.name"],
    [{ ...checkout, shippingAddress: { ...SHOPPER_ADDRESS, country: "XX" } }, "shippingAddress.country"],
    // Found by the fuzz test: a country named like an object's own property was looked up as one.
    [
      { ...checkout, shippingAddress: { ...SHOPPER_ADDRESS, country: "__proto__" } },
      "shippingAddress.country",
    ],
    [
      { ...checkout, shippingAddress: { ...SHOPPER_ADDRESS, country: "constructor" } },
      "shippingAddress.country",
    ],
    [{ ...checkout, shippingAddress: { ...SHOPPER_ADDRESS, country: "US" } }, "shippingAddress.postalCode"],
    [{ ...checkout, shippingMethod: "Overnight!" }, "shippingMethod"],
    [{ ...checkout, paymentMethod: "card" }, "paymentMethod"],
  ])("refuses %j with a 400 naming %s", async (body, field) => {
    const { cookie } = await guestCart(5, 1);
    const refused = await place(cookie, undefined, body);
    expect(refused).toMatchObject({ status: 400, body: { error: { code: "invalid_field", field } } });
  });

  it("names every bad field at once: the first in error.field, all in error.fields", async () => {
    const { cookie } = await guestCart(5, 1);
    const refused = await place(cookie, undefined, {
      ...checkout,
      email: "ada",
      shippingAddress: { ...SHOPPER_ADDRESS, country: "XX", city: "" },
      paymentMethod: "gold",
    });
    expect(refused).toEqual({
      status: 400,
      cookie: undefined,
      body: {
        error: {
          code: "invalid_field",
          field: "email",
          message: "Enter a valid email address.",
          fields: [
            { field: "email", message: "Enter a valid email address." },
            { field: "shippingAddress.city", message: "City is required." },
            { field: "shippingAddress.country", message: "Choose a country from the list." },
            { field: "paymentMethod", message: "Choose how to pay: Pay on delivery, Bank transfer or Card." },
          ],
        },
      },
    });
  });

  it("refuses a checkout without an Idempotency-Key, or with a body that is not JSON", async () => {
    const { cookie } = await guestCart(5, 1);
    const keyless = await send(checkoutAction, "/api/checkout", { cookie, key: null, body: checkout });
    expect(keyless).toMatchObject({
      status: 400,
      body: { error: { field: "Idempotency-Key", fields: [{ field: "Idempotency-Key" }] } },
    });
    const garbled = await send(checkoutAction, "/api/checkout", { cookie, raw: "{" });
    expect(garbled).toMatchObject({ status: 400, body: { error: { code: "invalid_body" } } });
  });

  it("with an expectedTotal that is no longer the total: 409 total_changed with the new order, nothing placed; the same key confirms it", async () => {
    const { cookie, productId } = await guestCart(10, 2, 12.99);
    const shown = { ...checkout, expectedTotal: 30.97 };
    await engine.db.update(products).set({ priceMinor: 9999 }).where(eq(products.id, productId));
    const queued = await engine.db.select({ id: mailQueue.id }).from(mailQueue);
    const key = randomUUID();
    const refused = await place(cookie, key, shown);
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error: {
          code: "total_changed",
          field: "expectedTotal",
          expectedTotal: 30.97,
          total: 199.98,
          subtotal: 199.98,
          shipping: 0,
          lines: [{ productId, unitPrice: 99.99, quantity: 2, lineTotal: 199.98 }],
        },
      },
    });
    const [level] = await engine.db.select().from(stockLevels).where(eq(stockLevels.productId, productId));
    expect(level?.onHand).toBe(10);
    expect(await engine.db.select().from(orders).where(eq(orders.idempotencyKey, key))).toEqual([]);
    expect(await engine.db.select({ id: mailQueue.id }).from(mailQueue)).toHaveLength(queued.length);
    const confirmed = await place(cookie, key, { ...checkout, expectedTotal: 199.98 });
    expect(confirmed).toMatchObject({ status: 201, body: { order: { total: 199.98 } } });
    // Without expectedTotal, a checkout is placed at whatever the total is, as before.
    const unchecked = await guestCart(10, 1, 12.99);
    expect((await place(unchecked.cookie)).body).toMatchObject({ order: { total: 17.98 } });
  });

  it.each([[-1], [12.345], ["12.99"]])(
    "refuses an expectedTotal of %j with a 400 naming it",
    async (expectedTotal) => {
      const { cookie } = await guestCart(5, 1);
      const refused = await place(cookie, undefined, { ...checkout, expectedTotal });
      expect(refused).toMatchObject({ status: 400, body: { error: { field: "expectedTotal" } } });
    },
  );

  const portland = {
    name: "Ada",
    line1: "218 Harbour Street",
    city: "Portland",
    postalCode: "97204",
    country: "US",
  };

  it.each<[Record<string, string>, string]>([
    [portland, "missing"],
    [{ ...portland, region: "CA-ON" }, "of another country"],
    [{ ...portland, region: "US-XX" }, "not a state"],
  ])("a US address whose region is %j (%s) is a 400 naming shippingAddress.region", async (address) => {
    const { cookie } = await guestCart(5, 1);
    const refused = await place(cookie, undefined, { ...checkout, shippingAddress: address });
    expect(refused).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_field", field: "shippingAddress.region" } },
    });
  });

  it("keeps the region with the order, and needs none where the country has none to ask", async () => {
    const { cookie } = await guestCart(5, 1);
    const placed = await place(cookie, undefined, {
      ...checkout,
      shippingAddress: { ...portland, region: "US-OR" },
    });
    expect(placed.status).toBe(201);
    const number = (placed.body.order as { number: string }).number;
    const [order] = await engine.db.select().from(orders).where(eq(orders.number, number));
    expect(order?.shippingAddress).toMatchObject({ country: "US", region: "US-OR", city: "Portland" });
    // Great Britain has no region to ask for: none is needed, and one sent is not kept.
    const british = await guestCart(5, 1);
    expect((await place(british.cookie)).status).toBe(201);
  });

  it("a signed-in shopper checks out their account's cart", async () => {
    const session = await signedUp("checkout-ada@example.com");
    const productId = await productInStock(engine, 5);
    await send(linesAction, "/api/cart/lines", { cookie: session, body: { productId, quantity: 1 } });
    expect((await place(session)).status).toBe(201);
  });
});

describe("the per-client limit on checkouts", () => {
  it("counts every checkout sent, read or not, and answers 429 with Retry-After past the share", async () => {
    const limited = shopContext(engine, { shoppingLimits: { cartChanges: 100, checkouts: 2, duration: 60 } });
    const sendOne = async () => {
      const request = new Request("http://localhost:3000/api/checkout", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
        body: "{}",
      });
      return (await checkoutAction({ request, context: limited.context, params: {} } as never)) as Response;
    };
    expect((await sendOne()).status).toBe(400);
    expect((await sendOne()).status).toBe(400);
    const refused = await sendOne();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: { code: "rate_limited" } });
  });
});
