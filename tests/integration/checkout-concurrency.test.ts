import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeOnEmbedded, describeWhen, postgresServer } from "../support/requirements";
import { type ShopProcess, startShopProcess } from "../support/shop-process";
import { SHOPPER_ADDRESS } from "../support/shopper";
import { createScratchPostgres, type ScratchPostgres } from "../support/test-database";

/**
 * Checkouts racing through real shop processes (docs/decisions/0027): three
 * on one PostgreSQL, as behind a load balancer, and one on its embedded
 * database. Whatever the race, retry or crash, stock never goes below zero,
 * an order never lacks its lines, and no unit is taken without an order.
 */

const CHECKOUT = {
  email: "racer@example.com",
  shippingAddress: SHOPPER_ADDRESS,
  shippingMethod: "standard",
  paymentMethod: "cash-on-delivery",
};

/**
 * Each shopper comes from an address of their own (the shops run with
 * TRUST_PROXY=1): the shop's per-client limits on cart changes and checkouts
 * count shoppers, and these races are many shoppers, not one client.
 */
let shoppers = 0;
const addressOfCart = new Map<string, string>();
function newShopperAddress(): string {
  shoppers++;
  return `10.${(shoppers >> 16) & 255}.${(shoppers >> 8) & 255}.${shoppers & 255}`;
}

/** A guest's cart on `shop` holding one of `productId` (of its variant `variantId`): its cookie. */
async function guestCart(shop: ShopProcess, productId: number, variantId?: number): Promise<string> {
  const address = newShopperAddress();
  const response = await fetch(`${shop.url}/api/cart/lines`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": address },
    body: JSON.stringify({ productId, variantId, quantity: 1 }),
  });
  expect(response.status).toBe(200);
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] as string;
  addressOfCart.set(cookie, address);
  return cookie;
}

async function checkout(shop: ShopProcess, cookie: string, key = randomUUID()) {
  const address = addressOfCart.get(cookie) ?? newShopperAddress();
  const response = await fetch(`${shop.url}/api/checkout`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "Idempotency-Key": key,
      cookie,
      "X-Forwarded-For": address,
    },
    body: JSON.stringify(CHECKOUT),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => {
    counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }, {});

/** A new product with `onHand` units, written straight to the database. */
async function stockedProduct(
  query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>,
  onHand: number,
) {
  const { rows } = await query(
    `insert into products (name, description, image, price_minor, ratings, band_name, category, creation_date)
     values ($1, 'Raced for.', '/images/products/kettle.svg', 2000, 4, 'blendMaster', 'home appliances', now())
     returning id`,
    [`Last kettle ${randomUUID().slice(0, 8)}`],
  );
  const id = (rows[0] as { id: number }).id;
  await query("update stock_levels set on_hand = $1 where product_id = $2", [onHand, id]);
  return id;
}

/**
 * A new product in sizes S, M, L…, one variant each with the units given, written straight to the
 * database: its id and its variants' ids in size order.
 */
async function stockedSizes(
  query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>,
  onHand: number[],
): Promise<{ productId: number; variantIds: number[] }> {
  const productId = await stockedProduct(query, 0);
  const sizes = ["S", "M", "L", "XL"].slice(0, onHand.length);
  await query("delete from product_variants where product_id = $1", [productId]);
  await query(
    `insert into product_options (product_id, position, name, values) values ($1, 1, 'Size', $2::jsonb)`,
    [productId, JSON.stringify(sizes.map((value) => ({ value })))],
  );
  const { rows } = await query(
    `insert into product_variants (product_id, sku, option1, price_minor, position)
     select $1::int, 'RACE-' || $1::int || '-' || size, size, 2000, at from unnest($2::text[]) with ordinality as s(size, at)
     order by at returning id`,
    [productId, sizes],
  );
  const variantIds = rows.map((row) => (row as { id: number }).id).sort((a, b) => a - b);
  await query(
    "update stock_levels s set on_hand = n.on_hand from unnest($1::int[], $2::int[]) as n(id, on_hand) where s.variant_id = n.id",
    [variantIds, onHand],
  );
  return { productId, variantIds };
}

