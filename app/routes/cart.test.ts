import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { stockLevels } from "~/db/schema";
import { sendForm } from "../../tests/support/form-post";
import { onlyVariantOf, productInStock, shopContext } from "../../tests/support/shop-context";
import { openPgliteTestDatabase } from "../../tests/support/test-database";
import { action, loader } from "./cart";

const engine = await openPgliteTestDatabase();
afterAll(() => engine.close());
const { context } = shopContext(engine);

const add = (productId: number, quantity: number, extra: Record<string, string> = {}, cookie?: string) =>
  sendForm(action, context, "/cart", {
    form: { intent: "add", productId: String(productId), quantity: String(quantity), ...extra },
    cookie,
  });

const cartPage = async (cookie: string, path = "/cart") => {
  const page = await sendForm(loader, context, path, { method: "GET", cookie });
  return page.body as {
    lines: { productId: number; quantity: number }[];
    itemCount: number;
    added: string | null;
  };
};

describe("/cart without JavaScript", () => {
  it("Add to cart goes to the cart, which names what was added", async () => {
    const productId = await productInStock(engine, 10, 12.5);
    const variantId = await onlyVariantOf(engine.db, productId);
    const added = await add(productId, 2);
    // The line added is named by its variant: a product may come in several.
    expect(added).toMatchObject({ status: 303, location: `/cart?added=${variantId}` });
    expect(added.cookie).toMatch(/^backline_cart=/);
    const page = await cartPage(added.cookie as string, `/cart?added=${variantId}`);
    expect(page.lines).toEqual([expect.objectContaining({ productId, quantity: 2 })]);
    expect(page.itemCount).toBe(2);
    expect(page.added).toMatch(/ is in your cart\.$/);
  });

  it("an add the stock capped says so on the cart it leads to", async () => {
    const productId = await productInStock(engine, 3);
    const added = await add(productId, 5);
    const page = await cartPage(added.cookie as string, added.location as string);
    expect(page.added).toMatch(/ is in your cart\. Only 3 left: your cart has 3\.$/);
  });

  it("a quantity is set and a line removed, each answered by the cart again", async () => {
    const productId = await productInStock(engine, 10);
    const variantId = String(await onlyVariantOf(engine.db, productId));
    const { cookie } = await add(productId, 1);
    const set = await sendForm(action, context, "/cart", {
      form: { intent: "set", productId: String(productId), variantId, quantity: "7" },
      cookie,
    });
    expect(set).toMatchObject({ status: 303, location: "/cart" });
    expect((await cartPage(cookie as string)).lines).toEqual([expect.objectContaining({ quantity: 7 })]);
    const removed = await sendForm(action, context, "/cart", {
      form: { intent: "remove", productId: String(productId), variantId },
      cookie,
    });
    expect(removed.status).toBe(303);
    expect((await cartPage(cookie as string)).lines).toEqual([]);
  });

  it("a bad quantity comes back with its message and changes nothing", async () => {
    const productId = await productInStock(engine, 10);
    const { cookie } = await add(productId, 3);
    for (const quantity of ["abc", "0", "100", "2.5"]) {
      const refused = await sendForm(action, context, "/cart", {
        form: { intent: "add", productId: String(productId), quantity },
        cookie,
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        ok: false,
        productId,
        error: expect.stringMatching(/^Quantity must/),
      });
    }
    expect((await cartPage(cookie as string)).lines).toEqual([expect.objectContaining({ quantity: 3 })]);
  });

  it("a product id past the database's integers, or no intent, is a 400 naming the field, never a 5xx", async () => {
    const tooLarge = await add(2_147_483_648, 1);
    expect(tooLarge).toMatchObject({
      status: 400,
      body: { ok: false, error: "productId must be a product's id." },
    });
    const noIntent = await sendForm(action, context, "/cart", { form: { intent: "buy", productId: "1" } });
    expect(noIntent).toMatchObject({
      status: 400,
      body: { ok: false, error: "intent must be add, set or remove." },
    });
  });

  it("a sold-out product is refused with a reason; a body that is no form is a 415", async () => {
    const soldOut = await productInStock(engine, 0);
    const refused = await add(soldOut, 1);
    expect(refused).toMatchObject({
      status: 409,
      body: { ok: false, error: "Sold out: it cannot be added." },
    });
    const unknown = await add(987_654_321, 1);
    expect(unknown).toMatchObject({ status: 404, body: { ok: false } });
    const request = new Request("http://localhost:3000/cart", { method: "POST", body: "{}" });
    await expect(action({ request, context, params: {} } as never)).rejects.toMatchObject({
      init: { status: 415 },
    });
  });
});

describe("/cart with JavaScript (stay=1)", () => {
  it("answers the outcome instead of a redirect, and says when the stock capped it", async () => {
    const productId = await productInStock(engine, 3);
    const variantId = await onlyVariantOf(engine.db, productId);
    const first = await add(productId, 2, { stay: "1" });
    expect(first).toMatchObject({ status: 200, body: { ok: true, productId, variantId } });
    const capped = await add(productId, 5, { stay: "1" }, first.cookie);
    expect(capped.body).toEqual({ ok: true, productId, variantId, notice: "Only 3 left: your cart has 3." });
    const set = await sendForm(action, context, "/cart", {
      form: {
        intent: "set",
        productId: String(productId),
        variantId: String(variantId),
        quantity: "9",
        stay: "1",
      },
      cookie: first.cookie,
    });
    expect(set.body).toEqual({ ok: true, productId, variantId, notice: "Only 3 left: your cart has 3." });
  });

  it("a line removed in another tab is not called sold out when this one changes it", async () => {
    const productId = await productInStock(engine, 10);
    const variantId = await onlyVariantOf(engine.db, productId);
    const { cookie } = await add(productId, 1, { stay: "1" });
    const change = (intent: string, quantity?: string) =>
      sendForm(action, context, "/cart", {
        form: {
          intent,
          productId: String(productId),
          variantId: String(variantId),
          stay: "1",
          ...(quantity ? { quantity } : {}),
        },
        cookie,
      });
    expect((await change("remove")).body).toEqual({ ok: true, productId, variantId });
    expect((await change("set", "2")).body).toEqual({ ok: true, productId, variantId });
  });

  it("a line sold out since it was added is removed, and the shopper told why", async () => {
    const productId = await productInStock(engine, 2);
    const variantId = await onlyVariantOf(engine.db, productId);
    const { cookie } = await add(productId, 1, { stay: "1" });
    await engine.db.update(stockLevels).set({ onHand: 0 }).where(eq(stockLevels.productId, productId));
    const set = await sendForm(action, context, "/cart", {
      form: {
        intent: "set",
        productId: String(productId),
        variantId: String(variantId),
        quantity: "2",
        stay: "1",
      },
      cookie,
    });
    expect(set.body).toEqual({
      ok: true,
      productId,
      variantId,
      notice: "Sold out since you added it: removed from your cart.",
    });
  });
});

describe("the cart's rate limit", () => {
  it("refuses changes past the client's share with 429 and when to come back, before any work", async () => {
    const limited = shopContext(engine, { shoppingLimits: { cartChanges: 2, checkouts: 1, duration: 60 } });
    const productId = await productInStock(engine, 10);
    const send = () =>
      sendForm(action, limited.context, "/cart", {
        form: { intent: "add", productId: String(productId), quantity: "1", stay: "1" },
      });
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Too many changes to your cart/),
    });
  });
});
