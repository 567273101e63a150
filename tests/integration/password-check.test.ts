import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ShopProcess, startShopProcess } from "../support/shop-process";

/**
 * POST /api/password-check, which the new-password fields ask when they are
 * left (sign-up, reset, account page): whether the shop refuses a password as
 * too common, and nothing else (docs/decisions/0005).
 */
let shop: ShopProcess;
let addresses = 0;
/** Each test its own client address (TRUST_PROXY=1), so one test's limit never reaches another. */
const fromAddress = () => ({ "X-Forwarded-For": `198.51.100.${++addresses}` });

beforeAll(async () => {
  shop = await startShopProcess({ TRUST_PROXY: "1", LOG_LEVEL: "debug", SEED_DEMO_CATALOG: "0" });
});
afterAll(async () => {
  await shop?.stop();
});

const check = (body: string, headers: Record<string, string> = fromAddress()) =>
  fetch(`${shop.url}/api/password-check`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body,
  });

describe("the common-password check", () => {
  it("says whether a password is too common, never cached", async () => {
    const common = await check(JSON.stringify({ password: "Password1!" }));
    expect(common.status).toBe(200);
    expect(common.headers.get("cache-control")).toBe("no-store");
    expect(await common.json()).toEqual({ tooCommon: true });
    // The server's check undoes the usual disguises, as the form's submit does.
    expect(await (await check(JSON.stringify({ password: "P@ssw0rd2024!" }))).json()).toEqual({
      tooCommon: true,
    });
    expect(await (await check(JSON.stringify({ password: "vX7#kq2Lm" }))).json()).toEqual({
      tooCommon: false,
    });
  });

  it("refuses a body that is not { password } with 400 naming the field", async () => {
    for (const body of [
      JSON.stringify({}),
      JSON.stringify({ password: 7 }),
      JSON.stringify({ password: "a".repeat(200) }),
    ]) {
      const response = await check(body);
      expect(response.status, body).toBe(400);
      expect(await response.json()).toMatchObject({
        error: {
          code: "invalid_field",
          field: "password",
          fields: [{ field: "password", message: expect.any(String) }],
        },
      });
    }
    for (const body of ["not json", "[]", "null"]) {
      const response = await check(body);
      expect(response.status, body).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: "invalid_body" } });
    }
    const get = await fetch(`${shop.url}/api/password-check`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("refuses other sites", async () => {
    const response = await check(JSON.stringify({ password: "Password1!" }), {
      ...fromAddress(),
      Origin: "https://evil.example",
    });
    expect(response.status).toBe(403);
  });

  it("is limited per address: 60 checks in 10 minutes, then 429 with Retry-After", async () => {
    const headers = fromAddress();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 61; attempt++) {
      statuses.push((await check(JSON.stringify({ password: `Pass${attempt}!x` }), headers)).status);
    }
    expect(statuses.slice(0, 60)).toEqual(Array(60).fill(200));
    expect(statuses[60]).toBe(429);
    const refused = await check(JSON.stringify({ password: "Password1!" }), headers);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: { code: "rate_limited" } });
  });

  it("never writes a password it was asked about to the log", async () => {
    const password = `Zq${randomBytes(6).toString("hex")}!9`;
    expect((await check(JSON.stringify({ password }))).status).toBe(200);
    expect((await check(JSON.stringify({ password, extra: password.repeat(20) }))).status).toBe(200);
    expect(shop.output()).not.toContain(password);
  });
});
