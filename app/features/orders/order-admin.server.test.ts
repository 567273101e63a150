import { and, asc, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, mailQueue, orderDocuments, orders, stockLevels } from "~/db/schema";
import type { Actor } from "~/utils/audit-log.server";
import { recordingMail } from "../../../tests/support/recording-mailer";
import { orderEventsOf, placeTestOrder, productInStock } from "../../../tests/support/shop-context";
import { SHOPPER_ADDRESS } from "../../../tests/support/shopper";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { changeOrderStatus, type OrderChangeRequest } from "./order-admin.server";
import { adminOrderPage } from "./order-admin-view.server";
import { isOrderToken } from "./order-link.server";
import { orderStatusEmail } from "./order-status-email.server";

const engines = await openTestDatabases();

const SECRET = "test-secret-test-secret-test-secret-0123";
const OLIVE: Actor = { id: null, email: "olive@example.com", name: "Olive Owner" };
const SAM: Actor = { id: null, email: "sam@example.com", name: "Sam Staff" };

describe.each(engines)("the back office's order actions on $name", (engine: TestDatabase) => {
  const { db } = engine;
  const { queue } = recordingMail(db);
  const services = { mail: queue, linkSecret: SECRET, baseUrl: "http://localhost:3000", db, card: null };

  /** An order of `quantity` units of a new product (10 on hand before), placed with `paymentMethod`. */
  async function placed(paymentMethod: "bank-transfer" | "cash-on-delivery", quantity = 3) {
    const productId = await productInStock(engine, 10, 12.5);
    const number = await placeTestOrder(queue, productId, quantity, {
      idempotencyScope: "cart:test",
      shippingAddress: { ...SHOPPER_ADDRESS, name: "Ada <Shopper>" },
      paymentMethod,
    });
    return { number, productId };
  }

  const change = (actor: Actor, request: OrderChangeRequest) => changeOrderStatus(services, actor, request);

  const statusOf = async (number: string) =>
    (
      await db
        .select({ status: orders.status, tracking: orders.trackingNumber })
        .from(orders)
        .where(eq(orders.number, number))
    )[0];

  const onHand = async (productId: number) =>
    (
      await db
        .select({ onHand: stockLevels.onHand })
        .from(stockLevels)
        .where(eq(stockLevels.productId, productId))
    )[0]?.onHand;

  const eventsOf = (number: string) => orderEventsOf(engine, number);

  const auditOf = async (number: string) =>
    db
      .select({
        action: auditLog.action,
        actor: auditLog.actorEmail,
        before: auditLog.before,
        after: auditLog.after,
      })
      .from(auditLog)
      .where(eq(auditLog.subject, `order:${number}`))
      .orderBy(asc(auditLog.id));

  /** The status emails queued for the order (their subjects name it). */
  const emailsAbout = async (number: string) =>
    db
      .select({
        kind: mailQueue.kind,
        to: mailQueue.recipient,
        subject: mailQueue.subject,
        text: mailQueue.textBody,
        html: mailQueue.htmlBody,
      })
      .from(mailQueue)
      .where(and(like(mailQueue.kind, "order-%"), like(mailQueue.subject, `%${number} is%`)))
      .orderBy(asc(mailQueue.id));

  it("marks a bank transfer paid, then shipped with its tracking number: event, audit entry and email each time", async () => {
    const { number } = await placed("bank-transfer");
    expect(await change(OLIVE, { number, action: "mark-paid", shownStatus: "placed" })).toEqual({
      outcome: "changed",
      status: "paid",
    });
    expect(
      await change(SAM, {
        number,
        action: "mark-shipped",
        shownStatus: "paid",
        trackingNumber: "1Z 999 AA1",
      }),
    ).toEqual({ outcome: "changed", status: "shipped" });

    expect(await statusOf(number)).toEqual({ status: "shipped", tracking: "1Z 999 AA1" });
    expect(await eventsOf(number)).toEqual([
      { from: "placed", to: "paid", by: "Olive Owner", note: null },
      { from: "paid", to: "shipped", by: "Sam Staff", note: "1Z 999 AA1" },
    ]);
    expect(await auditOf(number)).toEqual([
      {
        action: "order.paid",
        actor: "olive@example.com",
        before: { status: "placed" },
        after: { status: "paid" },
      },
      {
        action: "order.shipped",
        actor: "sam@example.com",
        before: { status: "paid" },
        after: { status: "shipped", trackingNumber: "1Z 999 AA1" },
      },
    ]);
    const [paid, shipped] = await emailsAbout(number);
    expect(paid).toMatchObject({
      kind: "order-paid",
      to: "shopper@example.com",
      subject: `Your Backline order ${number} is paid`,
    });
    expect(paid?.text).toContain("We have your payment of $42.49");
    expect(shipped).toMatchObject({
      kind: "order-shipped",
      subject: `Your Backline order ${number} is on its way`,
    });
    expect(shipped?.text).toContain("The carrier's tracking number is 1Z 999 AA1.");
    // The order's signed link, as the confirmation carries it.
    const link = new URL(shipped?.text?.match(/https?:\/\/\S+/)?.[0] ?? "");
    expect(link.pathname).toBe(`/orders/${number}`);
    expect(isOrderToken(number, link.searchParams.get("token") ?? undefined, SECRET)).toBe(true);
    // What the shopper typed is text in the HTML part, never markup.
    expect(shipped?.html).toContain("Hello Ada &lt;Shopper&gt;,");
    expect(shipped?.html).not.toContain("<Shopper>");
  });

  it("invoices an order marked paid and issues the credit note when it is cancelled, once each", async () => {
    const documentsOf = async (number: string) =>
      db
        .select({
          series: orderDocuments.series,
          number: orderDocuments.number,
          credits: orderDocuments.creditsNumber,
        })
        .from(orderDocuments)
        .innerJoin(orders, eq(orders.id, orderDocuments.orderId))
        .where(eq(orders.number, number))
        .orderBy(asc(orderDocuments.id));
    const unpaid = await placed("bank-transfer");
    await change(OLIVE, { number: unpaid.number, action: "cancel", shownStatus: "placed" });
    // Never paid: no invoice, and so nothing to credit.
    expect(await documentsOf(unpaid.number)).toEqual([]);

    const { number } = await placed("bank-transfer");
    await change(OLIVE, { number, action: "mark-paid", shownStatus: "placed" });
    const [invoice] = await documentsOf(number);
    expect(invoice).toMatchObject({
      series: "invoice",
      number: expect.stringMatching(/^\d{4}-\d{6}$/),
      credits: null,
    });
    // The order's page in the back office names it.
    expect((await adminOrderPage(db, { number }))?.documents).toEqual([
      { kind: "Invoice", number: invoice?.number, issuedAt: expect.any(String) },
    ]);
    await change(SAM, { number, action: "cancel", shownStatus: "paid" });
    expect(await documentsOf(number)).toEqual([
      invoice,
      { series: "credit-note", number: expect.stringMatching(/^CN-\d{4}-\d{6}$/), credits: invoice?.number },
    ]);
  });

  it("refuses to ship a bank transfer not yet paid, and changes nothing", async () => {
    const { number } = await placed("bank-transfer");
    expect(await change(OLIVE, { number, action: "mark-shipped", shownStatus: "placed" })).toEqual({
      outcome: "refused",
      message: "This order is placed: it cannot be marked shipped; nothing was changed.",
    });
    expect(await statusOf(number)).toEqual({ status: "placed", tracking: null });
    expect(await eventsOf(number)).toEqual([]);
    expect(await auditOf(number)).toEqual([]);
    expect(await emailsAbout(number)).toEqual([]);
  });

  it("ships an order paid on delivery first, takes the payment after, and then neither ships nor cancels it again", async () => {
    const { number, productId } = await placed("cash-on-delivery");
    expect(await change(OLIVE, { number, action: "mark-shipped", shownStatus: "placed" })).toMatchObject({
      status: "shipped",
    });
    expect(await change(OLIVE, { number, action: "mark-paid", shownStatus: "shipped" })).toMatchObject({
      status: "paid",
    });
    expect(await change(OLIVE, { number, action: "cancel", shownStatus: "paid" })).toEqual({
      outcome: "refused",
      message: "This order is paid and has been shipped: it cannot be cancelled; nothing was changed.",
    });
    expect(await change(OLIVE, { number, action: "mark-shipped", shownStatus: "paid" })).toMatchObject({
      outcome: "refused",
    });
    expect(await onHand(productId)).toBe(7);
    expect((await eventsOf(number)).map((event) => event.to)).toEqual(["shipped", "paid"]);
    const shipped = (await emailsAbout(number))[0];
    expect(shipped?.text).toContain("The carrier gave no tracking number for it.");
  });

  it("cancels an order once: its stock comes back once, and the second cancel is refused naming who and when", async () => {
    const { number, productId } = await placed("bank-transfer", 4);
    expect(await onHand(productId)).toBe(6);
    expect(await change(OLIVE, { number, action: "cancel", shownStatus: "placed" })).toEqual({
      outcome: "changed",
      status: "cancelled",
    });
    expect(await onHand(productId)).toBe(10);
    const again = await change(SAM, { number, action: "cancel", shownStatus: "placed" });
    expect(again.outcome).toBe("refused");
    expect(again).toMatchObject({
      message: expect.stringMatching(
        /^This order was cancelled by Olive Owner on \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M UTC since this page was shown; nothing was changed\./,
      ),
    });
    // Even a page that shows it cancelled cannot cancel it again.
    expect(await change(SAM, { number, action: "cancel", shownStatus: "cancelled" })).toEqual({
      outcome: "refused",
      message: "This order is cancelled: it cannot be cancelled; nothing was changed.",
    });
    expect(await onHand(productId)).toBe(10);
    expect(await eventsOf(number)).toHaveLength(1);
    expect(await auditOf(number)).toEqual([
      {
        action: "order.cancelled",
        actor: "olive@example.com",
        before: { status: "placed" },
        after: {
          status: "cancelled",
          stockReturned: [
            expect.objectContaining({
              productId,
              quantity: 4,
              name: expect.any(String),
              sku: expect.any(String),
            }),
          ],
        },
      },
    ]);
    const emails = await emailsAbout(number);
    expect(emails.map((email) => email.kind)).toEqual(["order-cancelled"]);
    expect(emails[0]?.text).toContain(`We have cancelled your order ${number}.`);
  });

  it("refuses an action sent from a page out of date (the status it showed has moved on)", async () => {
    const { number } = await placed("bank-transfer");
    await change(OLIVE, { number, action: "mark-paid", shownStatus: "placed" });
    const stale = await change(SAM, { number, action: "cancel", shownStatus: "placed" });
    expect(stale).toMatchObject({
      outcome: "refused",
      message: expect.stringContaining("This order was marked paid by Olive Owner on "),
    });
    expect(await statusOf(number)).toMatchObject({ status: "paid" });
  });

  it("answers not-found for a number no order has", async () => {
    expect(await change(OLIVE, { number: "BL-00000", action: "cancel", shownStatus: "placed" })).toEqual({
      outcome: "not-found",
    });
  });

  it("lets exactly one of two staff cancelling the same order at once through: one event, email and stock return", async () => {
    const { number, productId } = await placed("bank-transfer", 5);
    const outcomes = await Promise.all([
      change(OLIVE, { number, action: "cancel", shownStatus: "placed" }),
      change(SAM, { number, action: "cancel", shownStatus: "placed" }),
    ]);
    expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(["changed", "refused"]);
    expect(outcomes.find((outcome) => outcome.outcome === "refused")).toMatchObject({
      message: expect.stringMatching(
        /^This order was cancelled by (Olive Owner|Sam Staff) on .*nothing was changed/,
      ),
    });
    expect(await onHand(productId)).toBe(10);
    expect(await eventsOf(number)).toHaveLength(1);
    expect(await auditOf(number)).toHaveLength(1);
    expect(await emailsAbout(number)).toHaveLength(1);
  });

  it("lets exactly one of many staff shipping and cancelling the same paid order at once through", async () => {
    const { number, productId } = await placed("bank-transfer", 2);
    await change(OLIVE, { number, action: "mark-paid", shownStatus: "placed" });
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, at) =>
        change(at % 2 ? SAM : OLIVE, {
          number,
          action: at % 3 === 0 ? "cancel" : "mark-shipped",
          shownStatus: "paid",
          trackingNumber: `TRACK-${at}`,
        }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.outcome === "changed")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.outcome === "refused")).toHaveLength(5);
    const events = await eventsOf(number);
    expect(events).toHaveLength(2);
    const winner = events[1]?.to;
    expect(await onHand(productId)).toBe(winner === "cancelled" ? 10 : 8);
    expect(await emailsAbout(number)).toHaveLength(2);
    expect(await auditOf(number)).toHaveLength(2);
  });
});
reportPostgresSkipped("the back office's order actions on $name");

