import { randomUUID } from "node:crypto";
import type { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { orderDetailsAnswerSchema } from "~/features/orders/order-schema";
import type { MailMessage } from "~/utils/mail.server";
import { productInStock, shopContext } from "../../tests/support/shop-context";
import { SHOPPER_ADDRESS } from "../../tests/support/shopper";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { action as linesAction } from "./api.cart-lines";
import { action as checkoutAction } from "./api.checkout";
import { loader as orderApiLoader } from "./api.order";
import { loader as orderPageLoader } from "./order";

/**
 * What a shopper sees after placing an order, through the routes as the
 * router calls them: the confirmation email (once per order), the order's
 * page and its JSON for the owner and the holder of the email's link, and the
 * same 404 for everyone and everything else.
 */
const engines = await openTestDatabases();

const ORIGIN = "http://localhost:3000";

// biome-ignore lint/suspicious/noExplicitAny: any of the routes' loaders and actions
type Handler = (args: any) => unknown;

interface Outcome {
  status: number;
  headers: Headers;
  body: unknown;
}

/** What the browser gets: a Response, data() with its status (thrown or returned), or plain data. */
async function call(
  handler: Handler,
  context: RouterContextProvider,
  path: string,
  init: {
    method?: string;
    cookie?: string;
    body?: unknown;
    key?: string;
    params?: Record<string, string>;
  } = {},
): Promise<Outcome> {
  const headers = new Headers({ "Content-Type": "application/json" });
  if (init.cookie) headers.set("cookie", init.cookie);
  if (init.key) headers.set("Idempotency-Key", init.key);
  const method = init.method ?? "GET";
  const request = new Request(`${ORIGIN}${path}`, {
    method,
    headers,
    body: method === "GET" ? undefined : JSON.stringify(init.body ?? {}),
  });
  const settle = async (value: unknown): Promise<Outcome> => {
    if (value instanceof Response) {
      const text = await value.text();
      return { status: value.status, headers: value.headers, body: text ? JSON.parse(text) : null };
    }
    const wrapped = value as { type?: string; data: unknown; init: ResponseInit | null };
    if (wrapped?.type === "DataWithResponseInit") {
      return {
        status: wrapped.init?.status ?? 200,
        headers: new Headers(wrapped.init?.headers),
        body: wrapped.data,
      };
    }
    return { status: 200, headers: new Headers(), body: value };
  };
  try {
    return await settle(await handler({ request, context, params: init.params ?? {} }));
  } catch (thrown) {
    const outcome = await settle(thrown);
    if (outcome.status === 200) throw thrown;
    return outcome;
  }
}

const checkout = (paymentMethod: string) => ({
  email: "ada@example.com",
  shippingAddress: SHOPPER_ADDRESS,
  shippingMethod: "standard",
  paymentMethod,
});

describe.each(engines)("after placing an order, on $name", (engine: TestDatabase) => {
  const { context, signedUp, mail } = shopContext(engine);

  /** A cart (the guest's, or the signed-in shopper's) with 2 of a $12.50 product, placed; the answer. */
  async function placed(options: { cookie?: string; paymentMethod?: string; key?: string } = {}) {
    const productId = await productInStock(engine, 10, 12.5);
    const added = await call(linesAction, context, "/api/cart/lines", {
      method: "POST",
      cookie: options.cookie,
      body: { productId, quantity: 2 },
    });
    const cookie = options.cookie ?? (added.headers.get("set-cookie")?.split(";")[0] as string);
    const key = options.key ?? randomUUID();
    const answer = await call(checkoutAction, context, "/api/checkout", {
      method: "POST",
      cookie,
      key,
      body: checkout(options.paymentMethod ?? "bank-transfer"),
    });
    const number = (answer.body as { order: { number: string } }).order?.number;
    return { answer, number, cookie, key, productId };
  }

  /** The confirmation emails sent so far for an order. */
  const confirmationsOf = async (number: string): Promise<MailMessage[]> =>
    (await mail.delivered()).filter(
      (message) => message.kind === "order-confirmation" && message.subject.includes(number),
    );

  /** The order's link, as its email gives it: the path and query on the shop's origin. */
  function linkIn(message: MailMessage): string {
    const url = message.text.match(/See your order: (\S+)/)?.[1];
    if (!url) throw new Error("no link in the email");
    expect(url.startsWith(`${ORIGIN}/orders/`)).toBe(true);
    const { pathname, search } = new URL(url);
    return pathname + search;
  }

  const page = (path: string, cookie?: string) =>
    call(orderPageLoader, context, path, {
      cookie,
      params: { number: new URL(path, ORIGIN).pathname.split("/")[2] ?? "" },
    });
  const api = (path: string, cookie?: string) =>
    call(orderApiLoader, context, path, {
      cookie,
      params: { number: new URL(path, ORIGIN).pathname.split("/")[3] ?? "" },
    });

  it("emails one confirmation with the lines, totals, address, bank details and a link that opens the order", async () => {
    const { answer, number } = await placed();
    expect(answer.status).toBe(201);
    const [email, ...more] = await confirmationsOf(number);
    expect(more).toEqual([]);
    expect(email?.to).toBe("ada@example.com");
    const text = email?.text ?? "";
    expect(text).toContain("Teapot");
    expect(text).toContain("at $12.50: $25.00");
    expect(text).toContain("Subtotal: $25.00");
    expect(text).toContain("Standard shipping: $4.99");
    expect(text).toContain("Total: $29.99");
    expect(text).toContain("1 High Street");
    expect(text).toContain("IBAN: GB33 BUKB 2020 1555 5555 55");
    expect(text).toContain(`with your order number ${number} as the reference`);

    const link = linkIn(email as MailMessage);
    const shown = await page(link);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      number,
      status: "Received: waiting for your transfer",
      lines: [{ quantity: 2, unitPriceCents: 1250, lineTotalCents: 2500 }],
      subtotalCents: 2500,
      shippingCents: 499,
      totalCents: 2999,
      address: ["Ada Shopper", "1 High Street", "Leeds LS1 1AA", "United Kingdom"],
      shippingMethod: "Standard shipping",
      payment: {
        label: "Bank transfer",
        details: ["Backline Test Ltd.", "IBAN: GB33 BUKB 2020 1555 5555 55"],
      },
    });
    const json = await api(`/api${link}`);
    expect(json.status).toBe(200);
    expect(json.headers.get("Cache-Control")).toBe("no-store");
    const parsed = orderDetailsAnswerSchema.parse(json.body);
    expect(parsed.order).toMatchObject({
      number,
      status: "placed",
      total: 29.99,
      paymentMethod: "bank-transfer",
      shippingAddress: SHOPPER_ADDRESS,
    });
  });

  it("queues no second email when the same key comes again, and none for a short checkout", async () => {
    const first = await placed();
    const again = await call(checkoutAction, context, "/api/checkout", {
      method: "POST",
      cookie: first.cookie,
      key: first.key,
      body: checkout("bank-transfer"),
    });
    expect(again.status).toBe(200);
    expect(await confirmationsOf(first.number)).toHaveLength(1);

    const before = (await mail.delivered()).length;
    const productId = await productInStock(engine, 1);
    const added = await call(linesAction, context, "/api/cart/lines", {
      method: "POST",
      body: { productId, quantity: 1 },
    });
    const cookie = added.headers.get("set-cookie")?.split(";")[0] as string;
    await engine.db.execute(`update stock_levels set on_hand = 0 where product_id = ${productId}`);
    const short = await call(checkoutAction, context, "/api/checkout", {
      method: "POST",
      cookie,
      key: randomUUID(),
      body: checkout("cash-on-delivery"),
    });
    expect(short.status).toBe(409);
    expect((await mail.delivered()).length).toBe(before);
  });

  it("shows a pay-on-delivery order with the courier's instructions and no bank details", async () => {
    const { number } = await placed({ paymentMethod: "cash-on-delivery" });
    const [email] = await confirmationsOf(number);
    expect(email?.text).toContain("Pay the courier $29.99 when your order arrives.");
    const shown = await page(linkIn(email as MailMessage));
    expect(shown.body).toMatchObject({
      payment: {
        label: "Pay on delivery",
        paragraphs: ["Pay the courier $29.99 when your order arrives."],
        details: [],
      },
    });
  });

  it("shows the owner their order without a token; another shopper, a wrong token and a missing number get the same 404", async () => {
    const owner = await signedUp(`owner-${randomUUID()}@example.com`);
    const stranger = await signedUp(`stranger-${randomUUID()}@example.com`);
    const { number } = await placed({ cookie: owner });
    const [email] = await confirmationsOf(number);
    const link = linkIn(email as MailMessage);
    const token = new URL(link, ORIGIN).searchParams.get("token") as string;
    const otherToken = new URL(
      linkIn((await confirmationsOf((await placed()).number))[0] as MailMessage),
      ORIGIN,
    ).searchParams.get("token") as string;

    expect((await page(`/orders/${number}`, owner)).status).toBe(200);
    expect((await api(`/api/orders/${number}`, owner)).status).toBe(200);
    expect((await page(link, stranger)).status).toBe(200);

    const refusals = [
      [`/orders/${number}`, stranger],
      [`/orders/${number}`, undefined],
      [`/orders/${number}?token=${token.slice(0, -2)}xx`, undefined],
      [`/orders/${number}?token=${otherToken}`, stranger],
      [`/orders/BL-00000?token=${token}`, owner],
      [`/orders/not-a-number?token=${token}`, owner],
    ] as const;
    const pages = await Promise.all(refusals.map(([path, cookie]) => page(path, cookie)));
    for (const refused of pages) {
      expect(refused.status).toBe(404);
      expect(refused.body).toBeNull();
      expect(refused.headers.get("Referrer-Policy")).toBe("same-origin");
    }
    const answers = await Promise.all(refusals.map(([path, cookie]) => api(`/api${path}`, cookie)));
    for (const refused of answers) {
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual(answers[0]?.body);
    }
    expect(answers[0]?.body).toMatchObject({ error: { code: "not_found" } });
  });
});
reportPostgresSkipped("after placing an order, on $name");
