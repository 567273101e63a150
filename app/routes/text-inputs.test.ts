import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { catalogImports, orders, shopSettings } from "~/db/schema";
import { sendForm } from "../../tests/support/form-post";
import { productInStock, SETTINGS_FORM, shopContext } from "../../tests/support/shop-context";
import { SHOPPER_ADDRESS } from "../../tests/support/shopper";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { loader as activityLoader } from "./admin.activity";
import { action as uploadAction } from "./admin.catalog-import";
import { loader as customersLoader } from "./admin.customers";
import { loader as ordersLoader } from "./admin.orders";
import { action as settingsAction } from "./admin.settings";
import { action as linesAction } from "./api.cart-lines";
import { action as checkoutApiAction } from "./api.checkout";
import { action as cartAction } from "./cart";
import { action as checkoutAction, loader as checkoutLoader } from "./checkout";

/**
 * Text no person types — NUL, a lone surrogate, control characters — in the
 * shop's text inputs (a penetration test's finding, issue 32): each is a 400
 * naming the field, the way any other bad value is, and nothing is written.
 * Before, PostgreSQL refused it mid-request (NUL in text 22021, in jsonb
 * 22P05; a lone surrogate 22P02) and the shopper got a 500.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("text inputs on $name");

const NOT_TEXT = ["A\u0000B", "\uD800", "Ada\u0007", "Ada\u0085"];

describe.each(engines)("text inputs on $name", (engine: TestDatabase) => {
  const { context, signedUpAs } = shopContext(engine);
  const owner = () => signedUpAs(`owner-${randomUUID()}@example.com`, "owner");

  it("POST /api/checkout, signed out: a name that is not text is a 400 naming it, and orders nothing", async () => {
    const productId = await productInStock(engine, 10);
    const added = await linesAction({
      request: new Request("http://localhost:3000/api/cart/lines", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ productId, quantity: 1 }),
      }),
      context,
      params: {},
    } as never);
    const cookie = added.headers.get("set-cookie")?.split(";")[0] ?? "";
    const ordersBefore = await engine.db.$count(orders);
    for (const name of NOT_TEXT) {
      const answer = await checkoutApiAction({
        request: new Request("http://localhost:3000/api/checkout", {
          method: "POST",
          headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID(), cookie },
          body: JSON.stringify({
            email: "ada@example.com",
            shippingAddress: { ...SHOPPER_ADDRESS, name },
            shippingMethod: "standard",
            paymentMethod: "cash-on-delivery",
          }),
        }),
        context,
        params: {},
      } as never);
      expect(answer.status, JSON.stringify(name)).toBe(400);
      expect((await answer.json()).error).toMatchObject({
        code: "invalid_field",
        field: "shippingAddress.name",
        message: expect.stringMatching(/^Full name must (not contain control characters|be valid Unicode)/),
      });
    }
    expect(await engine.db.$count(orders)).toBe(ordersBefore);
  });

  it("the checkout form: a NUL in an address field comes back next to the field, with a 400", async () => {
    const productId = await productInStock(engine, 10);
    const added = await sendForm(cartAction, context, "/cart", {
      form: { intent: "add", productId: String(productId), quantity: "1" },
    });
    const cookie = added.cookie as string;
    const { idempotencyKey } = (
      await sendForm(checkoutLoader, context, "/checkout", { method: "GET", cookie })
    ).body as { idempotencyKey: string };
    const sent = await sendForm(checkoutAction, context, "/checkout", {
      cookie,
      form: {
        idempotencyKey,
        email: "ada@example.com",
        "shippingAddress.name": "A\u0000B",
        "shippingAddress.line1": `${SHOPPER_ADDRESS.line1}\u0000`,
        "shippingAddress.city": SHOPPER_ADDRESS.city,
        "shippingAddress.postalCode": SHOPPER_ADDRESS.postalCode,
        "shippingAddress.country": SHOPPER_ADDRESS.country,
        shippingMethod: "standard",
        paymentMethod: "cash-on-delivery",
      },
    });
    expect(sent.status).toBe(400);
    const errors = (sent.body as { result: { error: Record<string, string[]> } }).result.error;
    expect(errors["shippingAddress.name"]).toEqual(["Full name must not contain control characters."]);
    expect(errors["shippingAddress.line1"]).toEqual(["Address must not contain control characters."]);
  });

  it("the back office's searches: q and search that are not text are a 400 naming the parameter", async () => {
    const cookie = await owner();
    for (const [loader, path, parameter] of [
      [ordersLoader, "/admin/orders", "q"],
      [customersLoader, "/admin/customers", "q"],
      [activityLoader, "/admin/activity", "search"],
    ] as const) {
      // (A URL is UTF-8: a lone surrogate cannot be written in one.)
      for (const value of NOT_TEXT.filter((text) => text.isWellFormed())) {
        const query = new URLSearchParams({ [parameter]: value });
        const answer = await sendForm(loader, context, `${path}?${query}`, { method: "GET", cookie });
        expect(answer.status, `${path}?${query}`).toBe(400);
        expect(JSON.stringify(answer.body), `${path}?${query}`).toContain(parameter);
      }
    }
  });

  it("the bank details: a NUL is refused next to the field; line breaks and tabs are kept", async () => {
    const cookie = await owner();
    const form = SETTINGS_FORM;
    await engine.db.delete(shopSettings);
    const refused = await sendForm(settingsAction, context, "/admin/settings", {
      cookie,
      form: { ...form, bankDetails: "Backline Ltd.\r\nIBAN:\u0000GB33" },
    });
    expect(refused.status).toBe(400);
    const errors = (refused.body as { result: { error: Record<string, string[]> } }).result.error;
    expect(errors.bankDetails).toEqual([
      "Bank details must not contain control characters (line breaks and tabs are allowed).",
    ]);
    expect(await engine.db.$count(shopSettings)).toBe(0);

    const saved = await sendForm(settingsAction, context, "/admin/settings", {
      cookie,
      form: { ...form, bankDetails: "Backline Ltd.\r\nIBAN:\tGB33 BUKB" },
    });
    expect(saved.status).toBe(200);
  });

  it("the stock lines: a count that is not text is refused next to its field, naming it", async () => {
    const cookie = await owner();
    const form = SETTINGS_FORM;
    await engine.db.delete(shopSettings);
    for (const [field, label] of [
      ["lowStockAt", "Low stock"],
      ["fewLeftAt", "Few left"],
    ] as const) {
      const refused = await sendForm(settingsAction, context, "/admin/settings", {
        cookie,
        form: { ...form, [field]: "5\u0000" },
      });
      expect(refused.status, field).toBe(400);
      const errors = (refused.body as { result: { error: Record<string, string[]> } }).result.error;
      expect(Object.keys(errors), field).toEqual([field]);
      expect(errors[field]?.[0], field).toBe(`${label} must not contain control characters.`);
    }
    expect(await engine.db.$count(shopSettings)).toBe(0);
  });

  it("an uploaded catalogue file with NUL, a lone surrogate or a bad name is checked, never a failure", async () => {
    const cookie = await owner();
    const header = "sku,name,price,brand,category";
    const files: [string, string, RegExp][] = [
      ["nul-cell.csv", `${header}\nA-1,Lamp\u0000,10,b,c`, /NUL/],
      ["nul-header.csv", `${header},col\u0000our\nA-1,Lamp,10,b,c,red`, /NUL/],
      ["nul-sku.csv", `${header}\nA\u0000,Lamp,10,b,c\nA\u0000,Lamp,10,b,c`, /NUL/],
      ["utf16.csv", "\u0000s\u0000k\u0000u\u0000", /NUL/],
      [
        "escapes.json",
        JSON.stringify([
          { sku: "A-1\u0000", name: "Lamp", price: 10, brand: "b", category: "c" },
          { sku: "A-1\u0000", name: "Lamp", price: 10, brand: "b", category: "c" },
          { sku: "B-1", name: "\uD800", price: 10, brand: "b", category: "c", "col\u0000our": "red" },
        ]),
        /control characters/,
      ],
      [
        "escapes.ndjson",
        '{"sku":"C-1","name":"Lamp \\ud800","price":10,"brand":"b","category":"c"}\n',
        /valid Unicode/,
      ],
    ];
    for (const [name, text, problem] of files) {
      const form = new FormData();
      form.set("file", new File([text], name, { type: "text/plain" }));
      const request = new Request("http://localhost:3000/admin/products/import", {
        method: "POST",
        headers: { cookie },
        body: form,
      });
      let answer: unknown;
      try {
        answer = await uploadAction({ request, context, params: {} } as never);
      } catch (thrown) {
        answer = thrown;
      }
      expect(answer, name).toBeInstanceOf(Response);
      const location = (answer as Response).headers.get("Location") ?? "";
      expect((answer as Response).status, name).toBe(303);
      const id = location.split("/").at(-1) as string;
      const [row] = await engine.db
        .select({ plan: catalogImports.plan })
        .from(catalogImports)
        .where(eq(catalogImports.id, id));
      expect(JSON.stringify(row?.plan), name).toMatch(problem);
    }

    // A file whose very name is not text is refused next to the file field, and nothing is kept.
    const before = await engine.db.$count(catalogImports);
    const form = new FormData();
    form.set("file", new File(["sku,name\n"], "cata\u0000logue.csv", { type: "text/csv" }));
    const sent = await uploadAction({
      request: new Request("http://localhost:3000/admin/products/import", {
        method: "POST",
        headers: { cookie },
        body: form,
      }),
      context,
      params: {},
    } as never);
    expect((sent as { init: ResponseInit }).init.status).toBe(400);
    expect(JSON.stringify((sent as { data: unknown }).data)).toContain("control characters");
    expect(await engine.db.$count(catalogImports)).toBe(before);
  });
});
