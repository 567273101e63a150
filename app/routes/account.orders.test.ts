import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { orders } from "~/db/schema";
import { productInStock, shopContext } from "../../tests/support/shop-context";
import { orderRow, SHOPPER_ADDRESS } from "../../tests/support/shopper";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { loader as accountLoader } from "./account";
import { loader as ordersLoader } from "./account.orders";
import { action as linesAction } from "./api.cart-lines";
import { action as checkoutAction } from "./api.checkout";

/**
 * /account/orders, called as the router calls it: a signed-in shopper's own
 * orders, newest first, 20 a page; a visitor is sent to log in and back.
 */
const engines = await openTestDatabases();

// biome-ignore lint/suspicious/noExplicitAny: a route's loader or action
type Handler = (args: any) => unknown;

interface HistoryPage {
  page: number;
  totalPages: number;
  orders: { number: string; status: string; placedAt: string; itemCount: number; totalCents: number }[];
}

describe.each(engines)("a shopper's orders, /account/orders, on $name", (engine: TestDatabase) => {
  const { auth, context, signedUp } = shopContext(engine);

  const requestOf = (
    path: string,
    init: { cookie?: string; method?: string; key?: string; body?: unknown },
  ) => {
    const headers = new Headers({ "Content-Type": "application/json" });
    if (init.cookie) headers.set("cookie", init.cookie);
    if (init.key) headers.set("Idempotency-Key", init.key);
    return new Request(`http://localhost:3000${path}`, {
      method: init.method ?? "GET",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  };

  /** The loader's data, or the status and Location of what it threw. */
  async function load(handler: Handler, path: string, cookie?: string) {
    try {
      return {
        status: 200,
        data: (await handler({ request: requestOf(path, { cookie }), context, params: {} })) as HistoryPage,
      };
    } catch (thrown) {
      if (thrown instanceof Response)
        return { status: thrown.status, location: thrown.headers.get("Location") };
      const wrapped = thrown as { type?: string; init: ResponseInit | null };
      if (wrapped.type === "DataWithResponseInit") return { status: wrapped.init?.status ?? 500 };
      throw thrown;
    }
  }

  /** The shopper's account cart with `quantity` of a new product, checked out; the order's number. */
  async function ordered(cookie: string, quantity: number): Promise<string> {
    const productId = await productInStock(engine, 10, 12.5);
    await linesAction({
      request: requestOf("/api/cart/lines", { cookie, method: "POST", body: { productId, quantity } }),
      context,
      params: {},
    } as never);
    const placed = (await checkoutAction({
      request: requestOf("/api/checkout", {
        cookie,
        method: "POST",
        key: randomUUID(),
        body: {
          email: "shopper@example.com",
          shippingAddress: SHOPPER_ADDRESS,
          shippingMethod: "express",
          paymentMethod: "cash-on-delivery",
        },
      }),
      context,
      params: {},
    } as never)) as Response;
    expect(placed.status).toBe(201);
    return ((await placed.json()) as { order: { number: string } }).order.number;
  }

  it("sends a visitor to log in and back to their orders", async () => {
    const back = "/login?redirectTo=%2Faccount%2Forders%3Fpage%3D2";
    expect(await load(ordersLoader, "/account/orders?page=2")).toEqual({ status: 302, location: back });
    // The account's layout, which loads first, sends them to the same place.
    expect(await load(accountLoader, "/account/orders?page=2")).toEqual({ status: 302, location: back });
  });

  it("lists only the shopper's own orders, newest first, with their date, status, items and total", async () => {
    const ada = await signedUp(`ada-${randomUUID()}@example.com`);
    const bob = await signedUp(`bob-${randomUUID()}@example.com`);
    const first = await ordered(ada, 1);
    const second = await ordered(ada, 3);
    await ordered(bob, 2);

    const listed = await load(ordersLoader, "/account/orders", ada);
    expect(listed.status).toBe(200);
    expect(listed.data).toMatchObject({
      page: 1,
      totalPages: 1,
      orders: [
        {
          number: second,
          status: "Received: we are preparing it",
          itemCount: 3,
          totalCents: 3 * 1250 + 1499,
        },
        { number: first, itemCount: 1, totalCents: 1250 + 1499 },
      ],
    });
    expect(listed.data?.orders).toHaveLength(2);
    expect(Number.isNaN(Date.parse(listed.data?.orders[0]?.placedAt ?? ""))).toBe(false);
  });

  it("has none for a shopper who has not ordered yet", async () => {
    const newcomer = await signedUp(`new-${randomUUID()}@example.com`);
    expect((await load(ordersLoader, "/account/orders", newcomer)).data).toEqual({
      page: 1,
      totalPages: 0,
      orders: [],
    });
  });

  it("pages 20 at a time; a page past the last or not a number is a 404", async () => {
    const email = `many-${randomUUID()}@example.com`;
    const cookie = await signedUp(email);
    const { user } = await auth
      .for({ request: requestOf("/", { cookie }), address: "203.0.113.9" })
      .sessions.current();
    const userId = user?.id as string;
    const start = Date.parse("2026-01-01T00:00:00Z");
    await engine.db.insert(orders).values(
      Array.from({ length: 21 }, (_, day) =>
        orderRow({
          number: `BL-P${String(day).padStart(4, "0")}`,
          idempotencyScope: `user:${userId}`,
          userId,
          email,
          createdAt: new Date(start + day * 86_400_000),
        }),
      ),
    );
    const first = await load(ordersLoader, "/account/orders", cookie);
    expect(first.data?.totalPages).toBe(2);
    expect(first.data?.orders).toHaveLength(20);
    expect(first.data?.orders[0]?.placedAt).toBe("2026-01-21T00:00:00.000Z");
    const second = await load(ordersLoader, "/account/orders?page=2", cookie);
    expect(second.data?.orders.map((order) => order.placedAt)).toEqual(["2026-01-01T00:00:00.000Z"]);
    expect((await load(ordersLoader, "/account/orders?page=3", cookie)).status).toBe(404);
    expect((await load(ordersLoader, "/account/orders?page=two", cookie)).status).toBe(404);
  });
});
reportPostgresSkipped("a shopper's orders, /account/orders, on $name");
