import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { CookieClient, signUp } from "../support/http-client";
import { postgresServer, SERVICES_PASS } from "../support/requirements";
import { addToCart, checkout, demoBlender, json, pageText as text } from "../support/shop-money-journeys";
import { preparedDataDir, type ShopProcess, startShopProcess } from "../support/shop-process";
import { linkIn, startSmtpCapture } from "../support/smtp-capture";
import { createScratchPostgres, reportPostgresSkipped } from "../support/test-database";

/**
 * An owner changes the shop's currency at /admin/settings while it runs: every
 * process of the shop (two on PostgreSQL) writes its cards, product pages and
 * API answers in the new currency from its next requests, with no restart; a
 * cart filled before is re-priced with a note, the order placed before keeps
 * its dollars, and a switch to yen makes every card's decimal price whole
 * (the catalogue index is read again: drizzle/0020).
 */

const SETTINGS = {
  standardShipping: "4.99",
  freeShippingFrom: "50.00",
  expressShipping: "14.99",
  bankDetails: "Backline Ltd.\nIBAN: GB33 BUKB 2020 1555 5555 55",
  lowStockAt: "5",
  fewLeftAt: "5",
};

type Database = { env: Record<string, string>; processes: number; close(): Promise<void> };

const engines: [string, () => Promise<Database>][] = [
  ...(SERVICES_PASS
    ? []
    : [
        [
          "PGlite",
          async () => ({ env: { DATA_DIR: preparedDataDir() }, processes: 1, close: async () => {} }),
        ] as [string, () => Promise<Database>],
      ]),
  ...(postgresServer.met
    ? [
        [
          "PostgreSQL",
          async () => {
            const scratch = await createScratchPostgres();
            return { env: { DATABASE_URL: scratch.url }, processes: 2, close: () => scratch.drop() };
          },
        ] as [string, () => Promise<Database>],
      ]
    : []),
];

const running: ShopProcess[] = [];
const smtp = await startSmtpCapture();
afterAll(async () => {
  await Promise.all(running.map((shop) => shop.stop()));
  await smtp.close();
});

/** The owner, signed up and confirmed (the back office asks for a confirmed email), at the back office. */
async function owner(shop: ShopProcess, email: string): Promise<CookieClient> {
  const client = new CookieClient();
  expect((await signUp(client, shop.url, email)).status).toBe(302);
  const link = linkIn(await smtp.nextEmail(email, /Confirm your email/), `${shop.url}/verify-email?token=`);
  const token = new URL(link).searchParams.get("token") ?? "";
  expect((await client.postForm(`${shop.url}/verify-email`, { intent: "confirm", token })).status).toBe(302);
  return client;
}

async function saveSettings(
  shop: ShopProcess,
  client: CookieClient,
  money: { currency: string; locale: string },
  amounts = {},
) {
  const saved = await client.postForm(`${shop.url}/admin/settings`, { ...SETTINGS, ...money, ...amounts });
  expect(saved.status).toBe(200);
  expect(await saved.text()).toContain("Settings saved.");
}

describe.each(engines)("an owner's currency, on %s", (_name, open) => {
  it("reaches every process's pages and API without a restart, and keeps each order's own", {
    timeout: 180_000,
  }, async () => {
    const database = await open();
    const ownerEmail = `owner-${randomUUID()}@example.com`;
    try {
      const shops = await Promise.all(
        Array.from({ length: database.processes }, () =>
          startShopProcess({ ...database.env, SMTP_URL: smtp.url, OWNER_EMAILS: ownerEmail }),
        ),
      );
      running.push(...shops);
      // The owner saves on the first; shoppers are served by the last (the same one on PGlite).
      const [front, back] = [shops[0] as ShopProcess, shops.at(-1) as ShopProcess];
      const ownerClient = await owner(front, ownerEmail);
      const { id, price } = await demoBlender(back, new CookieClient());
      expect(price).toBe(89.99);

      // Signed in: the order stays theirs to read after the switch.
      const before = new CookieClient();
      expect((await signUp(before, back.url, `before-${randomUUID()}@example.com`)).status).toBe(302);
      await addToCart(back, before, id);
      const { order: old } = await checkout(back, before);
      expect(old).toMatchObject({ total: 89.99, currency: "USD" });
      const waiting = new CookieClient();
      await addToCart(back, waiting, id);

      await saveSettings(front, ownerClient, { currency: "EUR", locale: "de-DE" });
      // Each process reads the settings at most a second old, and the index again once told.
      const shopper = new CookieClient();
      // Polled on the product page (a search is rate-limited per client): its currency changes once
      // the process's catalogue index is in euros.
      await expect
        .poll(async () => text(shopper, `${back.url}/products/${id}`), { timeout: 20_000 })
        .toMatch(/"priceCurrency":"EUR"/);
      expect(await text(shopper, `${back.url}/products/${id}`)).toContain("89,99 €");
      expect(await text(shopper, `${back.url}/?search=blender`)).toContain("89,99 €");
      const cart = await text(waiting, `${back.url}/cart`);
      expect(cart).toContain("Your cart was priced in US Dollar. The shop now sells in Euro");
      expect((await checkout(back, waiting)).order).toMatchObject({ total: 89.99, currency: "EUR" });
      const kept = await json<{ order: { total: number; currency: string } }>(
        before,
        `${back.url}/api/orders/${old.number}`,
      );
      expect(kept.body.order).toMatchObject({ total: 89.99, currency: "USD" });

      // Yen have no decimals: the 8,999 minor units the blender costs are ¥8,999 on every card.
      await saveSettings(
        front,
        ownerClient,
        { currency: "JPY", locale: "ja-JP" },
        { standardShipping: "500", freeShippingFrom: "8000", expressShipping: "1500" },
      );
      await expect
        .poll(async () => text(shopper, `${back.url}/products/${id}`), { timeout: 20_000 })
        .toMatch(/"priceCurrency":"JPY"/);
      expect((await demoBlender(back, new CookieClient())).price).toBe(8999);
      expect(await text(shopper, `${back.url}/products/${id}`)).toContain("￥8,999");
      expect(await text(shopper, `${back.url}/?search=blender`)).toContain("￥8,999");
    } finally {
      await Promise.all(running.splice(0).map((shop) => shop.stop()));
      await database.close();
    }
  });
});
reportPostgresSkipped("an owner's currency, on $name");
