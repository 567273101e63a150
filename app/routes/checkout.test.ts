import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { mailQueue, orders, products, stockLevels } from "~/db/schema";
import { sendForm } from "../../tests/support/form-post";
import { productInStock, shopContext } from "../../tests/support/shop-context";
import { checkoutForm, SHOPPER_ADDRESS } from "../../tests/support/shopper";
import { openPgliteTestDatabase } from "../../tests/support/test-database";
import { action as cartAction } from "./cart";
import { action, loader } from "./checkout";

const engine = await openPgliteTestDatabase();
afterAll(() => engine.close());
// Room for every checkout these tests send from one client address.
const { context, signedUp } = shopContext(engine, {
  shoppingLimits: { cartChanges: 1_000, checkouts: 1_000, duration: 60 },
});

/** A guest's cart with `quantity` of a product that has `onHand` units: its cookie and the product. */
async function guestCart(onHand: number, quantity: number, price = 12.5) {
  const productId = await productInStock(engine, onHand, price);
  const added = await sendForm(cartAction, context, "/cart", {
    form: { intent: "add", productId: String(productId), quantity: String(quantity) },
  });
  return { cookie: added.cookie as string, productId };
}

const page = async (cookie?: string) =>
  (await sendForm(loader, context, "/checkout", { method: "GET", cookie })).body as {
    lines: { productId: number; quantity: number }[];
    defaults: { email: string; name: string; country: string };
    idempotencyKey: string;
    countries: { code: string; name: string }[];
    quoteLines: { total: number }[];
    regions: Record<string, { label: string; choices: { code: string; name: string }[] }>;
  };

/** What the page's lines come to, as its quote prices them. */
const subtotalOf = (shown: { quoteLines: { total: number }[] }) =>
  shown.quoteLines.reduce((sum, line) => sum + line.total, 0);

const placeForm = (cookie: string, form: Record<string, string>) =>
  sendForm(action, context, "/checkout", { form, cookie });

type FormAnswer = { result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } };
const formError = (outcome: { body: unknown }) => (outcome.body as FormAnswer).result.error?.[""]?.[0];
const fieldErrors = (outcome: { body: unknown }) => (outcome.body as FormAnswer).result.error ?? {};
const orderOf = async (location: string | null) =>
  (
    await engine.db
      .select()
      .from(orders)
      .where(eq(orders.number, (location ?? "").slice("/orders/".length, "/orders/".length + 8)))
  )[0];
const onHand = async (productId: number) =>
  (await engine.db.select().from(stockLevels).where(eq(stockLevels.productId, productId)))[0]?.onHand;
const queuedEmails = async () => (await engine.db.select({ id: mailQueue.id }).from(mailQueue)).length;

