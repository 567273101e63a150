import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taxShippingSetupSchema } from "~/commerce/tax-shipping-setup";
import { orderLines, orders, shopSettings, stockLevels } from "~/db/schema";
import { sendForm } from "../../tests/support/form-post";
import { productInStock, shopContext } from "../../tests/support/shop-context";
import { checkoutForm } from "../../tests/support/shopper";
import { germanShopDocument, PARIS_ADDRESS } from "../../tests/support/tax-setups";
import { openPgliteTestDatabase } from "../../tests/support/test-database";
import { action as linesAction } from "./api.cart-lines";
import { action as checkoutApi } from "./api.checkout";
import { action as checkoutAction, loader as checkoutLoader } from "./checkout";

/**
 * The checkout charging the shop's tax and shipping setup (issue 35): a shop
 * in Germany, its prices including VAT, selling to Germany and France and
 * shipping to Austria too. The page offers its countries and quotes as the
 * server places; the API and the page place at the quote, keep the taxes on
 * the order, and refuse where the shop does not ship or sell, or not by that method.
 */

const engine = await openPgliteTestDatabase();
afterAll(() => engine.close());
const { context } = shopContext(engine, {
  shoppingLimits: { cartChanges: 1_000, checkouts: 1_000, duration: 60 },
});
// In the test shop's dollars; prices include tax, as a German shop's do.
beforeAll(async () => {
  const setup = taxShippingSetupSchema("USD").parse(germanShopDocument("refuse"));
  await engine.db.insert(shopSettings).values({ name: "taxAndShipping", value: setup });
});

/** A guest's cart with two of a $19.99 product: its cookie and the product. */
async function twoKettles() {
  const productId = await productInStock(engine, 10, 19.99);
  const request = new Request("http://localhost:3000/api/cart/lines", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ productId, quantity: 2 }),
  });
  const added = await linesAction({ request, context, params: {} } as never);
  return { cookie: added.headers.get("set-cookie")?.split(";")[0] as string, productId };
}

async function placeByApi(cookie: string, body: Record<string, unknown>) {
  const request = new Request("http://localhost:3000/api/checkout", {
    method: "POST",
    headers: { "Content-Type": "application/json", cookie, "Idempotency-Key": randomUUID() },
    body: JSON.stringify({ email: "ada@example.com", paymentMethod: "bank-transfer", ...body }),
  });
  const response = await checkoutApi({ request, context, params: {} } as never);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const pageFor = async (cookie: string) =>
  (await sendForm(checkoutLoader, context, "/checkout", { method: "GET", cookie })).body as {
    countries: { code: string }[];
    defaults: { country: string };
    idempotencyKey: string;
  };

const onHand = async (productId: number) =>
  (await engine.db.select().from(stockLevels).where(eq(stockLevels.productId, productId)))[0]?.onHand;

describe("a checkout in a shop with tax zones", () => {
  it("the API charges the French rate inside the prices and keeps each line's tax", async () => {
    const { cookie } = await twoKettles();
    const placed = await placeByApi(cookie, { shippingAddress: PARIS_ADDRESS, shippingMethod: "standard" });
    expect(placed.status).toBe(201);
    // 39.98 at 20 % contains 6.66; Standard (4.90 below 50) contains 0.82.
    expect(placed.body.order).toMatchObject({
      lines: [{ quantity: 2, lineTotal: 39.98, tax: 6.66 }],
      subtotal: 39.98,
      shipping: 4.9,
      tax: 7.48,
      taxes: [{ name: "France", rate: 20, amount: 7.48 }],
      taxIncluded: true,
      total: 44.88,
    });
    const number = (placed.body.order as { number: string }).number;
    const [order] = await engine.db.select().from(orders).where(eq(orders.number, number));
    expect(order).toMatchObject({ taxCents: 748, pricesIncludeTax: true, shippingMethodName: "Standard" });
    const lines = await engine.db
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, order?.id ?? 0));
    expect(lines.map((line) => line.taxCents)).toEqual([666]);
  });

  it("the API places nothing where the shop does not ship or sell, or not by that method, naming the field", async () => {
    const { cookie, productId } = await twoKettles();
    const oregon = { ...PARIS_ADDRESS, country: "US", region: "US-OR", postalCode: "97204" };
    const answers = [
      await placeByApi(cookie, { shippingAddress: oregon, shippingMethod: "standard" }),
      await placeByApi(cookie, {
        shippingAddress: { ...PARIS_ADDRESS, country: "AT", postalCode: "1010" },
        shippingMethod: "standard",
      }),
      await placeByApi(cookie, { shippingAddress: PARIS_ADDRESS, shippingMethod: "ground" }),
    ];
    expect(answers.map(({ status, body }) => ({ status, error: body.error }))).toEqual([
      {
        status: 422,
        error: expect.objectContaining({ code: "not_shipped_there", field: "shippingAddress.country" }),
      },
      {
        status: 422,
        error: expect.objectContaining({
          code: "not_sold_there",
          field: "shippingAddress.country",
          message: "The shop does not sell to Austria.",
        }),
      },
      {
        status: 422,
        error: expect.objectContaining({ code: "invalid_shipping_method", field: "shippingMethod" }),
      },
    ]);
    expect(await onHand(productId)).toBe(10);
  });

  it("the page lists the countries the shop ships to, opening on the first where the shopper's is not one", async () => {
    const { cookie } = await twoKettles();
    const shown = await pageFor(cookie);
    expect(shown.countries.map((country) => country.code)).toEqual(["AT", "FR", "DE"]);
    expect(shown.defaults.country).toBe("AT");
  });

  it("the page places at the total it showed, and says beside the field why it cannot place", async () => {
    const { cookie, productId } = await twoKettles();
    const { idempotencyKey } = await pageFor(cookie);
    const paris = {
      "shippingAddress.line1": PARIS_ADDRESS.line1,
      "shippingAddress.city": PARIS_ADDRESS.city,
      "shippingAddress.postalCode": PARIS_ADDRESS.postalCode,
      "shippingAddress.country": "FR",
    };
    const place = (changes: Record<string, string>) =>
      sendForm(checkoutAction, context, "/checkout", {
        form: checkoutForm(idempotencyKey, { ...paris, ...changes }),
        cookie,
      });
    const refused = await place({ shippingMethod: "ground", expectedTotal: "44.88" });
    expect(refused.status).toBe(422);
    expect((refused.body as { result: { error: Record<string, string[]> } }).result.error).toEqual({
      shippingMethod: ["Choose one of the shipping methods offered for this address."],
    });
    expect(await onHand(productId)).toBe(8 + 2);
    const placed = await place({ shippingMethod: "express", expectedTotal: "54.88" });
    expect(placed.status).toBe(303);
    const [order] = await engine.db.select().from(orders).where(eq(orders.idempotencyKey, idempotencyKey));
    // Express 14.90 at 20 % contains 2.48; the kettles' 6.66 as before.
    expect(order).toMatchObject({ totalCents: 5488, taxCents: 914, shippingMethod: "express" });
  });
});
