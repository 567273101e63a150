import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardPayments, orderDocuments, orders, stockLevels } from "~/db/schema";
import { refundCardPayment } from "~/features/orders/card-payments/card-refund.server";
import { openCardPayment } from "~/features/orders/card-payments/open-card-payment.server";
import { createStripeGateway } from "~/features/orders/card-payments/stripe-gateway.server";
import { cancelUnpaidCardOrders } from "~/features/orders/card-payments/unpaid-card-orders.server";
import { changeOrderStatus } from "~/features/orders/order-admin.server";
import { orderPath } from "~/features/orders/order-link.server";
import { orderPageData } from "~/features/orders/order-view.server";
import type { Actor } from "~/utils/audit-log.server";
import { sendForm } from "../../tests/support/form-post";
import {
  type PaymentStandIn,
  startPaymentStandIn,
  TEST_STRIPE_SECRET_KEY,
  TEST_STRIPE_WEBHOOK_SECRET,
} from "../../tests/support/payment-stand-in";
import { orderEventsOf, productInStock, shopContext } from "../../tests/support/shop-context";
import { SHOPPER_ADDRESS } from "../../tests/support/shopper";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { action as adminOrderAction, loader as adminOrderLoader } from "./admin.order";
import { action as linesAction } from "./api.cart-lines";
import { action as checkoutAction } from "./api.checkout";
import { action as webhookAction } from "./api.webhooks.stripe";
import { loader as checkoutLoader } from "./checkout";

/**
 * Card payments through Stripe Checkout (docs/decisions/0032), on both
 * engines, through the shop's own checkout API and webhook endpoint, with
 * the stand-in for Stripe the shop serves in its demo answering the official
 * client, and events signed by the `stripe` package's own
 * generateTestHeaderString — never by the stand-in — for the shop's
 * verification to be checked against Stripe's scheme.
 */

const engines = await openTestDatabases();

const OLIVE: Actor = { id: null, email: "olive@example.com", name: "Olive Owner" };

/** What the JSON API answers a checkout (the parts these tests read). */
interface CheckoutAnswer {
  order: { number: string; status: string; subtotal: number; shipping: number; total: number };
  paymentUrl?: string;
}

