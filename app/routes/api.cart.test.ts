import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { productVariants } from "~/db/schema";
import { productWithVariants } from "../../tests/support/product-variants";
import { onlyVariantOf, productInStock, shopContext } from "../../tests/support/shop-context";
import { openPgliteTestDatabase } from "../../tests/support/test-database";
import { loader as cartLoader } from "./api.cart";
import { action as lineAction } from "./api.cart-line";
import { action as linesAction } from "./api.cart-lines";
import { action as loginAction } from "./login";
import { action as logoutAction } from "./logout";

const engine = await openPgliteTestDatabase();
afterAll(() => engine.close());
const { context, signedUp } = shopContext(engine);
const product = (onHand: number, price?: number) => productInStock(engine, onHand, price);

interface Answer {
  status: number;
  body: Record<string, unknown>;
  setCookie: string | null;
}

async function call(
  handler: (args: never) => Promise<Response> | Response,
  method: string,
  path: string,
  options: { cookie?: string; body?: unknown; raw?: string; params?: Record<string, string> } = {},
): Promise<Answer> {
  const request = new Request(`http://localhost:3000${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...(options.cookie ? { cookie: options.cookie } : {}) },
    body: method === "GET" ? undefined : (options.raw ?? JSON.stringify(options.body ?? {})),
  });
  const response = await handler({ request, context, params: options.params ?? {} } as never);
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    setCookie: response.headers.get("set-cookie"),
  };
}

const cookieOf = (answer: Answer) => answer.setCookie?.split(";")[0] ?? "";
const add = (body: unknown, cookie?: string) =>
  call(linesAction, "POST", "/api/cart/lines", { body, cookie });
const read = (cookie?: string) => call(cartLoader, "GET", "/api/cart", { cookie });

describe("the cart's JSON API", () => {
  it("a guest without a cart has an empty one, and is given no cookie for reading it", async () => {
    const answer = await read();
    expect(answer).toMatchObject({
      status: 200,
      body: { lines: [], itemCount: 0, subtotal: 0 },
      setCookie: null,
    });
  });

  it("a guest's first add sets an httpOnly cart cookie; the cart answers in dollars", async () => {
    const teapot = await product(10, 12.5);
    const added = await add({ productId: teapot, quantity: 2 });
    expect(added.status).toBe(200);
    expect(added.setCookie).toMatch(
      /^backline_cart=[\w-]{43}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/,
    );
    const variantId = await onlyVariantOf(engine.db, teapot);
    expect(added.body).toMatchObject({
      lines: [
        {
          id: variantId,
          productId: teapot,
          variantId,
          sku: expect.any(String),
          options: {},
          unitPrice: 12.5,
          quantity: 2,
          lineTotal: 25,
          stock: 10,
        },
      ],
      itemCount: 2,
      subtotal: 25,
    });
    expect((await read(cookieOf(added))).body).toEqual(added.body);
    // Another guest's cart is another cart.
    expect((await read()).body).toMatchObject({ lines: [] });
  });

  it("adds only what is on hand and says so; 409 sold out, 404 unknown", async () => {
    const scarce = await product(3);
    const added = await add({ productId: scarce, quantity: 5 });
    expect(added.body).toMatchObject({ itemCount: 3, notice: "Only 3 left: your cart has 3." });
    const soldOut = await add({ productId: await product(0), quantity: 1 }, cookieOf(added));
    expect(soldOut).toMatchObject({ status: 409, body: { error: { code: "sold_out", field: "productId" } } });
    const unknown = await add({ productId: 99_999_999 }, cookieOf(added));
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: "unknown_product" } } });
  });

  it("asks for the variant of a product with several: 400 naming variantId, 409 for an archived one", async () => {
    const shirt = await productWithVariants(engine, {
      options: [
        { name: "Size", values: ["S", "M"] },
        { name: "Colour", values: ["Red"] },
      ],
      variants: [
        { values: ["S", "Red"], priceMinor: 1200, onHand: 4 },
        { values: ["M", "Red"], priceMinor: 1500, onHand: 4 },
      ],
    });
    const [small, medium] = shirt.variantIds as [number, number];
    const productId = shirt.productId;
    expect(await add({ productId, quantity: 1 })).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_field", field: "variantId" } },
    });
    const teapot = await product(5);
    expect(
      await add({ productId, variantId: await onlyVariantOf(engine.db, teapot), quantity: 1 }),
    ).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_field", field: "variantId" } },
    });
    expect(await add({ productId, variantId: "M", quantity: 1 })).toMatchObject({
      status: 400,
      body: { error: { field: "variantId" } },
    });
    await engine.db
      .update(productVariants)
      .set({ archivedAt: new Date() })
      .where(eq(productVariants.id, small));
    expect(await add({ productId, variantId: small, quantity: 1 })).toMatchObject({
      status: 409,
      body: { error: { code: "sold_out", field: "variantId" } },
    });
    const added = await add({ productId, variantId: medium, quantity: 2 });
    expect(added).toMatchObject({
      status: 200,
      body: {
        lines: [
          {
            id: medium,
            productId,
            variantId: medium,
            sku: `${shirt.sku}-2`,
            options: { Size: "M", Colour: "Red" },
            unitPrice: 15,
            quantity: 2,
          },
        ],
      },
    });
  });

  it.each([
    [{ productId: 1, quantity: 0 }, "quantity"],
    [{ productId: 1, quantity: 100 }, "quantity"],
    [{ productId: 1, quantity: 1.5 }, "quantity"],
    [{ productId: "1" }, "productId"],
    [{ quantity: 1 }, "productId"],
  ])("refuses %j with a 400 naming %s", async (body, field) => {
    const answer = await add(body);
    expect(answer).toMatchObject({ status: 400, body: { error: { code: "invalid_field", field } } });
  });

  it("names every bad field at once, the first in error.field", async () => {
    const answer = await add({ productId: "teapot", quantity: 0 });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        error: {
          code: "invalid_field",
          field: "productId",
          fields: [
            { field: "productId", message: expect.any(String) },
            { field: "quantity", message: expect.any(String) },
          ],
        },
      },
    });
  });

  it("refuses a body that is not a JSON object", async () => {
    for (const raw of ["not json", "[]", "null"]) {
      const answer = await call(linesAction, "POST", "/api/cart/lines", { raw });
      expect(answer).toMatchObject({ status: 400, body: { error: { code: "invalid_body" } } });
    }
  });

  it("sets a line's quantity, removes it with 0 or DELETE, and names a bad line id", async () => {
    const teapot = await product(4);
    const cup = await product(50, 3);
    const cookie = cookieOf(await add({ productId: teapot, quantity: 1 }));
    await add({ productId: cup, quantity: 1 }, cookie);
    const patch = (lineId: string, body: unknown) =>
      call(lineAction, "PATCH", `/api/cart/lines/${lineId}`, { body, cookie, params: { lineId } });
    // A line's id is its variant's.
    const [teapotLine, cupLine] = [
      await onlyVariantOf(engine.db, teapot),
      await onlyVariantOf(engine.db, cup),
    ];
    expect((await patch(String(teapotLine), { quantity: 9 })).body).toMatchObject({ itemCount: 5 });
    expect((await patch(String(teapotLine), { quantity: 0 })).body).toMatchObject({ itemCount: 1 });
    for (const bad of ["abc", "2147483648"]) {
      expect(await patch(bad, { quantity: 1 })).toMatchObject({
        status: 400,
        body: { error: { field: "lineId" } },
      });
    }
    expect(await add({ productId: 2_147_483_648, quantity: 1 })).toMatchObject({
      status: 400,
      body: { error: { field: "productId" } },
    });
    expect(await patch(String(cupLine), { quantity: -1 })).toMatchObject({
      status: 400,
      body: { error: { field: "quantity" } },
    });
    const removed = await call(lineAction, "DELETE", `/api/cart/lines/${cupLine}`, {
      cookie,
      params: { lineId: String(cupLine) },
    });
    expect(removed.body).toMatchObject({ lines: [], itemCount: 0 });
  });

  it("a signed-in shopper's cart is their account's", async () => {
    const session = await signedUp("ada-cart@example.com");
    const teapot = await product(10);
    const added = await add({ productId: teapot, quantity: 2 }, session);
    expect(added.setCookie).toBeNull();
    expect((await read(session)).body).toMatchObject({ itemCount: 2 });
    expect((await read()).body).toMatchObject({ itemCount: 0 });
  });

  it("logging in merges the guest's cart into the account's and clears the guest cookie; logging out leaves the browser none", async () => {
    await signedUp("grace-cart@example.com");
    const teapot = await product(10);
    const guestCookie = cookieOf(await add({ productId: teapot, quantity: 3 }));

    const login = new Request("http://localhost:3000/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", cookie: guestCookie },
      body: new URLSearchParams({
        email: "grace-cart@example.com",
        password: "Str0ng!Pass",
        redirectTo: "/",
      }),
    });
    const answer = (await loginAction({ request: login, context, params: {} } as never).catch(
      (thrown: unknown) => thrown,
    )) as Response;
    expect(answer.status).toBe(302);
    const cookies = answer.headers.getSetCookie();
    expect(cookies).toContainEqual(expect.stringMatching(/^backline_cart=; Path=\/; Max-Age=0; HttpOnly/));
    const session = cookies
      .filter((cookie) => !cookie.startsWith("backline_cart="))
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
    expect((await read(session)).body).toMatchObject({
      itemCount: 3,
      lines: [{ productId: teapot, quantity: 3 }],
    });
    expect((await read(guestCookie)).body).toMatchObject({ itemCount: 0 });

    const logout = new Request("http://localhost:3000/logout", {
      method: "POST",
      headers: { cookie: session },
    });
    const loggedOut = (await logoutAction({ request: logout, context, params: {} } as never)) as Response;
    expect(loggedOut.headers.getSetCookie()).toContainEqual(
      expect.stringMatching(/^backline_cart=; Path=\/; Max-Age=0/),
    );
  });
});