describe("/checkout", () => {
  it("shows the cart's lines, a new key each time, and the countries from the library", async () => {
    const { cookie, productId } = await guestCart(10, 2);
    const first = await page(cookie);
    expect(first.lines).toEqual([expect.objectContaining({ productId, quantity: 2 })]);
    expect(first.idempotencyKey).not.toBe((await page(cookie)).idempotencyKey);
    expect(first.countries.length).toBeGreaterThan(240);
    expect(first.countries).toContainEqual({ code: "DE", name: "Germany" });
    expect(first.defaults).toMatchObject({ email: "", name: "" });
    expect((await page()).lines).toEqual([]);
  });

  it("a signed-in shopper's email and name are filled in", async () => {
    const cookie = await signedUp("checkout-defaults@example.com");
    expect((await page(cookie)).defaults).toMatchObject({
      email: "checkout-defaults@example.com",
      name: "Ada",
    });
  });

  it("places the order and goes to its signed page; sent again, the same order", async () => {
    const { cookie, productId } = await guestCart(10, 2);
    const { idempotencyKey } = await page(cookie);
    const placed = await placeForm(cookie, checkoutForm(idempotencyKey));
    expect(placed.status).toBe(303);
    expect(placed.location).toMatch(/^\/orders\/BL-[0-9A-HJKMNP-TV-Z]{5}\?token=[\w-]{43}$/);
    const again = await placeForm(cookie, checkoutForm(idempotencyKey));
    expect(again).toMatchObject({ status: 303, location: placed.location });
    const number = (placed.location as string).slice("/orders/".length, "/orders/".length + 8);
    expect(await engine.db.select().from(orders).where(eq(orders.number, number))).toHaveLength(1);
    const [level] = await engine.db.select().from(stockLevels).where(eq(stockLevels.productId, productId));
    expect(level?.onHand).toBe(8);
    expect((await page(cookie)).lines).toEqual([]);
  });

  it("every bad field comes back named, and nothing is ordered", async () => {
    const { cookie, productId } = await guestCart(10, 1);
    const { idempotencyKey } = await page(cookie);
    const refused = await placeForm(
      cookie,
      checkoutForm(idempotencyKey, {
        email: "not-an-email",
        "shippingAddress.city": "",
        "shippingAddress.postalCode": "ABC",
        shippingMethod: "",
      }),
    );
    expect(refused.status).toBe(400);
    const { result } = refused.body as { result: { error: Record<string, string[]> } };
    expect(result.error).toMatchObject({
      email: ["Enter a valid email address."],
      "shippingAddress.city": ["City is required."],
      shippingMethod: ["Choose a shipping method."],
      // Named with the others, not only once they are right.
      "shippingAddress.postalCode": [expect.stringMatching(/^Enter a postal code as it is written in /)],
    });
    const postal = await placeForm(
      cookie,
      checkoutForm(idempotencyKey, { "shippingAddress.postalCode": "ABC" }),
    );
    expect((postal.body as { result: { error: Record<string, string[]> } }).result.error).toHaveProperty([
      "shippingAddress.postalCode",
    ]);
    const [level] = await engine.db.select().from(stockLevels).where(eq(stockLevels.productId, productId));
    expect(level?.onHand).toBe(10);
  });

  it("a short line takes nothing and says what is left", async () => {
    const { cookie, productId } = await guestCart(5, 5);
    await engine.db.update(stockLevels).set({ onHand: 2 }).where(eq(stockLevels.productId, productId));
    const { idempotencyKey } = await page(cookie);
    const short = await placeForm(cookie, checkoutForm(idempotencyKey));
    expect(short.status).toBe(409);
    expect(short.body).toMatchObject({ short: [{ productId, asked: 5, left: 2 }] });
    expect((short.body as { result: { error: Record<string, string[]> } }).result.error[""]?.[0]).toMatch(
      /nothing was ordered/,
    );
    expect((await page(cookie)).lines).toEqual([expect.objectContaining({ productId, quantity: 5 })]);
  });

  it("an empty cart is refused with a reason", async () => {
    const { cookie } = await guestCart(5, 1);
    const first = await page(cookie);
    await placeForm(cookie, checkoutForm(first.idempotencyKey));
    const again = await placeForm(cookie, checkoutForm((await page(cookie)).idempotencyKey));
    expect(again.status).toBe(409);
    expect((again.body as { result: { error: Record<string, string[]> } }).result.error[""]?.[0]).toMatch(
      /Your cart is empty/,
    );
  });
});