describe.each(engines)("card payments on $name", (engine: TestDatabase) => {
  const { db } = engine;
  let standIn: PaymentStandIn;
  let shop: ReturnType<typeof shopContext>;
  beforeAll(async () => {
    standIn = await startPaymentStandIn(engine);
    shop = shopContext(engine, { card: standIn.card });
    standIn.useOrders(shop.orders);
  });
  afterAll(() => standIn.close());

  async function call(
    handler: (args: never) => Promise<Response>,
    path: string,
    cookie: string | undefined,
    body: unknown,
  ) {
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "Idempotency-Key": randomUUID(),
    };
    if (cookie) headers.cookie = cookie;
    const request = new Request(`http://localhost:3000${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    const response = await handler({ request, context: shop.context, params: {} } as never);
    return {
      status: response.status,
      body: (await response.json()) as CheckoutAnswer,
      cookie: response.headers.get("set-cookie")?.split(";")[0],
    };
  }

  /** A guest's card order of `quantity` units of a new product with `onHand`, at $12.50 a unit, via the JSON API. */
  async function cardOrder(onHand = 10, quantity = 2) {
    const productId = await productInStock(engine, onHand, 12.5);
    const added = await call(linesAction, "/api/cart/lines", undefined, { productId, quantity });
    const placed = await call(checkoutAction, "/api/checkout", added.cookie, {
      email: "ada@example.com",
      shippingAddress: SHOPPER_ADDRESS,
      shippingMethod: "standard",
      paymentMethod: "card",
    });
    expect(placed.status).toBe(201);
    return {
      number: placed.body.order.number,
      paymentUrl: placed.body.paymentUrl as string,
      productId,
      body: placed.body,
    };
  }

  const orderRow = async (number: string) =>
    (await db.select().from(orders).where(eq(orders.number, number)))[0];
  const onHand = async (productId: number) =>
    (await db.select().from(stockLevels).where(eq(stockLevels.productId, productId)))[0]?.onHand;
  const paymentsOf = async (number: string) =>
    db
      .select({ payment: cardPayments })
      .from(cardPayments)
      .innerJoin(orders, eq(orders.id, cardPayments.orderId))
      .where(eq(orders.number, number))
      .then((rows) => rows.map((row) => row.payment));
  const eventsOf = (number: string) => orderEventsOf(engine, number);
  /** The order's invoice and credit note, in the order they were issued. */
  const documentsOf = async (number: string) =>
    db
      .select({
        series: orderDocuments.series,
        number: orderDocuments.number,
        creditsNumber: orderDocuments.creditsNumber,
      })
      .from(orderDocuments)
      .innerJoin(orders, eq(orders.id, orderDocuments.orderId))
      .where(eq(orders.number, number))
      .orderBy(asc(orderDocuments.id));
  const mailsAbout = async (number: string) =>
    (await shop.mail.delivered()).filter(
      (mail) => mail.subject.includes(number) || mail.text.includes(number),
    );

  /** The order's session as Stripe holds it, as the webhook would carry it once paid. */
  async function paidSession(number: string) {
    const [payment] = await paymentsOf(number);
    const session = await standIn.stripe.checkout.sessions.retrieve(payment?.checkoutSessionId as string);
    return {
      ...session,
      status: "complete",
      payment_status: "paid",
      payment_intent: `pi_test_${randomUUID().slice(0, 8)}`,
    };
  }

  /** An /admin/orders/<number> loader or action as the router calls it, as the visitor of `cookie`. */
  async function adminCall(
    handler: (args: never) => unknown,
    number: string,
    cookie: string,
    form?: Record<string, string>,
  ) {
    const request = new Request(`http://localhost:3000/admin/orders/${number}`, {
      method: form ? "POST" : "GET",
      headers: form ? { cookie, "Content-Type": "application/x-www-form-urlencoded" } : { cookie },
      body: form ? new URLSearchParams(form) : undefined,
    });
    let result: unknown;
    try {
      result = await handler({ request, context: shop.context, params: { number } } as never);
    } catch (thrown) {
      result = thrown;
    }
    if (result instanceof Response)
      return { status: result.status, location: result.headers.get("Location"), body: null };
    const wrapped = result as { type?: string; data: unknown; init: ResponseInit | null };
    if (wrapped?.type === "DataWithResponseInit")
      return { status: wrapped.init?.status ?? 200, location: null, body: wrapped.data };
    if (result instanceof Error) throw result;
    return { status: 200, location: null, body: result };
  }

  /** The order's signed page, as Stripe's return address names it. */
  const returnPage = (number: string) =>
    new URL(orderPath(number, shop.orders.linkSecret), shop.orders.baseUrl).toString();

  it("a card checkout takes the stock, waits for the payment, and opens Stripe's page for exactly the order's total", async () => {
    const { number, paymentUrl, productId, body } = await cardOrder(10, 2);
    expect(body.order).toMatchObject({
      status: "awaiting-payment",
      subtotal: 25,
      shipping: 4.99,
      total: 29.99,
    });
    expect(paymentUrl).toMatch(new RegExp(`^${standIn.url}/demo-payment-provider/checkout/cs_test_\\w+$`));
    expect(await onHand(productId)).toBe(8);
    const order = await orderRow(number);
    expect(order?.status).toBe("awaiting-payment");
    expect(order?.paymentDueAt?.getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
    const [payment] = await paymentsOf(number);
    const session = await standIn.stripe.checkout.sessions.retrieve(payment?.checkoutSessionId as string);
    expect(session).toMatchObject({
      amount_total: 2_999,
      currency: "usd",
      client_reference_id: number,
      status: "open",
      url: paymentUrl,
    });
    // Nothing is confirmed before it is paid; the shopper gets the way back to pay it.
    const mails = await mailsAbout(number);
    expect(mails.map((mail) => mail.subject)).toEqual([
      `Your Backline order ${number}: waiting for your card payment`,
    ]);
    expect(mails[0]?.text).toMatch(new RegExp(`/orders/${number}\\?token=`));
  });

  it("only a webhook whose signature verifies marks it paid: one change, one email that says 'Paid by card'", async () => {
    const { number } = await cardOrder();
    const session = await paidSession(number);
    const { payload, signature } = standIn.signed("checkout.session.completed", session);
    expect((await standIn.deliver(payload, null)).status).toBe(400);
    expect((await standIn.deliver(payload, signature.replace(/v1=\w{6}/, "v1=000000"))).status).toBe(400);
    expect(
      (
        await standIn.deliver(
          payload,
          standIn.signed("checkout.session.completed", session, "whsec_someoneElse").signature,
        )
      ).status,
    ).toBe(400);
    expect((await orderRow(number))?.status).toBe("awaiting-payment");

    const answer = await standIn.deliver(payload, signature);
    expect(answer.status).toBe(200);
    expect((await orderRow(number))?.status).toBe("paid");
    const [payment] = await paymentsOf(number);
    expect(payment).toMatchObject({
      status: "paid",
      paymentIntentId: session.payment_intent,
      needsRefund: false,
    });
    expect(await eventsOf(number)).toEqual([
      { from: "awaiting-payment", to: "paid", by: "Stripe", note: "Paid by card" },
    ]);
    const mails = (await mailsAbout(number)).filter((mail) => mail.subject.includes("paid by card"));
    expect(mails.map((mail) => mail.subject)).toEqual([`Your Backline order ${number}: paid by card`]);
    expect(mails[0]?.text).toContain("Paid by card: $29.99.");
  });

  it("20 copies of the same webhook at once change the order once", async () => {
    const { number } = await cardOrder();
    const { payload, signature } = standIn.signed("checkout.session.completed", await paidSession(number));
    const answers = await Promise.all(Array.from({ length: 20 }, () => standIn.deliver(payload, signature)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(await eventsOf(number)).toHaveLength(1);
    expect((await mailsAbout(number)).filter((mail) => mail.subject.endsWith("paid by card"))).toHaveLength(
      1,
    );
    // One invoice, however many copies arrived (docs/decisions/0049).
    expect((await documentsOf(number)).map((document) => document.series)).toEqual(["invoice"]);
  });

  it("out of order and replayed: a completed-but-unpaid session waits, the later success pays once, a late expiry changes nothing", async () => {
    const { number } = await cardOrder();
    const paid = await paidSession(number);
    const pending = { ...paid, payment_status: "unpaid", payment_intent: null };
    for (const [type, session] of [
      ["checkout.session.expired", { ...paid, status: "expired", payment_status: "unpaid" }],
      ["checkout.session.completed", pending],
      ["checkout.session.async_payment_succeeded", paid],
      ["checkout.session.completed", paid],
      ["checkout.session.expired", { ...paid, status: "expired" }],
      ["checkout.session.async_payment_succeeded", paid],
    ] as const) {
      const { payload, signature } = standIn.signed(type, session);
      expect((await standIn.deliver(payload, signature)).status).toBe(200);
    }
    expect((await orderRow(number))?.status).toBe("paid");
    expect((await paymentsOf(number))[0]?.status).toBe("paid");
    expect(await eventsOf(number)).toHaveLength(1);
  });

  it("a payment for another amount or currency than the order's is refused whole: 400, nothing changed", async () => {
    const { number } = await cardOrder();
    const session = await paidSession(number);
    for (const wrong of [{ amount_total: 100 }, { amount_total: 2_999_00 }, { currency: "eur" }]) {
      const { payload, signature } = standIn.signed("checkout.session.completed", { ...session, ...wrong });
      const answer = await standIn.deliver(payload, signature);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: "does_not_match_order" } });
    }
    expect((await orderRow(number))?.status).toBe("awaiting-payment");
    expect((await paymentsOf(number))[0]?.status).toBe("open");
    expect(await eventsOf(number)).toEqual([]);
  });

  it("a signed event without its session is a 400 naming data.object, and changes nothing", async () => {
    const { number } = await cardOrder();
    for (const type of ["checkout.session.completed", "checkout.session.expired"]) {
      for (const data of [{}, { object: null }, { object: "cs_test_1" }, { object: { id: 7 } }]) {
        const payload = JSON.stringify({ id: `evt_test_${randomUUID()}`, object: "event", type, data });
        const signature = Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: TEST_STRIPE_WEBHOOK_SECRET,
        });
        const answer = await standIn.deliver(payload, signature);
        expect(answer.status, `${type} ${JSON.stringify(data)}`).toBe(400);
        expect(await answer.json()).toMatchObject({ error: { code: "invalid_event", field: "data.object" } });
      }
    }
    expect((await orderRow(number))?.status).toBe("awaiting-payment");
  });

  it("a signature dated beyond five minutes either way is refused; within them it is taken", async () => {
    const { number } = await cardOrder();
    const { payload } = standIn.signed("checkout.session.completed", await paidSession(number));
    const signedAt = (secondsFromNow: number) =>
      Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: TEST_STRIPE_WEBHOOK_SECRET,
        timestamp: Math.floor(Date.now() / 1000) + secondsFromNow,
      });
    for (const secondsFromNow of [600, 301 + 5, -600]) {
      const answer = await standIn.deliver(payload, signedAt(secondsFromNow));
      expect(answer.status, `signed ${secondsFromNow} s from now`).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: "bad_signature" } });
    }
    expect((await orderRow(number))?.status).toBe("awaiting-payment");
    // A clock a minute ahead of the shop's is still Stripe's.
    expect((await standIn.deliver(payload, signedAt(60))).status).toBe(200);
    expect((await orderRow(number))?.status).toBe("paid");
  });

  it("paying again reuses the open session; once it expired, a new one — one for two clicks at once", async () => {
    const { number, paymentUrl } = await cardOrder();
    const again = await openCardPayment({ ...shop.orders, card: standIn.card }, number);
    expect(again).toEqual({ outcome: "opened", url: paymentUrl });
    // Stripe expires the session (its own clock, or another reason): the shop learns it by webhook.
    const [first] = await paymentsOf(number);
    const expired = await standIn.stripe.checkout.sessions.expire(first?.checkoutSessionId as string);
    const { payload, signature } = standIn.signed("checkout.session.expired", expired);
    expect((await standIn.deliver(payload, signature)).status).toBe(200);
    const [a, b] = await Promise.all([
      openCardPayment({ ...shop.orders, card: standIn.card }, number),
      openCardPayment({ ...shop.orders, card: standIn.card }, number),
    ]);
    expect(a).toEqual(b);
    expect(a).toMatchObject({ outcome: "opened" });
    expect(a).not.toEqual({ outcome: "opened", url: paymentUrl });
    expect((await paymentsOf(number)).map(({ attempt, status }) => [attempt, status])).toEqual([
      [1, "expired"],
      [2, "open"],
    ]);
  });

  it("unpaid past its window: cancelled once by sweepers racing, its stock back once, its session expired, the shopper told", async () => {
    const { number, productId } = await cardOrder(10, 3);
    await db
      .update(orders)
      .set({ paymentDueAt: sql`now() - interval '1 second'` })
      .where(eq(orders.number, number));
    const deps = { ...shop.orders, card: standIn.card };
    await Promise.all([
      cancelUnpaidCardOrders(deps),
      cancelUnpaidCardOrders(deps),
      cancelUnpaidCardOrders(deps),
    ]);
    expect((await orderRow(number))?.status).toBe("cancelled");
    expect(await onHand(productId)).toBe(10);
    expect(await eventsOf(number)).toEqual([
      {
        from: "awaiting-payment",
        to: "cancelled",
        by: "The shop (payment window closed)",
        note: "Not paid within 30 minutes",
      },
    ]);
    const [payment] = await paymentsOf(number);
    expect(payment?.status).toBe("expired");
    expect(
      (await standIn.stripe.checkout.sessions.retrieve(payment?.checkoutSessionId as string)).status,
    ).toBe("expired");
    expect((await mailsAbout(number)).map((mail) => mail.subject).sort()).toEqual([
      `Your Backline order ${number} is cancelled`,
      `Your Backline order ${number}: waiting for your card payment`,
    ]);

    // A payment made just before, whose webhook comes after: recorded, flagged for a refund, no stock taken again.
    const { payload, signature } = standIn.signed("checkout.session.completed", await paidSession(number));
    expect((await standIn.deliver(payload, signature)).status).toBe(200);
    expect((await orderRow(number))?.status).toBe("cancelled");
    expect(await onHand(productId)).toBe(10);
    expect((await paymentsOf(number))[0]).toMatchObject({ status: "paid", needsRefund: true });
    expect((await mailsAbout(number)).map((mail) => mail.subject)).toContain(
      `Your payment for Backline order ${number} will be refunded`,
    );
  });

  it("a payment racing the window's close: either paid with its stock taken, or cancelled with its stock back and the payment flagged", async () => {
    const deps = { ...shop.orders, card: standIn.card };
    for (let round = 0; round < 5; round++) {
      const { number, productId } = await cardOrder(10, 2);
      await db
        .update(orders)
        .set({ paymentDueAt: sql`now() - interval '1 second'` })
        .where(eq(orders.number, number));
      const { payload, signature } = standIn.signed("checkout.session.completed", await paidSession(number));
      const [answer] = await Promise.all([standIn.deliver(payload, signature), cancelUnpaidCardOrders(deps)]);
      expect(answer.status).toBe(200);
      const status = (await orderRow(number))?.status;
      const [payment] = await paymentsOf(number);
      if (status === "paid") {
        expect(await onHand(productId)).toBe(8);
        expect(payment).toMatchObject({ status: "paid", needsRefund: false });
      } else {
        expect(status).toBe("cancelled");
        expect(await onHand(productId)).toBe(10);
        expect(payment).toMatchObject({ status: "paid", needsRefund: true });
      }
      expect(await eventsOf(number)).toHaveLength(status === "paid" ? 1 : 2);
    }
  });

  it("a paid order refunded through Stripe is cancelled, its stock back; two staff at once make one refund", async () => {
    const { number, productId } = await cardOrder(10, 2);
    // Paid on the stand-in's page: its own signed webhook reaches the shop's endpoint.
    const [payment] = await paymentsOf(number);
    await payStandIn(payment?.checkoutSessionId as string);
    await expect.poll(async () => (await orderRow(number))?.status).toBe("paid");

    const refunds = await Promise.all([
      refundCardPayment(shop.orders, OLIVE, { number, paymentId: payment?.id as number }),
      refundCardPayment(shop.orders, OLIVE, { number, paymentId: payment?.id as number }),
    ]);
    // Both told "refunded": the second found Stripe's answer to the same idempotency key (without
    // it, Stripe would have refused a second refund of the same payment, and the second been refused).
    expect(refunds.map((refund) => refund.outcome)).toEqual(["refunded", "refunded"]);
    expect((await orderRow(number))?.status).toBe("cancelled");
    expect(await onHand(productId)).toBe(10);
    expect((await paymentsOf(number))[0]).toMatchObject({
      status: "refunded",
      needsRefund: false,
      refundId: expect.stringMatching(/^re_/),
    });
    const refundNotes = (await eventsOf(number)).filter((event) => event.note?.startsWith("Refunded"));
    expect(refundNotes).toHaveLength(1);
    // Its invoice, and the one credit note that cancels it.
    const [invoice, credit] = await documentsOf(number);
    expect(invoice?.series).toBe("invoice");
    expect(credit).toMatchObject({ series: "credit-note", creditsNumber: invoice?.number });
    expect((await mailsAbout(number)).filter((mail) => mail.subject.endsWith("refunded"))).toHaveLength(1);
    // Refunding it again is refused, and Stripe is not asked.
    expect(
      await refundCardPayment(shop.orders, OLIVE, { number, paymentId: payment?.id as number }),
    ).toMatchObject({ outcome: "refused" });
  });

  it("staff cancelling an unpaid card order expire its Stripe page; cancelling a paid one leaves its payment to refund", async () => {
    const unpaid = await cardOrder();
    expect(
      await changeOrderStatus(shop.orders, OLIVE, {
        number: unpaid.number,
        action: "cancel",
        shownStatus: "awaiting-payment",
      }),
    ).toMatchObject({ outcome: "changed" });
    const [open] = await paymentsOf(unpaid.number);
    expect(open?.status).toBe("expired");
    expect((await standIn.stripe.checkout.sessions.retrieve(open?.checkoutSessionId as string)).status).toBe(
      "expired",
    );

    const paid = await cardOrder();
    const { payload, signature } = standIn.signed(
      "checkout.session.completed",
      await paidSession(paid.number),
    );
    await standIn.deliver(payload, signature);
    expect(
      await changeOrderStatus(shop.orders, OLIVE, {
        number: paid.number,
        action: "mark-paid",
        shownStatus: "paid",
      }),
    ).toMatchObject({ outcome: "refused" });
    await changeOrderStatus(shop.orders, OLIVE, {
      number: paid.number,
      action: "cancel",
      shownStatus: "paid",
    });
    expect((await paymentsOf(paid.number))[0]).toMatchObject({ status: "paid", needsRefund: true });
    expect(await onHand(paid.productId)).toBe(10);
  });

  it("a refund Stripe does not confirm leaves the order cancelled and its payment flagged; trying again refunds it", async () => {
    const { number, productId } = await cardOrder(10, 1);
    const [payment] = await paymentsOf(number);
    await payStandIn(payment?.checkoutSessionId as string);
    await expect.poll(async () => (await orderRow(number))?.status).toBe("paid");
    // Stripe out of reach: a client pointed at a port nobody listens on.
    const unreachable = {
      ...standIn.card,
      gateway: createStripeGateway({
        secretKey: TEST_STRIPE_SECRET_KEY,
        webhookSecret: TEST_STRIPE_WEBHOOK_SECRET,
        api: { host: "127.0.0.1", port: 9, protocol: "http" },
      }),
    };
    const failed = await refundCardPayment({ ...shop.orders, card: unreachable }, OLIVE, {
      number,
      paymentId: payment?.id as number,
    });
    expect(failed).toMatchObject({
      outcome: "refused",
      message: expect.stringMatching(/^Stripe did not confirm/),
    });
    expect((await orderRow(number))?.status).toBe("cancelled");
    expect(await onHand(productId)).toBe(10);
    expect((await paymentsOf(number))[0]).toMatchObject({ status: "paid", needsRefund: true });

    const again = await refundCardPayment(shop.orders, OLIVE, { number, paymentId: payment?.id as number });
    expect(again).toMatchObject({ outcome: "refunded" });
    expect((await paymentsOf(number))[0]).toMatchObject({ status: "refunded", needsRefund: false });
    expect(await onHand(productId)).toBe(10);
  });

  it("only an owner refunds from the order's page: staff see the payment and get 403", async () => {
    const { number } = await cardOrder(10, 1);
    const [payment] = await paymentsOf(number);
    await payStandIn(payment?.checkoutSessionId as string);
    await expect.poll(async () => (await orderRow(number))?.status).toBe("paid");
    const staff = await shop.signedUpAs(`card-staff-${randomUUID()}@example.com`, "staff");
    const owner = await shop.signedUpAs(`card-owner-${randomUUID()}@example.com`, "owner");
    const form = { intent: "refund", shownStatus: "paid", paymentId: String(payment?.id) };
    const asStaff = await adminCall(adminOrderLoader, number, staff);
    expect(asStaff.body).toMatchObject({
      mayRefund: false,
      order: { cardPayments: [{ status: "paid", refundable: true }] },
    });
    expect((await adminCall(adminOrderAction, number, staff, form)).status).toBe(403);
    expect((await orderRow(number))?.status).toBe("paid");
    expect((await adminCall(adminOrderLoader, number, owner)).body).toMatchObject({ mayRefund: true });
    expect(await adminCall(adminOrderAction, number, owner, form)).toMatchObject({
      status: 303,
      location: `/admin/orders/${number}?changed=refunded`,
    });
    expect((await paymentsOf(number))[0]?.status).toBe("refunded");
  });

  it("the order's page tells a shopper back from Stripe what stands: waiting, failed (pay again), paid", async () => {
    const { number } = await cardOrder();
    const viewer = { db, userId: null, services: shop.orders };
    const token = new URL(returnPage(number)).searchParams.get("token") as string;
    const pageAt = async (payment: string) =>
      (
        await orderPageData(
          viewer,
          { number },
          new URL(`http://localhost:3000/orders/${number}?token=${token}&payment=${payment}`),
        )
      )?.card;
    expect(await pageAt("returned")).toMatchObject({ state: "confirming" });
    expect(await pageAt("cancelled")).toMatchObject({ state: "left", dueAt: expect.any(String) });
    const session = await paidSession(number);
    const failed = standIn.signed("checkout.session.async_payment_failed", {
      ...session,
      payment_status: "unpaid",
    });
    expect((await standIn.deliver(failed.payload, failed.signature)).status).toBe(200);
    // The return address still says "returned": Stripe's word that it failed wins, and paying again is offered.
    expect(await pageAt("returned")).toMatchObject({ state: "failed" });
    const again = await openCardPayment({ ...shop.orders, card: standIn.card }, number);
    expect(again).toMatchObject({ outcome: "opened" });
    const [, second] = await paymentsOf(number);
    expect(second).toMatchObject({ attempt: 2, status: "open" });
    const retried = standIn.signed("checkout.session.completed", {
      ...(await standIn.stripe.checkout.sessions.retrieve(second?.checkoutSessionId as string)),
      status: "complete",
      payment_status: "paid",
      payment_intent: "pi_test_second",
    });
    expect((await standIn.deliver(retried.payload, retried.signature)).status).toBe(200);
    expect(await pageAt("returned")).toMatchObject({ state: "paid", paidAt: expect.any(String) });
  });

  it("checkout offers Card only where card payments are on; the webhook address is a 404 elsewhere", async () => {
    const pageOf = async (context: typeof shop.context) =>
      (await sendForm(checkoutLoader, context, "/checkout", { method: "GET" })).body as {
        cardPayment: unknown;
      };
    expect((await pageOf(shop.context)).cardPayment).toEqual({ window: "30 minutes" });
    const off = shopContext(engine);
    expect((await pageOf(off.context)).cardPayment).toBeNull();
    const request = new Request("http://localhost:3000/api/webhooks/stripe", { method: "POST", body: "{}" });
    const answer = await webhookAction({ request, context: off.context, params: {} } as never);
    expect(answer.status).toBe(404);
  });

  it("card checkout where card payments are off is refused, naming paymentMethod, and orders nothing", async () => {
    const off = shopContext(engine);
    const productId = await productInStock(engine, 5);
    const added = await (async () => {
      const request = new Request("http://localhost:3000/api/cart/lines", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ productId, quantity: 1 }),
      });
      const response = await linesAction({ request, context: off.context, params: {} } as never);
      return response.headers.get("set-cookie")?.split(";")[0] as string;
    })();
    const request = new Request("http://localhost:3000/api/checkout", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID(), cookie: added },
      body: JSON.stringify({
        email: "ada@example.com",
        shippingAddress: SHOPPER_ADDRESS,
        shippingMethod: "standard",
        paymentMethod: "card",
      }),
    });
    const response = await checkoutAction({ request, context: off.context, params: {} } as never);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { field: "paymentMethod" } });
    expect(await onHand(productId)).toBe(5);
  });

  /** Pays the session on the stand-in's own page, as the shopper's Pay does. */
  async function payStandIn(sessionId: string): Promise<void> {
    const paid = await fetch(`${standIn.url}/demo-payment-provider/checkout/${sessionId}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "action=pay",
      redirect: "manual",
    });
    expect(paid.status).toBe(303);
  }
});

reportPostgresSkipped("card payments on $name");