/** What the database holds for a product: units left (all its variants), units ordered, and orders without lines (shop-wide). */
async function books(
  query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>,
  productId: number,
) {
  const { rows } = await query(
    `select (select sum(on_hand)::int from stock_levels where product_id = $1) as left,
            (select coalesce(sum(quantity), 0)::int from order_lines where product_id = $1) as ordered,
            (select count(*)::int from order_lines where product_id = $1) as orders,
            (select count(*)::int from orders o where not exists (select 1 from order_lines l where l.order_id = o.id)) as bare`,
    [productId],
  );
  return rows[0] as { left: number; ordered: number; orders: number; bare: number };
}

/** The error lines the shops logged (level 50), for an assertion's message. */
function errorLines(shops: ShopProcess[]): string {
  return shops
    .flatMap((shop) => shop.output().split("\n"))
    .filter((line) => line.includes('"level":50'))
    .slice(0, 5)
    .join("\n");
}

describeWhen([postgresServer], "checkouts racing through three shop processes on one PostgreSQL", () => {
  let database: ScratchPostgres;
  let client: pg.Client;
  const shops: ShopProcess[] = [];
  const query = (text: string, values?: unknown[]) => client.query(text, values);
  const shopAt = (at: number) => shops[at % shops.length] as ShopProcess;

  beforeAll(async () => {
    database = await createScratchPostgres();
    const env = { DATABASE_URL: database.url, LOG_LEVEL: "info", TRUST_PROXY: "1" };
    // The first migrates and loads the demo catalogue (its brands and categories).
    shops.push(await startShopProcess(env));
    shops.push(await startShopProcess(env), await startShopProcess(env));
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    await Promise.all(shops.map((shop) => shop.stop()));
    await client?.end();
    await database?.drop();
  });

  it("200 checkouts at once for the last 10 units: 10 orders, stock 0, 190 clear 409s, no 5xx", async () => {
    const productId = await stockedProduct(query, 10);
    const carts = await Promise.all(Array.from({ length: 200 }, (_, at) => guestCart(shopAt(at), productId)));
    const answers = await Promise.all(carts.map((cookie, at) => checkout(shopAt(at), cookie)));
    // A 5xx says why in the shops' own words: the error lines they logged (a CI run once saw 503s here).
    expect(tally(answers.map((answer) => answer.status)), errorLines(shops)).toEqual({ 201: 10, 409: 190 });
    for (const answer of answers.filter((each) => each.status === 409)) {
      expect(answer.body).toEqual({
        error: expect.objectContaining({
          code: "stock_short",
          lines: [{ productId, variantId: expect.any(Number), asked: 1, left: 0 }],
        }),
      });
    }
    expect(await books(query, productId)).toEqual({ left: 0, ordered: 10, orders: 10, bare: 0 });
  });

  it("200 checkouts at once for two sizes with 5 left each: 10 orders, both at 0, the third size untouched", async () => {
    const { productId, variantIds } = await stockedSizes(query, [5, 5, 50]);
    const [small, medium, large] = variantIds as [number, number, number];
    const sizeOf = (at: number) => (at % 2 === 0 ? small : medium);
    const carts = await Promise.all(
      Array.from({ length: 200 }, (_, at) => guestCart(shopAt(at), productId, sizeOf(at))),
    );
    const answers = await Promise.all(carts.map((cookie, at) => checkout(shopAt(at), cookie)));
    expect(tally(answers.map((answer) => answer.status)), errorLines(shops)).toEqual({ 201: 10, 409: 190 });
    const placed = answers.flatMap((answer, at) => (answer.status === 201 ? [sizeOf(at)] : []));
    expect(placed.filter((variant) => variant === small)).toHaveLength(5);
    for (const [at, answer] of answers.entries()) {
      if (answer.status !== 409) continue;
      expect(answer.body).toEqual({
        error: expect.objectContaining({
          code: "stock_short",
          lines: [{ productId, variantId: sizeOf(at), asked: 1, left: 0 }],
        }),
      });
    }
    const { rows } = await query(
      `select s.variant_id as "variantId", s.on_hand as "left",
              (select coalesce(sum(quantity), 0)::int from order_lines l where l.variant_id = s.variant_id) as ordered
         from stock_levels s where s.product_id = $1 order by s.variant_id`,
      [productId],
    );
    expect(rows).toEqual([
      { variantId: small, left: 0, ordered: 5 },
      { variantId: medium, left: 0, ordered: 5 },
      { variantId: large, left: 50, ordered: 0 },
    ]);
    expect(await books(query, productId)).toMatchObject({ orders: 10, bare: 0 });
  });

  it("one Idempotency-Key sent 20 times at once, to all three processes, makes one order", async () => {
    const productId = await stockedProduct(query, 100);
    const cookie = await guestCart(shopAt(0), productId);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, at) => checkout(shopAt(at), cookie, key)),
    );
    expect(tally(answers.map((answer) => answer.status))).toEqual({ 200: 19, 201: 1 });
    const numbers = new Set(answers.map((answer) => (answer.body.order as { number: string }).number));
    expect(numbers.size).toBe(1);
    expect(await books(query, productId)).toMatchObject({ left: 99, ordered: 1, orders: 1 });
  });

  it("kill -9 of a process in the middle of checkouts leaves no order without lines and no stock taken without an order", async () => {
    const productId = await stockedProduct(query, 1000);
    const victim = shops.pop() as ShopProcess;
    const carts = await Promise.all(
      Array.from({ length: 90 }, (_, at) => guestCart(at % 3 === 2 ? victim : shopAt(at), productId)),
    );
    const failed = { status: 0, body: {} };
    const toVictim = carts
      .filter((_, at) => at % 3 === 2)
      .map((cookie) => checkout(victim, cookie).catch(() => failed));
    const toOthers = carts.filter((_, at) => at % 3 !== 2).map((cookie, at) => checkout(shopAt(at), cookie));
    // Killed once it has answered one of its 30: the others are then on their way through it.
    await Promise.race(toVictim);
    victim.kill("SIGKILL");
    await victim.exited;
    const answers = [...(await Promise.all(toVictim)), ...(await Promise.all(toOthers))];
    const lost = answers.filter((answer) => answer.status === 0).length;
    expect(lost, "checkouts cut off by the kill").toBeGreaterThan(0);
    const placed = answers.filter((answer) => answer.status === 201).length;
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    const held = await books(query, productId);
    expect(held.bare).toBe(0);
    expect(held.left + held.ordered).toBe(1000);
    // Every acknowledged order is there; one committed just before the kill may be too, unacknowledged.
    expect(held.orders).toBeGreaterThanOrEqual(placed);
  });
});

