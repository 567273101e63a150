import { randomUUID } from "node:crypto";
import { chromium } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../support/chromium";
import { CookieClient, signUp } from "../support/http-client";
import { TEST_STRIPE_SECRET_KEY, TEST_STRIPE_WEBHOOK_SECRET } from "../support/payment-stand-in";
import { chromiumBrowser, postgresServer, SERVICES_PASS } from "../support/requirements";
import {
  addToCart,
  checkout,
  demoBlender,
  json,
  pageText as page,
  plain,
} from "../support/shop-money-journeys";
import { preparedDataDir, type ShopProcess, startShopProcess } from "../support/shop-process";
import { startSmtpCapture } from "../support/smtp-capture";
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
// Yen amounts have no decimals: a shipping price of 4.99 is refused at start-up.
const YEN = {
  SHOP_CURRENCY: "JPY",
  SHOP_LOCALE: "ja-JP",
  SHIPPING_STANDARD: "499",
  SHIPPING_EXPRESS: "1499",
};
type Database = { env: Record<string, string>; close(): Promise<void> };

async function embedded(): Promise<Database> {
  return { env: { DATA_DIR: preparedDataDir() }, close: async () => {} };
}

async function postgres(): Promise<Database> {
  const scratch = await createScratchPostgres();
  return { env: { DATABASE_URL: scratch.url }, close: () => scratch.drop() };
}

const engines: [string, () => Promise<Database>][] = [
  ...(SERVICES_PASS ? [] : [["PGlite", embedded] as [string, () => Promise<Database>]]),
  ...(postgresServer.met ? [["PostgreSQL", postgres] as [string, () => Promise<Database>]] : []),
];
/**
 * The page in Chromium once it is hydrated: the browser's own render writes
 * the amount as the server did (a mismatch would be a console error).
 */
async function inChromium(url: string, amount: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await tab.goto(url);
    await tab.locator("html[data-hydrated]").waitFor({ state: "attached" });
    expect(plain((await tab.locator("main").textContent()) ?? "")).toContain(amount);
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
}

const running: ShopProcess[] = [];
// The shops' emails, as an SMTP provider would receive them.
const smtp = await startSmtpCapture();
afterAll(async () => {
  await Promise.all(running.map((shop) => shop.stop()));
  await smtp.close();
});

async function start(database: Database, env: Record<string, string> = {}): Promise<ShopProcess> {
  const shop = await startShopProcess({ ...CARD_ENV, SMTP_URL: smtp.url, ...database.env, ...env });
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
      const { id } = await demoBlender(dollars, new CookieClient());
      // Signed in: the order stays theirs to read after the switch.
      const before = new CookieClient();
      expect((await signUp(before, dollars.url, `dollars-${randomUUID()}@example.com`)).status).toBe(302);
      await addToCart(dollars, before, id);
      const oldEmail = `before-${randomUUID()}@example.com`;
      const old = await checkout(dollars, before, { email: oldEmail });
      expect(old.order).toMatchObject({ total: 89.99, currency: "USD" });
      const waiting = new CookieClient();
      await addToCart(dollars, waiting, id);
      await stop(dollars);

      // The same database, now in euros written the German way.
      // On the same address: the shoppers' cookies are the same site's.
      const port = String(dollars.port);
      const euros = await start(database, { ...EURO, PORT: port });
      const shopper = new CookieClient();
      const listing = await page(shopper, `${euros.url}/?search=blender`);
      expect(listing).toContain("89,99 €");
      expect(listing).toContain("Prices in EUR, tax included.");
      const product = await page(shopper, `${euros.url}/products/${id}`);
      expect(product).toContain("89,99 €");
      expect(product).toMatch(/"priceCurrency":"EUR"/);
      expect(product).toMatch(/"price":"89.99"/);
      expect(product).toContain('content="EUR"');

      if (chromiumBrowser.met) await inChromium(`${euros.url}/?search=blender`, "89,99 €");

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
      const euroEmail = `euros-${randomUUID()}@example.com`;
      const inEuros = await checkout(euros, waiting, { email: euroEmail });
      expect(inEuros.order).toMatchObject({ total: 89.99, currency: "EUR" });

      // The order placed in dollars is still in dollars.
      const kept = await json<{ order: { total: number; currency: string } }>(
        before,
        `${euros.url}/api/orders/${old.order.number}`,
      );
      expect(kept.body.order).toMatchObject({ total: 89.99, currency: "USD" });
      // In dollars, written the way the shop now writes amounts (de-DE).
      expect(await page(before, `${euros.url}/orders/${old.order.number}`)).toContain("89,99 $");
      // Each confirmation in its order's currency.
      expect(plain((await smtp.nextEmail(oldEmail, /BL-/)).text)).toContain("Total: $89.99");
      expect(plain((await smtp.nextEmail(euroEmail, /BL-/)).text)).toContain("Total: 89,99 €");
      await stop(euros);

      // Yen have no decimals, and a card is charged in yen.
      const yen = await start(database, { ...YEN, PORT: port });
      const buyer = new CookieClient();
      expect(await page(buyer, `${yen.url}/products/${id}`)).toContain("￥8,999");
      await addToCart(yen, buyer, id);
      const card = await checkout(yen, buyer, { paymentMethod: "card" });
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
