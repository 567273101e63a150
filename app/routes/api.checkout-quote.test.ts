import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { taxShippingSetupSchema } from "~/commerce/tax-shipping-setup";
import { products, productVariants, shopSettings } from "~/db/schema";
import { COMMAND_LINE } from "~/utils/audit-log.server";
import { onlyVariantOf, productInStock, shopContext } from "../../tests/support/shop-context";
import { germanShopDocument } from "../../tests/support/tax-setups";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { action as linesAction } from "./api.cart-lines";
import { action as quoteAction } from "./api.checkout-quote";

/**
 * POST /api/checkout/quote (issue 35): the visitor's cart at an address —
 * the shipping methods its zone offers, each line's tax at its zone's rate
 * (its product's class's where it has one), the taxes per rate and the
 * total — or a 422 naming the field where the shop does not ship or sell.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("/api/checkout/quote");

/** The German shop, in the test shop's dollars, refusing to sell outside its tax zones. */
const GERMAN_SHOP = taxShippingSetupSchema("USD").parse(germanShopDocument("refuse"));

describe.each(engines)("the checkout's quote on $name", (engine: TestDatabase) => {
  const { context, taxShipping } = shopContext(engine);

  async function call(
    path: string,
    handler: typeof quoteAction | typeof linesAction,
    body: unknown,
    cookie?: string,
  ) {
    const request = new Request(`http://localhost:3000${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify(body),
    });
    const response = await handler({ request, context, params: {} } as never);
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      cookie: response.headers.get("set-cookie")?.split(";")[0],
    };
  }
  const quote = (body: unknown, cookie?: string) => call("/api/checkout/quote", quoteAction, body, cookie);

  /** A guest's cart: two shirts at $19.99 (500 g each) and a book at $12.00 (reduced rate, 800 g). */
  async function shirtsAndBook(): Promise<string> {
    const shirt = await productInStock(engine, 50, 19.99);
    const book = await productInStock(engine, 50, 12);
    await engine.db.update(products).set({ taxClass: "reduced" }).where(eq(products.id, book));
    for (const [id, grams] of [
      [shirt, 500],
      [book, 800],
    ] as const) {
      await engine.db
        .update(productVariants)
        .set({ weightGrams: grams })
        .where(eq(productVariants.id, await onlyVariantOf(engine.db, id)));
    }
    const first = await call("/api/cart/lines", linesAction, { productId: shirt, quantity: 2 });
    const cookie = first.cookie as string;
    await call("/api/cart/lines", linesAction, { productId: book, quantity: 1 }, cookie);
    return cookie;
  }

  it("answers a shop that saved no setup as before: Everywhere, standard and express, no tax", async () => {
    await engine.db.delete(shopSettings);
    const cookie = await shirtsAndBook();
    const answer = await quote({ shippingAddress: { country: "US", region: "US-OR" } }, cookie);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      currency: "USD",
      subtotal: 51.98,
      shippingMethods: [
        { id: "standard", name: "Standard", price: 0 },
        { id: "express", name: "Express", price: 14.99 },
      ],
      shippingMethod: "standard",
      shipping: 0,
      taxes: [],
      taxIncluded: false,
      total: 51.98,
    });
  });

  it("charges German VAT to Germany and French VAT to France, per line, to the cent", async () => {
    await taxShipping.replace(COMMAND_LINE, GERMAN_SHOP);
    const cookie = await shirtsAndBook();
    const toGermany = await quote({ shippingAddress: { country: "DE" } }, cookie);
    expect(toGermany.body).toMatchObject({
      lines: [
        { total: 39.98, tax: 6.38 },
        { total: 12, tax: 0.79 },
      ],
      subtotal: 51.98,
      shipping: 0,
      taxes: [
        { name: "Germany", rate: 19, amount: 6.38 },
        { name: "Germany (reduced)", rate: 7, amount: 0.79 },
      ],
      taxIncluded: true,
      total: 51.98,
    });
    const toFrance = await quote({ shippingAddress: { country: "FR" }, shippingMethod: "freight" }, cookie);
    // 1.8 kg: the first weight band, 9.90, its VAT at France's standard rate (1.65) beside the shirts' (6.66).
    expect(toFrance.body).toMatchObject({
      shippingMethod: "freight",
      shipping: 9.9,
      taxes: [
        { name: "France", rate: 20, amount: 8.31 },
        { name: "France (reduced)", rate: 5.5, amount: 0.63 },
      ],
      total: 61.88,
    });
  });

  it("names the field where the shop does not ship, does not sell, or has no such method", async () => {
    await taxShipping.replace(COMMAND_LINE, GERMAN_SHOP);
    const cookie = await shirtsAndBook();
    expect(await quote({ shippingAddress: { country: "US", region: "US-OH" } }, cookie)).toMatchObject({
      status: 422,
      body: { error: { code: "not_shipped_there", field: "shippingAddress.country" } },
    });
    // Austria is shipped to but in no tax zone, and the shop refuses to sell outside them.
    expect(await quote({ shippingAddress: { country: "AT" } }, cookie)).toMatchObject({
      status: 422,
      body: { error: { code: "not_sold_there", field: "shippingAddress.country" } },
    });
    expect(
      await quote({ shippingAddress: { country: "DE" }, shippingMethod: "overnight" }, cookie),
    ).toMatchObject({
      status: 422,
      body: { error: { code: "invalid_shipping_method", field: "shippingMethod" } },
    });
    expect(await quote({ shippingAddress: { country: "US" } }, cookie)).toMatchObject({
      status: 400,
      body: { error: { field: "shippingAddress.region" } },
    });
  });

  it("answers 409 for an empty cart", async () => {
    expect(await quote({ shippingAddress: { country: "DE" } })).toMatchObject({
      status: 409,
      body: { error: { code: "cart_empty" } },
    });
  });
});
