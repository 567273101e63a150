import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { TaxShippingSetup } from "~/commerce/tax-shipping-setup";
import { auditLog, shopSettings } from "~/db/schema";
import { sendForm } from "../../tests/support/form-post";
import { shopContext } from "../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { action, loader } from "./admin.settings";
import { loader as checkoutLoader } from "./checkout";

/**
 * /admin/settings: what an owner saves is what checkout charges, what shoppers
 * are told of stock and what the form shows next; the audit log keeps only
 * what changed; a bad amount is refused next to its field.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("/admin/settings");

const SAVED = {
  currency: "USD",
  locale: "en-US",
  standardShipping: "3.50",
  freeShippingFrom: "75",
  expressShipping: "14.99",
  bankDetails: "Backline Ltd.\nIBAN: GB33 BUKB 2020 1555 5555 55",
  lowStockAt: "5",
  fewLeftAt: "3",
};

describe.each(engines)("the shop's settings on $name", (engine: TestDatabase) => {
  const { context, signedUpAs } = shopContext(engine);

  /** The shipping methods the checkout page offers this visitor (a shop without zones: Everywhere's). */
  const methodsAtCheckout = async (cookie: string) => {
    const checkout = await sendForm(checkoutLoader, context, "/checkout", { method: "GET", cookie });
    return (checkout.body?.setup as TaxShippingSetup | undefined)?.shippingZones[0]?.methods;
  };

  it("charges what the owner saved at checkout, shows it in the form, and logs only the changes", async () => {
    await engine.db.delete(shopSettings);
    const ownerEmail = `owner-${engine.name.toLowerCase()}-${Date.now()}@example.com`;
    const owner = await signedUpAs(ownerEmail, "owner");

    const sent = await sendForm(action, context, "/admin/settings", { cookie: owner, form: SAVED });
    expect(sent.status).toBe(200);
    expect(sent.body?.saved).toBe(true);

    expect(await methodsAtCheckout(owner)).toMatchObject([
      {
        id: "standard",
        bySubtotal: [
          { from: 0, price: 350 },
          { from: 7_500, price: 0 },
        ],
      },
      { id: "express", flat: 1_499 },
    ]);
    const form = await sendForm(loader, context, "/admin/settings", { method: "GET", cookie: owner });
    expect(form.body?.current).toEqual({ ...SAVED, freeShippingFrom: "75.00" });

    const [entry] = await engine.db.select().from(auditLog).where(eq(auditLog.actorEmail, ownerEmail));
    // Express and the low-stock line were saved as they were: not changes.
    expect(entry).toMatchObject({
      action: "settings.changed",
      subject: "settings",
      before: { standardShippingCents: 499, freeShippingFromCents: 5_000, fewLeftAt: 5 },
      after: {
        standardShippingCents: 350,
        freeShippingFromCents: 7_500,
        bankDetails: ["Backline Ltd.", "IBAN: GB33 BUKB 2020 1555 5555 55"],
        fewLeftAt: 3,
      },
    });
    expect(Object.keys(entry?.after as object)).not.toContain("expressShippingCents");
    expect(Object.keys(entry?.after as object)).not.toContain("lowStockAt");
  });

  it("refuses an amount that is not dollars next to its field, and saves nothing", async () => {
    await engine.db.delete(shopSettings);
    const owner = await signedUpAs(
      `owner-bad-${engine.name.toLowerCase()}-${Date.now()}@example.com`,
      "owner",
    );

    const sent = await sendForm(action, context, "/admin/settings", {
      cookie: owner,
      form: { ...SAVED, standardShipping: "4,5.0.1", lowStockAt: "0x5", fewLeftAt: "2.5" },
    });

    expect(sent.status).toBe(400);
    const errors = (sent.body as { result: { error: Record<string, string[]> } }).result.error;
    expect(errors.standardShipping?.[0]).toBe("Enter the standard shipping in dollars, like 4.99.");
    expect(errors.lowStockAt?.[0]).toBe("Enter a whole number of units, like 5.");
    expect(errors.fewLeftAt?.[0]).toBe("Enter a whole number of units, like 5.");
    expect(await engine.db.$count(shopSettings)).toBe(0);
  });

  it("refuses an “Only N left” line that is not a few, or not a count, next to its field", async () => {
    await engine.db.delete(shopSettings);
    const owner = await signedUpAs(
      `owner-few-${engine.name.toLowerCase()}-${Date.now()}@example.com`,
      "owner",
    );
    for (const [fewLeftAt, message] of [
      ["1001", "Enter at most 1,000 units."],
      ["-1", "Enter a whole number of units, like 5."],
      ["", "Enter a whole number of units, like 5."],
    ] as const) {
      const sent = await sendForm(action, context, "/admin/settings", {
        cookie: owner,
        form: { ...SAVED, fewLeftAt },
      });
      expect(sent.status, fewLeftAt).toBe(400);
      const errors = (sent.body as { result: { error: Record<string, string[]> } }).result.error;
      expect(errors, fewLeftAt).toEqual({ fewLeftAt: [message] });
    }
    expect(await engine.db.$count(shopSettings)).toBe(0);

    // The bounds themselves are kept: 0 (never say it) and 1,000.
    for (const fewLeftAt of ["0", "1000"]) {
      const sent = await sendForm(action, context, "/admin/settings", {
        cookie: owner,
        form: { ...SAVED, fewLeftAt },
      });
      expect(sent.status, fewLeftAt).toBe(200);
      const form = await sendForm(loader, context, "/admin/settings", { method: "GET", cookie: owner });
      expect(form.body?.current).toMatchObject({ fewLeftAt });
    }
  });
  it("switches the shop to yen written the Japanese way, its amounts read in yen, and logs the switch", async () => {
    await engine.db.delete(shopSettings);
    const ownerEmail = `owner-yen-${engine.name.toLowerCase()}-${Date.now()}@example.com`;
    const owner = await signedUpAs(ownerEmail, "owner");
    const yen = {
      ...SAVED,
      currency: "JPY",
      locale: "ja-JP",
      standardShipping: "500",
      freeShippingFrom: "8000",
      expressShipping: "1500",
    };

    // Cents typed for yen are refused in the currency the form chose, not the shop's dollars.
    const refused = await sendForm(action, context, "/admin/settings", {
      cookie: owner,
      form: { ...yen, standardShipping: "4.99", locale: "Klingon!" },
    });
    expect(refused.status).toBe(400);
    expect((refused.body as { result: { error: Record<string, string[]> } }).result.error).toEqual({
      standardShipping: ["Enter the standard shipping in JPY, like 499."],
      locale: ["Enter how amounts are written, like en-US or de-DE."],
    });
    expect(await engine.db.$count(shopSettings)).toBe(0);

    const sent = await sendForm(action, context, "/admin/settings", { cookie: owner, form: yen });
    expect(sent.status).toBe(200);
    expect(await methodsAtCheckout(owner)).toMatchObject([
      {
        id: "standard",
        bySubtotal: [
          { from: 0, price: 500 },
          { from: 8_000, price: 0 },
        ],
      },
      { id: "express", flat: 1_500 },
    ]);
    const form = await sendForm(loader, context, "/admin/settings", { method: "GET", cookie: owner });
    expect(form.body?.current).toMatchObject({ currency: "JPY", locale: "ja-JP", standardShipping: "500" });
    const [entry] = await engine.db.select().from(auditLog).where(eq(auditLog.actorEmail, ownerEmail));
    expect(entry).toMatchObject({
      before: { currency: "USD", locale: "en-US" },
      after: { currency: "JPY", locale: "ja-JP" },
    });

    // A currency that is none is refused next to its field (the amounts are read in the shop's yen).
    const unknown = await sendForm(action, context, "/admin/settings", {
      cookie: owner,
      form: { ...yen, currency: "XXQ" },
    });
    expect(unknown.status).toBe(400);
    expect((unknown.body as { result: { error: Record<string, string[]> } }).result.error).toEqual({
      currency: ["Choose the currency the shop sells in."],
    });
    // Back to dollars, for the next test.
    expect((await sendForm(action, context, "/admin/settings", { cookie: owner, form: SAVED })).status).toBe(
      200,
    );
    await engine.db.delete(shopSettings);
  });
});
