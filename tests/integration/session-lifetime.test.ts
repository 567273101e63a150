import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CookieClient, signedInEmail, signUp } from "../support/http-client";
import { describeWhen, postgresServer } from "../support/requirements";
import { type ShopProcess, startShopProcess } from "../support/shop-process";
import { createScratchPostgres, type ScratchPostgres } from "../support/test-database";

/**
 * A session ends 30 days after its sign-in however active it stayed
 * (docs/decisions/0004), on whichever request comes first after that: the
 * built shop on PostgreSQL, whose sessions the test ages in the database.
 * (The same on the embedded database: app/features/auth/auth.server.test.ts.)
 */
describeWhen([postgresServer], "the absolute session lifetime in the built shop", () => {
  let scratch: ScratchPostgres;
  let shop: ShopProcess;
  let database: pg.Client;
  let addresses = 0;

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    shop = await startShopProcess({ DATABASE_URL: scratch.url, TRUST_PROXY: "1" });
    database = new pg.Client({ connectionString: scratch.url });
    await database.connect();
  });
  afterAll(async () => {
    await database?.end();
    await shop?.stop();
    await scratch?.drop();
  });

  /** A shopper signed in 31 days ago, whose session was kept alive until now. */
  async function signedInLongAgo(): Promise<{ email: string; client: CookieClient }> {
    const email = `old-${randomBytes(4).toString("hex")}@example.com`;
    const client = new CookieClient();
    const headers = { "X-Forwarded-For": `198.51.100.${++addresses}` };
    expect((await signUp(client, shop.url, email, headers)).status).toBe(302);
    await database.query(
      `update sessions set created_at = now() - interval '31 days', expires_at = now() + interval '6 days'
       where user_id = (select id from users where email = $1)`,
      [email],
    );
    return { email, client };
  }

  it("the account page's first request after it sends the shopper to log in", async () => {
    const { client } = await signedInLongAgo();
    const page = await client.fetch(`${shop.url}/account`);
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/login?redirectTo=%2Faccount");
    expect(await signedInEmail(client, shop.url)).toBeNull();
  });

  it("the profile API's first request after it answers 401 and changes nothing", async () => {
    const { email, client } = await signedInLongAgo();
    const response = await client.fetch(`${shop.url}/user/api/create`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, name: "Mallory" }),
    });
    expect(response.status).toBe(401);
    const { rows } = await database.query("select name from users where email = $1", [email]);
    expect(rows[0]?.name).toBe("Test Shopper");
  });

  it("any page's first request after it renders signed out, and the session is gone", async () => {
    const { email, client } = await signedInLongAgo();
    expect(await signedInEmail(client, shop.url)).toBeNull();
    const { rows } = await database.query(
      "select count(*)::int as sessions from sessions where user_id = (select id from users where email = $1)",
      [email],
    );
    expect(rows[0]?.sessions).toBe(0);
  });
});
