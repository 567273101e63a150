import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { orders, stockLevels } from "~/db/schema";
import { sendForm } from "../../tests/support/form-post";
import { productInStock, shopContext } from "../../tests/support/shop-context";
import { SHOPPER_ADDRESS } from "../../tests/support/shopper";
import { openPgliteTestDatabase } from "../../tests/support/test-database";
import { action as cartAction } from "./cart";
import { action, loader } from "./checkout";

const engine = await openPgliteTestDatabase();
afterAll(() => engine.close());
const { context, signedUp } = shopContext(engine);

/** A guest's cart with `quantity` of a product that has `onHand` units: its cookie and the product. */
async function guestCart(onHand: number, quantity: number) {
  const productId = await productInStock(engine, onHand, 12.5);
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
  };

function filled(key: string, changes: Record<string, string> = {}) {
  return {
    idempotencyKey: key,
    email: "ada@example.com",
    "shippingAddress.name": SHOPPER_ADDRESS.name,
    "shippingAddress.line1": SHOPPER_ADDRESS.line1,
    "shippingAddress.city": SHOPPER_ADDRESS.city,
    "shippingAddress.postalCode": SHOPPER_ADDRESS.postalCode,
    "shippingAddress.country": SHOPPER_ADDRESS.country,
    shippingMethod: "standard",
    paymentMethod: "cash-on-delivery",
    ...changes,
  };
}

const placeForm = (cookie: string, form: Record<string, string>) =>
  sendForm(action, context, "/checkout", { form, cookie });

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
    const placed = await placeForm(cookie, filled(idempotencyKey));
    expect(placed.status).toBe(303);
    expect(placed.location).toMatch(/^\/orders\/BL-[0-9A-HJKMNP-TV-Z]{5}\?token=[\w-]{43}$/);
    const again = await placeForm(cookie, filled(idempotencyKey));
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
      filled(idempotencyKey, {
        email: "not-an-email",
        "shippingAddress.city": "",
        "shippingAddress.postalCode": "ABC",
        shippingMethod: "teleport",
      }),
    );
    expect(refused.status).toBe(400);
    const { result } = refused.body as { result: { error: Record<string, string[]> } };
    expect(result.error).toMatchObject({
      email: ["Enter a valid email address."],
      "shippingAddress.city": ["City is required."],
      shippingMethod: ["Choose Standard or Express shipping."],
      // Named with the others, not only once they are right.
      "shippingAddress.postalCode": [expect.stringMatching(/^Enter a postal code as it is written in /)],
    });
    const postal = await placeForm(cookie, filled(idempotencyKey, { "shippingAddress.postalCode": "ABC" }));
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
    const short = await placeForm(cookie, filled(idempotencyKey));
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
    await placeForm(cookie, filled(first.idempotencyKey));
    const again = await placeForm(cookie, filled((await page(cookie)).idempotencyKey));
    expect(again.status).toBe(409);
    expect((again.body as { result: { error: Record<string, string[]> } }).result.error[""]?.[0]).toMatch(
      /Your cart is empty/,
    );
  });
});