describeOnEmbedded("checkouts racing through one shop process on its embedded database", () => {
  let shop: ShopProcess;

  beforeAll(async () => {
    shop = await startShopProcess({ LOG_LEVEL: "info", TRUST_PROXY: "1" });
  });

  afterAll(async () => {
    await shop?.stop();
  });

  /**
   * A demo product with only a few left (the demo has some: app/db/seed), found through the API:
   * the embedded database belongs to the process, so the cart's answer tells its stock.
   */
  async function nearlyGone(): Promise<{ productId: number; stock: number }> {
    const listed = (await (await fetch(`${shop.url}/all-products?size=100`)).json()) as { id: number }[];
    for (const { id } of listed) {
      const response = await fetch(`${shop.url}/api/cart/lines`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": newShopperAddress() },
        body: JSON.stringify({ productId: id, quantity: 1 }),
      });
      if (response.status !== 200) continue;
      const { lines } = (await response.json()) as { lines: { stock: number }[] };
      const stock = lines[0]?.stock ?? 0;
      if (stock >= 2 && stock <= 5) return { productId: id, stock };
    }
    throw new Error("the demo catalogue has no product with 2 to 5 left");
  }

  it("200 checkouts at once for the last few units: one order per unit, the rest clear 409s, no 5xx", async () => {
    const { productId, stock } = await nearlyGone();
    const carts = await Promise.all(Array.from({ length: 200 }, () => guestCart(shop, productId)));
    const answers = await Promise.all(carts.map((cookie) => checkout(shop, cookie)));
    expect(tally(answers.map((answer) => answer.status))).toEqual({ 201: stock, 409: 200 - stock });
    // Sold out now: the next shopper cannot even add it.
    const after = await fetch(`${shop.url}/api/cart/lines`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": newShopperAddress() },
      body: JSON.stringify({ productId, quantity: 1 }),
    });
    expect(after.status).toBe(409);
  });
});
