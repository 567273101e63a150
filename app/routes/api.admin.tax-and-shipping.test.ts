import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, shopSettings } from "~/db/schema";
import { sentenceOf } from "~/features/back-office/activity-sentences.server";
import { shopContext } from "../../tests/support/shop-context";
import { germanShopDocument } from "../../tests/support/tax-setups";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { action, loader } from "./api.admin.tax-and-shipping";

/**
 * GET and PUT /api/admin/tax-and-shipping (issue 35): the setup as one
 * document for staff and owners; a shopper or a signed-out visitor gets the
 * shop's 404; a bad document is refused naming the JSON path of each bad
 * value and changes nothing; a change goes to the activity log.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("/api/admin/tax-and-shipping");

const GERMAN_SHOP = germanShopDocument();

describe.each(engines)("the tax and shipping setup's API on $name", (engine: TestDatabase) => {
  const { context, signedUp, signedUpAs } = shopContext(engine);
  const path = "/api/admin/tax-and-shipping";

  async function call(method: "GET" | "PUT", cookie?: string, body?: unknown) {
    const request = new Request(`http://localhost:3000${path}`, {
      method,
      headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const handler = method === "GET" ? loader : action;
    const response = await handler({ request, context, params: {} } as never);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const unique = (who: string) => `${who}-${engine.name.toLowerCase()}-${Date.now()}@example.com`;

  it("starts a shop that saved none with one zone, Everywhere, at its shipping settings' prices", async () => {
    await engine.db.delete(shopSettings);
    const staff = await signedUpAs(unique("staff"), "staff");
    const answer = await call("GET", staff);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ pricesIncludeTax: false, outsideTaxZones: "no-tax", taxZones: [] });
    const [everywhere] = answer.body.shippingZones as { name: string; areas: string[]; methods: unknown[] }[];
    expect(everywhere?.name).toBe("Everywhere");
    expect(everywhere?.areas).toHaveLength(249);
    // The test shop's settings: standard 4.99, free from 50, express 14.99 (tests/support/shop-context.ts).
    expect(everywhere?.methods).toEqual([
      expect.objectContaining({
        id: "standard",
        bySubtotal: [
          { from: 0, price: 4.99 },
          { from: 50, price: 0 },
        ],
      }),
      expect.objectContaining({ id: "express", flat: 14.99 }),
    ]);
  });

  it("replaces the setup for an owner, answers it as saved, and logs what changed", async () => {
    await engine.db.delete(shopSettings);
    const ownerEmail = unique("owner");
    const owner = await signedUpAs(ownerEmail, "owner");
    const put = await call("PUT", owner, GERMAN_SHOP);
    expect(put.status).toBe(200);
    expect(put.body).toEqual(GERMAN_SHOP);
    expect((await call("GET", owner)).body).toEqual(GERMAN_SHOP);

    const changed = structuredClone(GERMAN_SHOP);
    (changed.taxZones[0] as { rate: number }).rate = 16;
    expect((await call("PUT", owner, changed)).status).toBe(200);
    const entries = await engine.db.select().from(auditLog).where(eq(auditLog.actorEmail, ownerEmail));
    expect(entries.map((entry) => entry.action)).toEqual(["tax-shipping.replaced", "tax-shipping.replaced"]);
    const last = entries.at(-1) as (typeof entries)[number];
    expect(sentenceOf({ who: ownerEmail, ...last })).toBe(
      `${ownerEmail} changed tax and shipping: tax zone Germany: rate 19 % → 16 %.`,
    );
    // The same document again changes nothing, and logs nothing.
    expect((await call("PUT", owner, changed)).status).toBe(200);
    expect(await engine.db.select().from(auditLog).where(eq(auditLog.actorEmail, ownerEmail))).toHaveLength(
      2,
    );
  });

  it("lets staff replace it too, as the back office's API", async () => {
    const staff = await signedUpAs(unique("staff-put"), "staff");
    expect((await call("PUT", staff, GERMAN_SHOP)).status).toBe(200);
  });

  it("refuses a bad document naming the JSON path of each bad value, and changes nothing", async () => {
    const owner = await signedUpAs(unique("owner-bad"), "owner");
    expect((await call("PUT", owner, GERMAN_SHOP)).status).toBe(200);
    const bad = structuredClone(GERMAN_SHOP) as typeof GERMAN_SHOP & Record<string, unknown>;
    (bad.taxZones[0] as { rate: unknown }).rate = "19";
    (bad.taxZones[1] as { areas: string[] }).areas = ["FR", "DE"];
    (bad.shippingZones[0]?.methods[1] as Record<string, unknown>).flat = 14.999;
    const refused = await call("PUT", owner, bad);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: "invalid_field",
      field: "taxZones[0].rate",
      fields: [
        { field: "taxZones[0].rate", message: "Enter the rate in percent, like 19 or 5.75." },
        { field: "shippingZones[0].methods[1].flat", message: "A price in USD has at most 2 decimals." },
        {
          field: "taxZones[1].areas[1]",
          message: "DE is already in zone 1: an area belongs to one zone.",
        },
      ],
    });
    expect((await call("GET", owner)).body).toEqual(GERMAN_SHOP);

    const notJson = await call("PUT", owner, "{ nope");
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toMatchObject({ code: "invalid_body" });
  });

  it("answers a shopper and a signed-out visitor with the shop's 404", async () => {
    const shopper = await signedUp(unique("shopper"));
    for (const cookie of [shopper, undefined]) {
      expect(await call("GET", cookie)).toMatchObject({
        status: 404,
        body: { error: { code: "not_found" } },
      });
      expect(await call("PUT", cookie, GERMAN_SHOP)).toMatchObject({ status: 404 });
    }
  });
});
