import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { CookieClient } from "../support/http-client";
import { TEST_STRIPE_SECRET_KEY, TEST_STRIPE_WEBHOOK_SECRET } from "../support/payment-stand-in";
import { postgresServer, SERVICES_PASS } from "../support/requirements";
import { preparedDataDir, type ShopProcess, startShopProcess } from "../support/shop-process";
import { SHOPPER_ADDRESS } from "../support/shopper";
import { createScratchPostgres, reportPostgresSkipped } from "../support/test-database";

/**
 * A shop that sold in dollars and is then configured for euros (SHOP_CURRENCY=EUR,
 * SHOP_LOCALE=de-DE), then yen, on the same database, as a shopper and an API
 * client see it: every page writes its amounts the shop's way, the JSON-LD and
 * the API name the currency, a cart added to in dollars is re-priced once with
 * a note, a card is charged in the shop's currency, and an order placed before
 * the switch still shows dollars.
 */

const CARD_ENV = {
  DEMO_PAYMENT_PROVIDER: "1",
  STRIPE_SECRET_KEY: TEST_STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET: TEST_STRIPE_WEBHOOK_SECRET,
};
const EURO = { SHOP_CURRENCY: "EUR", SHOP_LOCALE: "de-DE" };
const YEN = { SHOP_CURRENCY: "JPY", SHOP_LOCALE: "ja-JP" };
/** The demo's blender: 89.99 in its list, 8,999 minor units in the table whatever the currency. */
const BLENDER = "BlendMaster Pro 900 Blender";

// Intl puts a no-break space between a euro amount and its sign.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ").replaceAll("&nbsp;", " ");

async function json<T>(
  client: CookieClient,
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: T }> {
  const answer = await client.fetch(url, init);
  return { status: answer.status, body: (await answer.json()) as T };
}

async function blenderId(shop: ShopProcess): Promise<number> {
  const found = await json<{ id: number; name: string }[]>(
    new CookieClient(),
    `${shop.url}/all-products?search=${encodeURIComponent("pro 900 blender")}`,
  );
  const blender = found.body.find((product) => product.name === BLENDER);
  if (!blender) throw new Error("the demo catalogue has no blender");
  return blender.id;
}

async function addToCart(shop: ShopProcess, client: CookieClient, productId: number) {
  const added = await client.fetch(`${shop.url}/api/cart/lines`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ productId, quantity: 1 }),
  });
  expect(added.status).toBe(200);
}

interface Placed {
  order: { number: string; total: number; currency: string };
  paymentUrl?: string;
}

async function checkout(shop: ShopProcess, client: CookieClient, paymentMethod = "bank-transfer") {
  const placed = await json<Placed>(client, `${shop.url}/api/checkout`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify({
      email: "currency@example.com",
      shippingAddress: SHOPPER_ADDRESS,
      shippingMethod: "standard",
      paymentMethod,
    }),
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  return placed.body;
}

/** A page as a browser shows it, after any redirect (a product's short address goes to its named one). */
async function page(client: CookieClient, url: string): Promise<string> {
  const { response } = await client.follow(url);
  expect(response.status, url).toBe(200);
  return plain(await response.text());
}

type Database = { env: Record<string, string>; emails(): Promise<string[]>; close(): Promise<void> };

async function embedded(): Promise<Database> {
  return { env: { DATA_DIR: preparedDataDir() }, emails: async () => [], close: async () => {} };
}

async function postgres(): Promise<Database> {
  const scratch = await createScratchPostgres();
  return {
    env: { DATABASE_URL: scratch.url },
    async emails() {
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ text_body: string }>(
          "select text_body from mail_queue where kind = 'order-confirmation' order by id",
        );
        return rows.map((row) => plain(row.text_body));
      } finally {
        await client.end();
      }
    },
    close: () => scratch.drop(),
  };
}

const engines: [string, () => Promise<Database>][] = [
  ...(SERVICES_PASS ? [] : [["PGlite", embedded] as [string, () => Promise<Database>]]),
  ...(postgresServer.met ? [["PostgreSQL", postgres] as [string, () => Promise<Database>]] : []),
];
const running: ShopProcess[] = [];
afterAll(() => Promise.all(running.map((shop) => shop.stop())));

async function start(database: Database, env: Record<string, string> = {}): Promise<ShopProcess> {
  const shop = await startShopProcess({ ...CARD_ENV, ...database.env, ...env });
  running.push(shop);
  return shop;
}

async function stop(shop: ShopProcess) {
  await shop.stop();
  running.splice(running.indexOf(shop), 1);
}

describe.each(engines)("a shop's currency, on %s", (_name, open) => {
  it("sells in dollars, then euros, then yen, and keeps each order's own", { timeout: 240_000 }, async () => {
    const database = await open();
    try {
      // In dollars: one order placed, another shopper's cart left full.
      const dollars = await start(database);
      const id = await blenderId(dollars);
      const before = new CookieClient();
      await addToCart(dollars, before, id);
      const old = await checkout(dollars, before);
      expect(old.order).toMatchObject({ total: 89.99, currency: "USD" });
      const waiting = new CookieClient();
      await addToCart(dollars, waiting, id);
      await stop(dollars);

      // The same database, now in euros written the German way.
      const euros = await start(database, EURO);
      const shopper = new CookieClient();
      expect(await page(shopper, `${euros.url}/?search=blender`)).toContain("89,99 €");
      const product = await page(shopper, `${euros.url}/products/${id}`);
      expect(product).toContain("89,99 €");
      expect(product).toMatch(/"priceCurrency":"EUR"/);
      expect(product).toMatch(/"price":"89.99"/);
      expect(product).toContain('content="EUR"');

      // The cart filled in dollars says once that it is re-priced in euros.
      const cart = await page(waiting, `${euros.url}/cart`);
      expect(cart).toContain("Your cart was priced in US Dollar. The shop now sells in Euro");
      expect(cart).toContain("89,99 €");
      const cartJson = await json<{ subtotal: number; currency: string; repricedFrom: string | null }>(
        waiting,
        `${euros.url}/api/cart`,
      );
      expect(cartJson.body).toMatchObject({ subtotal: 89.99, currency: "EUR", repricedFrom: null });
      expect(await page(waiting, `${euros.url}/checkout`)).toContain("Place order · 89,99 €");
      const inEuros = await checkout(euros, waiting);
      expect(inEuros.order).toMatchObject({ total: 89.99, currency: "EUR" });

      // The order placed in dollars is still in dollars.
      const kept = await json<{ order: { total: number; currency: string } }>(
        before,
        `${euros.url}/api/orders/${old.order.number}`,
      );
      expect(kept.body.order).toMatchObject({ total: 89.99, currency: "USD" });
      const emails = await database.emails();
      if (emails.length > 0) {
        expect(emails).toHaveLength(2);
        expect(emails[0]).toContain("Total: $89.99");
        expect(emails[1]).toContain("Total: 89,99 €");
      }
      await stop(euros);

      // Yen have no decimals, and a card is charged in yen.
      const yen = await start(database, YEN);
      const buyer = new CookieClient();
      expect(await page(buyer, `${yen.url}/products/${id}`)).toContain("￥8,999");
      await addToCart(yen, buyer, id);
      const card = await checkout(yen, buyer, "card");
      expect(card.order).toMatchObject({ total: 8999, currency: "JPY" });
      const stripePage = await page(buyer, card.paymentUrl as string);
      expect(stripePage).toContain("￥8,999");
      await stop(yen);
    } finally {
      await database.close();
    }
  });
});
reportPostgresSkipped("a shop's currency, on $name");