describe("/checkout: the total a shopper was shown is the one they agree to", () => {
  it("Express chosen on a page that showed Standard's total places nothing, and shows Express's total to confirm", async () => {
    const { cookie, productId } = await guestCart(10, 2, 12.99);
    const shown = await page(cookie);
    const form = checkoutForm(shown.idempotencyKey, { shippingMethod: "express", expectedTotal: "30.97" });
    const refused = await placeForm(cookie, form);
    expect(refused.status).toBe(409);
    expect(formError(refused)).toMatch(/total changed.*nothing was ordered/i);
    // The page comes back as it was filled in, Express chosen: its summary shows Express's total.
    expect((refused.body as FormAnswer).result.initialValue).toMatchObject({
      shippingMethod: "express",
      email: "ada@example.com",
    });
    expect(refused.body).toMatchObject({ totalChanged: { shownCents: 3097, totalCents: 4097 } });
    expect(await onHand(productId)).toBe(10);
    const placed = await placeForm(cookie, { ...form, expectedTotal: "40.97" });
    expect(placed.status).toBe(303);
    expect(await orderOf(placed.location)).toMatchObject({ shippingMethod: "express", totalCents: 4097 });
  });

  it("a stale page (a price raised, 3 more added in another tab) places nothing until its new total is confirmed", async () => {
    const { cookie, productId } = await guestCart(10, 2, 12.99);
    const stale = await page(cookie);
    expect(subtotalOf(stale) + 499).toBe(3097);
    await engine.db.update(products).set({ priceMinor: 9999 }).where(eq(products.id, productId));
    await sendForm(cartAction, context, "/cart", {
      form: { intent: "add", productId: String(productId), quantity: "3" },
      cookie,
    });
    const emails = await queuedEmails();
    const form = checkoutForm(stale.idempotencyKey, { expectedTotal: "30.97" });
    const refused = await placeForm(cookie, form);
    expect(refused.status).toBe(409);
    expect(formError(refused)).toMatch(/nothing was ordered/);
    // No stock taken, no order, no email.
    expect(await onHand(productId)).toBe(10);
    expect(
      await engine.db.select().from(orders).where(eq(orders.idempotencyKey, stale.idempotencyKey)),
    ).toEqual([]);
    expect(await queuedEmails()).toBe(emails);
    // The page shown again has the new lines and total; sent with that total (and the same key), it is placed.
    const fresh = await page(cookie);
    expect(fresh.lines).toEqual([expect.objectContaining({ productId, quantity: 5, unitPriceCents: 9999 })]);
    expect(subtotalOf(fresh)).toBe(49_995);
    const placed = await placeForm(cookie, { ...form, expectedTotal: "499.95" });
    expect(placed.status).toBe(303);
    expect(await orderOf(placed.location)).toMatchObject({ totalCents: 49_995 });
    expect(await onHand(productId)).toBe(5);
    expect(await queuedEmails()).toBe(emails + 1);
  });

  it("Update total (without JavaScript) shows the form again as typed, with the chosen method, and places nothing", async () => {
    const { cookie, productId } = await guestCart(10, 1);
    const { idempotencyKey } = await page(cookie);
    const updated = await placeForm(cookie, {
      ...checkoutForm(idempotencyKey, { shippingMethod: "express", email: "", expectedTotal: "17.49" }),
      __intent__: JSON.stringify({ type: "validate", payload: { name: "shippingMethod" } }),
    });
    expect(updated.status).toBe(200);
    expect((updated.body as FormAnswer).result.initialValue).toMatchObject({
      shippingMethod: "express",
      shippingAddress: { city: SHOPPER_ADDRESS.city },
    });
    expect(await onHand(productId)).toBe(10);
    expect(await engine.db.select().from(orders).where(eq(orders.idempotencyKey, idempotencyKey))).toEqual(
      [],
    );
  });
});

describe("/checkout: the region of a country that needs one", () => {
  const portland = {
    "shippingAddress.city": "Portland",
    "shippingAddress.postalCode": "97204",
    "shippingAddress.country": "US",
  };

  it("offers each such country's regions by ISO 3166-2 code", async () => {
    const { regions } = await page();
    expect(regions.US?.label).toBe("State");
    expect(regions.US?.choices).toContainEqual({ code: "US-OR", name: "Oregon" });
    expect(regions.CA?.choices).toContainEqual({ code: "CA-ON", name: "Ontario" });
    expect(regions.AU?.choices).toContainEqual({ code: "AU-NSW", name: "New South Wales" });
    expect(regions.GB).toBeUndefined();
  });

  it("a US address without its state, or with another country's, is refused naming the State field", async () => {
    const { cookie, productId } = await guestCart(10, 1);
    const { idempotencyKey } = await page(cookie);
    const missing = await placeForm(cookie, checkoutForm(idempotencyKey, portland));
    expect(missing.status).toBe(400);
    expect(fieldErrors(missing)["shippingAddress.region"]).toEqual(["Choose a state from the list."]);
    const foreign = await placeForm(
      cookie,
      checkoutForm(idempotencyKey, { ...portland, "shippingAddress.region": "CA-ON" }),
    );
    expect(fieldErrors(foreign)["shippingAddress.region"]).toEqual(["Choose a state from the list."]);
    expect(await onHand(productId)).toBe(10);
    const placed = await placeForm(
      cookie,
      checkoutForm(idempotencyKey, { ...portland, "shippingAddress.region": "US-OR" }),
    );
    expect(placed.status).toBe(303);
    expect((await orderOf(placed.location))?.shippingAddress).toMatchObject({
      country: "US",
      region: "US-OR",
    });
  });

  it("a region left from another country is not kept where the country asks for none", async () => {
    const { cookie } = await guestCart(10, 1);
    const { idempotencyKey } = await page(cookie);
    const placed = await placeForm(
      cookie,
      checkoutForm(idempotencyKey, { "shippingAddress.region": "US-OR" }),
    );
    expect(placed.status).toBe(303);
    expect((await orderOf(placed.location))?.shippingAddress).not.toHaveProperty("region");
  });
});
