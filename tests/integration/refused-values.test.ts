import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { migrateDatabase } from "~/db/migrate.server";
import { CookieClient } from "../support/http-client";
import { enginesToRun } from "../support/requirements";
import { preparedDataDir, type ShopProcess, startShopProcess } from "../support/shop-process";
import { createScratchPostgres, reportPostgresSkipped } from "../support/test-database";

/**
 * A value the database refuses (SQLSTATE class 22: NUL in text, a value too
 * long or out of range) that no schema caught is the client's mistake: 400,
 * never a 500, and a warning rather than an error in the log. Every text
 * input's schema refuses what PostgreSQL cannot store (~/utils/zod); to reach
 * the database with a value it refuses anyway, these shops start on a
 * database whose orders.idempotency_key column is narrowed to 64 characters,
 * so a checkout with a longer (valid: up to 200) key fails there with 22001.
 */
const NARROWED = sql`alter table orders alter column idempotency_key type varchar(64)`;
const LONG_KEY = `long-key-${"k".repeat(100)}`;

const engines: { name: string; start(): Promise<{ shop: ShopProcess; cleanup(): Promise<void> }> }[] = [
  {
    name: "PGlite",
    async start() {
      const dataDir = preparedDataDir();
      const database = await openDatabase({ dataDir });
      await migrateDatabase(database);
      await database.db.execute(NARROWED);
      await database.close();
      const shop = await startShopProcess({ DATA_DIR: dataDir, TRUST_PROXY: "1" });
      return { shop, cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
    },
  },
];
if (process.env.TEST_DATABASE_URL) {
  engines.push({
    name: "PostgreSQL",
    async start() {
      const scratch = await createScratchPostgres();
      const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 1 });
      await migrateDatabase(database);
      await database.db.execute(NARROWED);
      await database.close();
      const shop = await startShopProcess({ DATABASE_URL: scratch.url, TRUST_PROXY: "1" });
      return { shop, cleanup: () => scratch.drop() };
    },
  });
}

const someAddress = () => `10.9.${randomBytes(1)[0]}.${1 + ((randomBytes(1)[0] ?? 0) % 250)}`;

describe.each(enginesToRun(engines))("a value the database refuses, on $name", ({ start }) => {
  let shop: ShopProcess;
  let cleanup: () => Promise<void>;
  const guest = new CookieClient();
  const headers = { "X-Forwarded-For": someAddress() };

  beforeAll(async () => {
    ({ shop, cleanup } = await start());
    const [product] = (await (await fetch(`${shop.url}/all-products?size=1`)).json()) as { id: number }[];
    const added = await guest.fetch(`${shop.url}/api/cart/lines`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify({ productId: product?.id, quantity: 1 }),
    });
    expect(added.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await shop?.stop();
    await cleanup?.();
  });

  const order = (key: string) =>
    guest.fetch(`${shop.url}/api/checkout`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json", "Idempotency-Key": key },
      body: JSON.stringify({
        email: "ada@example.com",
        shippingAddress: {
          name: "Ada",
          line1: "1 High Street",
          city: "Leeds",
          postalCode: "LS1 1AA",
          country: "GB",
        },
        shippingMethod: "standard",
        paymentMethod: "cash-on-delivery",
      }),
    });

  it("the JSON API answers 400 with its error body, not 500", async () => {
    const answer = await order(LONG_KEY);
    expect(answer.status).toBe(400);
    expect(answer.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await answer.json()).toEqual({
      error: { code: "invalid_value", message: expect.stringContaining("cannot be stored as sent") },
    });
  });

  it("the checkout page's form answers 400 with its error page, not 500", async () => {
    const answer = await guest.fetch(`${shop.url}/checkout`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded", Origin: shop.url },
      body: new URLSearchParams({
        idempotencyKey: LONG_KEY,
        email: "ada@example.com",
        "shippingAddress.name": "Ada",
        "shippingAddress.line1": "1 High Street",
        "shippingAddress.city": "Leeds",
        "shippingAddress.postalCode": "LS1 1AA",
        "shippingAddress.country": "GB",
        shippingMethod: "standard",
        paymentMethod: "cash-on-delivery",
      }),
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(await answer.text()).not.toMatch(/\n\s+at .+[(:]\d+/);
  });

  it("a key that fits is ordered as before", async () => {
    expect((await order(crypto.randomUUID())).status).toBe(201);
  });

  it("logs each refusal as a warning with its code, no error and no value", () => {
    const lines = shop.output().split("\n");
    expect(lines.filter((line) => /"level":(50|60)/.test(line)).map((line) => line.slice(0, 300))).toEqual(
      [],
    );
    const warnings = lines.filter((line) => line.includes("the database refused a value"));
    expect(warnings).toHaveLength(2);
    for (const warning of warnings) {
      expect(warning).toContain('"code":"22001"');
      expect(warning).not.toContain(LONG_KEY);
    }
  });
});

reportPostgresSkipped("a value the database refuses, on $name");