describe("the emails of an order's status changes", () => {
  const facts = { orderUrl: "http://localhost:3000/orders/BL-7Q4K9?token=abc&x=1" };
  const change = {
    number: "BL-7Q4K9",
    email: "ada@example.com",
    name: "Ada",
    totalCents: 4249,
    currency: "USD",
    trackingNumber: null,
  };

  it("says the same in text and HTML, with the signed link escaped in the HTML", () => {
    const email = orderStatusEmail({ ...change, to: "shipped", trackingNumber: "1Z/99" }, facts);
    expect(email).toMatchObject({ kind: "order-shipped", to: "ada@example.com" });
    expect(email.text).toContain("The carrier's tracking number is 1Z/99.");
    expect(email.html).toContain("The carrier&#39;s tracking number is 1Z/99.");
    expect(email.text).toContain(`See your order: ${facts.orderUrl}`);
    expect(email.html).toContain('href="http://localhost:3000/orders/BL-7Q4K9?token=abc&amp;x=1"');
  });

  it("tells a cancellation and a payment in the shop's words, the amount in dollars", () => {
    expect(orderStatusEmail({ ...change, to: "paid" }, facts).text).toContain(
      "We have your payment of $42.49",
    );
    expect(orderStatusEmail({ ...change, to: "cancelled" }, facts).subject).toBe(
      "Your Backline order BL-7Q4K9 is cancelled",
    );
  });
});
