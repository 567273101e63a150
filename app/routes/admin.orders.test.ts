import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, orders, stockLevels, users } from "~/db/schema";
import { callRoute, type RouteCall, type RouteHandler } from "../../tests/support/route-call";
import { placeTestOrder, productInStock, shopContext } from "../../tests/support/shop-context";
import { SHOPPER_ADDRESS } from "../../tests/support/shopper";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { loader as customerLoader } from "./admin.customer";
import { loader as customersLoader } from "./admin.customers";
import { action as orderAction, loader as orderLoader } from "./admin.order";
import { loader as ordersLoader } from "./admin.orders";

/**
 * The back office's orders and customers, called as the router calls them:
 * the list's parameters (a bad one named, with a 400), an order's page and
 * its action forms sent without JavaScript (redirect on success, 409 with
 * the reason on a refusal, 400 naming a field that does not read), the
 * audit log's entries, and the customers' pages.
 */
const engines = await openTestDatabases();

describe.each(engines)("the back office's orders and customers on $name", (engine: TestDatabase) => {
  const { context, signedUp, signedUpAs, orders: services } = shopContext(engine);
  const { db } = engine;
  const staff = signedUpAs(`staff-${randomUUID()}@example.com`, "staff");

  /** What the browser would get from the route, as the signed-in staff member unless a cookie is given. */
  const call = async (handler: RouteHandler, path: string, options: RouteCall) =>
    callRoute(handler, path, { context, ...options, cookie: options.cookie ?? (await staff) });

  async function placed(
    {
      email = "shopper@example.com",
      name = "Ada Shopper",
      userId = null as string | null,
      quantity = 2,
    } = {},
    paymentMethod: "bank-transfer" | "cash-on-delivery" = "bank-transfer",
  ) {
    const productId = await productInStock(engine, 10, 12.5);
    const number = await placeTestOrder(services.mail, productId, quantity, {
      userId,
      email,
      shippingAddress: { ...SHOPPER_ADDRESS, name },
      paymentMethod,
    });
    return { number, productId };
  }

  const pageOf = (number: string) => call(orderLoader, `/admin/orders/${number}`, { params: { number } });
  const act = (number: string, form: Record<string, string>) =>
    call(orderAction, `/admin/orders/${number}`, { params: { number }, form });

  describe("the list, /admin/orders", () => {
    it("lists orders newest first, and finds one by number, email or the name on the parcel", async () => {
      const older = await placed({ email: "grace@example.com", name: "Grace Hopper" });
      const newer = await placed({ email: "linus@example.com", name: "Linus Pauling" });
      const all = await call(ordersLoader, "/admin/orders", {});
      expect(all.status).toBe(200);
      const numbers = all.body.orders.map((order: { number: string }) => order.number);
      expect(numbers.indexOf(newer.number)).toBeLessThan(numbers.indexOf(older.number));
      expect(all.body.orders[0]).toMatchObject({
        statusLabel: "Placed",
        paymentMethod: "Bank transfer",
        totalCents: 2999,
      });

      const byNumber = await call(ordersLoader, `/admin/orders?q=${older.number.toLowerCase()}`, {});
      expect(byNumber.body.orders.map((order: { number: string }) => order.number)).toEqual([older.number]);
      const byEmail = await call(ordersLoader, "/admin/orders?q=GRACE%40example.com", {});
      expect(byEmail.body.orders.map((order: { number: string }) => order.number)).toEqual([older.number]);
      const byName = await call(ordersLoader, "/admin/orders?q=pauling", {});
      expect(byName.body.orders).toEqual([
        expect.objectContaining({ number: newer.number, name: "Linus Pauling", email: "linus@example.com" }),
      ]);
      const nobody = await call(ordersLoader, "/admin/orders?q=100%25_nobody", {});
      expect(nobody.body).toMatchObject({ ok: true, total: 0, orders: [] });
    });

    it("filters by status and by the days orders were placed", async () => {
      const { number } = await placed({ email: "status@example.com" });
      await act(number, { intent: "mark-paid", shownStatus: "placed" });
      const paid = await call(ordersLoader, "/admin/orders?status=paid&q=status%40example.com", {});
      expect(paid.body.orders.map((order: { number: string }) => order.number)).toEqual([number]);
      const placedOnes = await call(ordersLoader, "/admin/orders?status=placed&q=status%40example.com", {});
      expect(placedOnes.body.orders).toEqual([]);
      const today = new Date().toISOString().slice(0, 10);
      const todays = await call(
        ordersLoader,
        `/admin/orders?from=${today}&to=${today}&q=status%40example.com`,
        {},
      );
      expect(todays.body.total).toBe(1);
      const before = await call(
        ordersLoader,
        "/admin/orders?from=2020-01-01&to=2020-12-31&q=status%40example.com",
        {},
      );
      expect(before.body.total).toBe(0);
    });

    it.each([
      ["status=lost", "status", "status is one of awaiting-payment, placed, paid, shipped, cancelled."],
      ["from=2026-13-45", "from", "from is not a date."],
      ["from=yesterday", "from", "from is a date written YYYY-MM-DD."],
      ["from=2026-03-02&to=2026-03-01", "to", "to is the same day as from or later."],
      ["page=0", "page", "page is a whole number from 1."],
      ["page=two", "page", "page is a whole number from 1."],
    ])("answers ?%s with a 400 naming %s", async (query, parameter, message) => {
      const answer = await call(ordersLoader, `/admin/orders?${query}`, {});
      expect(answer.status).toBe(400);
      expect(answer.body.problems).toEqual({ [parameter]: message });
      expect(answer.body.orders).toEqual([]);
    });

    it("takes empty filters as no filter (a form sent with nothing chosen)", async () => {
      const answer = await call(ordersLoader, "/admin/orders?q=&status=&from=&to=", {});
      expect(answer.status).toBe(200);
      expect(answer.body.ok).toBe(true);
    });
  });

  describe("an order's page and its actions, /admin/orders/:number", () => {
    it("shows the lines, totals, address, methods and the timeline", async () => {
      const { number } = await placed({ quantity: 3 }, "cash-on-delivery");
      const page = await pageOf(number);
      expect(page.status).toBe(200);
      expect(page.body.order).toMatchObject({
        number,
        status: "placed",
        email: "shopper@example.com",
        customer: null,
        address: ["Ada Shopper", "1 High Street", "Leeds LS1 1AA", "United Kingdom"],
        shippingMethod: "Standard shipping",
        paymentMethod: "Pay on delivery",
        trackingNumber: null,
        lines: [expect.objectContaining({ unitPriceCents: 1250, quantity: 3, lineTotalCents: 3750 })],
        subtotalCents: 3750,
        shippingCents: 499,
        totalCents: 4249,
        actions: ["mark-paid", "mark-shipped", "cancel"],
        timeline: [expect.objectContaining({ change: "Placed", by: "Ada Shopper (guest)", detail: null })],
        cardPayments: null,
      });
    });

    it("is a 404 for a number nobody has, or one written otherwise", async () => {
      expect((await pageOf("BL-00000")).status).toBe(404);
      expect((await pageOf("not-a-number")).status).toBe(404);
      expect((await act("BL-00000", { intent: "cancel", shownStatus: "placed" })).status).toBe(404);
    });

    it("marks an order paid and shipped from forms sent without JavaScript, each with its audit entry", async () => {
      const { number } = await placed();
      const paid = await act(number, { intent: "mark-paid", shownStatus: "placed" });
      expect(paid).toMatchObject({ status: 303, location: `/admin/orders/${number}?changed=paid` });
      const shipped = await act(number, {
        intent: "mark-shipped",
        shownStatus: "paid",
        trackingNumber: " 1Z 999 ",
      });
      expect(shipped).toMatchObject({ status: 303, location: `/admin/orders/${number}?changed=shipped` });

      const page = await pageOf(number);
      expect(page.body.order).toMatchObject({ status: "shipped", trackingNumber: "1Z 999", actions: [] });
      expect(
        page.body.order.timeline.map((entry: { change: string; by: string }) => [entry.change, entry.by]),
      ).toEqual([
        ["Placed", "Ada Shopper (guest)"],
        ["Marked paid", "Ada"],
        ["Marked shipped", "Ada"],
      ]);
      const [staffEmail] = await db
        .select({ email: users.email })
        .from(users)
        .where(eq(users.role, "staff"))
        .limit(1);
      const entries = await db
        .select({ action: auditLog.action, actor: auditLog.actorEmail, after: auditLog.after })
        .from(auditLog)
        .where(eq(auditLog.subject, `order:${number}`))
        .orderBy(asc(auditLog.id));
      expect(entries).toEqual([
        { action: "order.paid", actor: staffEmail?.email, after: { status: "paid" } },
        {
          action: "order.shipped",
          actor: staffEmail?.email,
          after: { status: "shipped", trackingNumber: "1Z 999" },
        },
      ]);
    });

    it("refuses with 409 and the reason an action the order no longer fits, changing nothing", async () => {
      const { number, productId } = await placed();
      await act(number, { intent: "cancel", shownStatus: "placed" });
      const onHand = async () =>
        (
          await db
            .select({ onHand: stockLevels.onHand })
            .from(stockLevels)
            .where(eq(stockLevels.productId, productId))
        )[0]?.onHand;
      expect(await onHand()).toBe(10);

      const stale = await act(number, { intent: "mark-paid", shownStatus: "placed" });
      expect(stale.status).toBe(409);
      expect(stale.body.intent).toBe("mark-paid");
      expect(stale.body.result.error[""][0]).toMatch(
        /^This order was cancelled by Ada on .* UTC since this page was shown; nothing was changed\./,
      );
      const twice = await act(number, { intent: "cancel", shownStatus: "cancelled" });
      expect(twice.status).toBe(409);
      expect(twice.body.result.error[""]).toEqual([
        "This order is cancelled: it cannot be cancelled; nothing was changed.",
      ]);
      expect(await onHand()).toBe(10);
      const [order] = await db
        .select({ status: orders.status })
        .from(orders)
        .where(eq(orders.number, number));
      expect(order?.status).toBe("cancelled");
    });

    it.each([
      [{ intent: "give-away", shownStatus: "placed" }, "intent"],
      [{ intent: "refund", shownStatus: "placed" }, "paymentId"],
      [{ intent: "refund", shownStatus: "placed", paymentId: "99999999999999999999" }, "paymentId"],
      [{ shownStatus: "placed" }, "intent"],
      [{ intent: "mark-paid", shownStatus: "lost" }, "shownStatus"],
      [{ intent: "mark-paid" }, "shownStatus"],
      [{ intent: "mark-shipped", shownStatus: "paid", trackingNumber: "<script>" }, "trackingNumber"],
      [{ intent: "mark-shipped", shownStatus: "paid", trackingNumber: "9".repeat(101) }, "trackingNumber"],
    ])("answers %o with a 400 naming %s, changing nothing", async (form, field) => {
      const { number } = await placed();
      const answer = await act(number, form as Record<string, string>);
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body.result.error)).toEqual([field]);
      expect((await pageOf(number)).body.order.timeline).toHaveLength(1);
    });
  });

  describe("customers, /admin/customers", () => {
    it("lists accounts with their order count and what they spent (cancelled orders left out), and finds them", async () => {
      const email = `ada-${randomUUID()}@example.com`;
      await signedUp(email);
      const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
      const userId = account?.id as string;
      const kept = await placed({ email, userId, quantity: 2 });
      const dropped = await placed({ email, userId, quantity: 1 });
      await act(dropped.number, { intent: "cancel", shownStatus: "placed" });

      const found = await call(
        customersLoader,
        `/admin/customers?q=${encodeURIComponent(email.toUpperCase())}`,
        {},
      );
      expect(found.status).toBe(200);
      expect(found.body.customers).toEqual([
        expect.objectContaining({
          id: userId,
          name: "Ada",
          email,
          orderCount: 2,
          spent: [{ currency: "USD", minor: 2999 }],
        }),
      ]);
      const byName = await call(customersLoader, "/admin/customers?q=ada", {});
      expect(byName.body.customers.map((customer: { id: string }) => customer.id)).toContain(userId);

      const page = await call(customerLoader, `/admin/customers/${userId}`, {
        params: { customerId: userId },
      });
      expect(page.status).toBe(200);
      expect(page.body.customer).toMatchObject({
        email,
        orderCount: 2,
        spent: [{ currency: "USD", minor: 2999 }],
      });
      expect(page.body.orders).toEqual([
        expect.objectContaining({ number: dropped.number, statusLabel: "Cancelled" }),
        expect.objectContaining({ number: kept.number, statusLabel: "Placed", totalCents: 2999 }),
      ]);
      const order = await pageOf(kept.number);
      expect(order.body.order.customer).toEqual({ id: userId, name: "Ada" });
    });

    it("gives what a customer spent in each currency, never one sum of two currencies", async () => {
      const email = `two-currencies-${randomUUID()}@example.com`;
      await signedUp(email);
      const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
      const userId = account?.id as string;
      await placed({ email, userId, quantity: 2 });
      // Placed in euros, before the owner switched the shop to dollars.
      const before = await placed({ email, userId, quantity: 1 });
      await db.update(orders).set({ currency: "EUR" }).where(eq(orders.number, before.number));

      const page = await call(customerLoader, `/admin/customers/${userId}`, {
        params: { customerId: userId },
      });
      expect(page.body.customer.spent).toEqual([
        { currency: "EUR", minor: 1_749 },
        { currency: "USD", minor: 2_999 },
      ]);
    });

    it("is a 404 for an account nobody has, and a 400 naming a parameter that does not read", async () => {
      expect(
        (await call(customerLoader, "/admin/customers/nobody", { params: { customerId: "nobody" } })).status,
      ).toBe(404);
      const badPage = await call(customersLoader, "/admin/customers?page=-1", {});
      expect(badPage).toMatchObject({
        status: 400,
        body: { problems: { page: "page is a whole number from 1." } },
      });
    });

    it("is the shop's 404 for a shopper, as every back-office page is", async () => {
      const shopper = await signedUp(`shopper-${randomUUID()}@example.com`);
      expect((await call(customersLoader, "/admin/customers", { cookie: shopper })).status).toBe(404);
      expect((await call(ordersLoader, "/admin/orders", { cookie: shopper })).status).toBe(404);
      const { number } = await placed();
      expect(
        (
          await call(orderAction, `/admin/orders/${number}`, {
            params: { number },
            cookie: shopper,
            form: { intent: "cancel", shownStatus: "placed" },
          })
        ).status,
      ).toBe(404);
      expect((await pageOf(number)).body.order.status).toBe("placed");
    });
  });
});
reportPostgresSkipped("the back office's orders and customers on $name");
