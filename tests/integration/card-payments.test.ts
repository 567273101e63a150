import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import pg from "pg";
import Stripe from "stripe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { CookieClient, signUp } from "../support/http-client";
import { TEST_STRIPE_SECRET_KEY, TEST_STRIPE_WEBHOOK_SECRET } from "../support/payment-stand-in";
import { describeOnEmbedded, describeWhen, postgresServer } from "../support/requirements";
import { freePort, preparedDataDir, type ShopProcess, startShopProcess } from "../support/shop-process";
import { SHOPPER_ADDRESS } from "../support/shopper";
import { createScratchPostgres, type ScratchPostgres } from "../support/test-database";

/**
 * Card payments through real shop processes (docs/decisions/0032), each
 * serving the stand-in for Stripe (DEMO_PAYMENT_PROVIDER=1) with keys the
 * test knows, so it can sign Stripe's events itself with the `stripe`
 * package: unpaid orders cancelled across a restart and by one of three
 * processes, once; 20 copies of one webhook spread over three processes
 * changing the order once; a payment that comes after the cancellation
 * flagged for a refund without taking the stock again.
 */

const CARD_ENV = {
  DEMO_PAYMENT_PROVIDER: "1",
  STRIPE_SECRET_KEY: TEST_STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET: TEST_STRIPE_WEBHOOK_SECRET,
  TRUST_PROXY: "1",
  LOG_LEVEL: "info",
};

let shoppers = 0;
/** Each shopper from an address of their own: the per-client limits count shoppers, not this test. */
const newAddress = () => {
  shoppers++;
  return `10.77.${(shoppers >> 8) & 255}.${shoppers & 255}`;
};

/** A card checkout of `quantity` of `productId` on `shop`: the order's number (201). */
async function cardCheckout(shop: ShopProcess, productId: number, quantity = 1, client = new CookieClient()) {
  const address = newAddress();
  const added = await client.fetch(`${shop.url}/api/cart/lines`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": address },
    body: JSON.stringify({ productId, quantity }),
  });
  expect(added.status).toBe(200);
  const placed = await client.fetch(`${shop.url}/api/checkout`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "Idempotency-Key": randomUUID(),
      "X-Forwarded-For": address,
    },
    body: JSON.stringify({
      email: "card@example.com",
      shippingAddress: SHOPPER_ADDRESS,
      shippingMethod: "standard",
      paymentMethod: "card",
    }),
  });
  const body = (await placed.json()) as { order: { number: string; status: string }; paymentUrl: string };
  expect(placed.status, JSON.stringify(body)).toBe(201);
  expect(body.order.status).toBe("awaiting-payment");
  expect(body.paymentUrl).toMatch(/\/demo-payment-provider\/checkout\/cs_test_/);
  return body.order.number;
}

/** An event as Stripe sends it, signed by the `stripe` package with the shop's webhook secret. */
function signedEvent(type: string, session: unknown) {
  const payload = JSON.stringify({
    id: `evt_${randomUUID().replaceAll("-", "")}`,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type,
    data: { object: session },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: TEST_STRIPE_WEBHOOK_SECRET });
  return { payload, signature };
}

const postEvent = (shop: ShopProcess, event: { payload: string; signature: string }) =>
  fetch(`${shop.url}/api/webhooks/stripe`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature },
    body: event.payload,
  });

/** Until `at`: the moment an order falls due is the event these tests wait for. */
async function until(at: Date) {
  const wait = at.getTime() - Date.now();
  if (wait > 0) await sleep(wait + 50);
}

describeOnEmbedded("card orders on the embedded database, across restarts", () => {
  const dataDir = preparedDataDir();
  const shared = { ...CARD_ENV, DATA_DIR: dataDir, CARD_PAYMENT_MINUTES: "0.1" };
  let shop: ShopProcess | undefined;
  afterAll(async () => {
    await shop?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** What the stopped shop's database says (it is one process's at a time). */
  async function books(numbers: string[]) {
    const database = await openDatabase({ dataDir });
    try {
      const result = await database.db.execute(sql`
        select o.number, o.status, o.payment_due_at as due,
               (select count(*)::int from order_events e where e.order_id = o.id) as events,
               (select on_hand from stock_levels where product_id = 1) as on_hand
        from orders o where o.number in (${sql.join(
          numbers.map((number) => sql`${number}`),
          sql`, `,
        )})
        order by o.number`);
      const { rows } = result as unknown as { rows: Record<string, unknown>[] };
      return rows.map((row) => ({
        ...row,
        due: row.due ? new Date(row.due as string) : null,
      })) as { number: string; status: string; due: Date | null; events: number; on_hand: number }[];
    } finally {
      await database.close();
    }
  }

  it("an order due while the shop was stopped is cancelled as it starts; one placed before a restart, once it falls due", async () => {
    // The same address each time: the shopper's session cookie is the address's.
    const env = { ...shared, PORT: String(await freePort()) };
    shop = await startShopProcess(env);
    const client = new CookieClient();
    expect(
      (
        await signUp(client, shop.url, `card-restart-${randomUUID().slice(0, 8)}@example.com`, {
          "X-Forwarded-For": newAddress(),
        })
      ).status,
    ).toBe(302);
    const first = await cardCheckout(shop, 1, 2, client);
    await shop.stop();
    const [placed] = await books([first]);
    expect(placed).toMatchObject({ status: "awaiting-payment", events: 0 });
    const before = (placed?.on_hand ?? 0) + 2;

    // Due while nobody runs: the next process to start cancels it, once.
    await until(placed?.due as Date);
    shop = await startShopProcess(env);
    const statusOf = async (number: string) => {
      const answer = await client.fetch(`${shop?.url}/api/orders/${number}`);
      return ((await answer.json()) as { order?: { status: string } }).order?.status;
    };
    await expect.poll(() => statusOf(first), { timeout: 20_000 }).toBe("cancelled");

    // Placed by one process, due after it was replaced by another: the new one knows of it. A
    // longer window, so the order is certainly not due yet when the new process has started.
    await shop.stop();
    const longer = { ...env, CARD_PAYMENT_MINUTES: "0.3" };
    shop = await startShopProcess(longer);
    const second = await cardCheckout(shop, 1, 1, client);
    await shop.stop();
    shop = await startShopProcess(longer);
    expect(await statusOf(second)).toBe("awaiting-payment");
    await expect.poll(() => statusOf(second), { timeout: 40_000 }).toBe("cancelled");
    await shop.stop();
    shop = undefined;

    const after = await books([first, second]);
    expect(after.map(({ status, events }) => ({ status, events }))).toEqual([
      { status: "cancelled", events: 1 },
      { status: "cancelled", events: 1 },
    ]);
    expect(after[0]?.on_hand).toBe(before);
  }, 240_000);
});

describeWhen([postgresServer], "card orders through three shop processes on one PostgreSQL", () => {
  let database: ScratchPostgres;
  let client: pg.Client;
  const shops: ShopProcess[] = [];
  const query = async <Row>(text: string, values?: unknown[]) =>
    (await client.query(text, values)).rows as Row[];
  const shopAt = (at: number) => shops[at % shops.length] as ShopProcess;

  beforeAll(async () => {
    database = await createScratchPostgres();
    const env = { ...CARD_ENV, DATABASE_URL: database.url, CARD_PAYMENT_MINUTES: "0.1" };
    shops.push(await startShopProcess(env));
    shops.push(await startShopProcess(env), await startShopProcess(env));
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await Promise.all(shops.map((shop) => shop.stop()));
    await client?.end();
    await database?.drop();
  });

  async function stockedProduct(onHand: number): Promise<number> {
    const [row] = await query<{ id: number }>(
      `insert into products (name, description, image, price_minor, ratings, band_name, category, creation_date)
       values ($1, 'Paid for by card.', '/images/products/kettle.svg', 2000, 4, 'blendMaster', 'home appliances', now())
       returning id`,
      [`Card kettle ${randomUUID().slice(0, 8)}`],
    );
    await query("update stock_levels set on_hand = $1 where product_id = $2", [onHand, row?.id]);
    return row?.id as number;
  }

  const onHand = async (productId: number) =>
    (
      await query<{ on_hand: number }>("select on_hand from stock_levels where product_id = $1", [productId])
    )[0]?.on_hand;

  /** The order's session, as Stripe (the stand-in, through the official client) holds it. */
  async function sessionOf(number: string) {
    const [row] = await query<{ checkout_session_id: string }>(
      "select p.checkout_session_id from card_payments p join orders o on o.id = p.order_id where o.number = $1",
      [number],
    );
    const stripe = new Stripe(TEST_STRIPE_SECRET_KEY, {
      host: "127.0.0.1",
      port: shopAt(0).port,
      protocol: "http",
    });
    return stripe.checkout.sessions.retrieve(row?.checkout_session_id as string);
  }

  it("nine unpaid orders placed through three processes are each cancelled once, by one of them; the stock comes back once", async () => {
    const productId = await stockedProduct(100);
    const numbers = await Promise.all(
      Array.from({ length: 9 }, (_, at) => cardCheckout(shopAt(at), productId, 2)),
    );
    expect(await onHand(productId)).toBe(82);
    await expect
      .poll(
        async () =>
          (
            await query<{ count: number }>(
              "select count(*)::int as count from orders where number = any($1) and status = 'cancelled'",
              [numbers],
            )
          )[0]?.count,
        { timeout: 30_000 },
      )
      .toBe(9);
    expect(await onHand(productId)).toBe(100);
    const events = await query<{ number: string; events: number }>(
      `select o.number, (select count(*)::int from order_events e where e.order_id = o.id) as events
       from orders o where o.number = any($1)`,
      [numbers],
    );
    expect(events.map((row) => row.events)).toEqual(Array(9).fill(1));
    // One "not paid in time" email each (a sent email keeps its kind; its address and text are erased).
    expect(
      await query("select count(*)::int as count from mail_queue where kind = 'order-not-paid'"),
    ).toEqual([{ count: 9 }]);
  });

  it("20 copies of one paid webhook at once, spread over the three processes, pay the order once", async () => {
    const productId = await stockedProduct(5);
    const number = await cardCheckout(shopAt(0), productId, 1);
    // Kept waiting for this test (the processes' window is 6 s): the order is due in an hour.
    await query("update orders set payment_due_at = now() + interval '1 hour' where number = $1", [number]);
    const session = await sessionOf(number);
    const event = signedEvent("checkout.session.completed", {
      ...session,
      status: "complete",
      payment_status: "paid",
      payment_intent: "pi_test_twenty",
    });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, at) => postEvent(shopAt(at), event)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const [order] = await query<{ status: string; events: number }>(
      `select o.status, (select count(*)::int from order_events e where e.order_id = o.id) as events
       from orders o where o.number = $1`,
      [number],
    );
    expect(order).toEqual({ status: "paid", events: 1 });
    // Its confirmation, once: the only card order of this database ever paid.
    expect(
      await query("select count(*)::int as count from mail_queue where kind = 'order-confirmation'"),
    ).toEqual([{ count: 1 }]);
    expect(await onHand(productId)).toBe(4);
  });

  it("a payment that arrives after its order was cancelled for want of one is flagged for a refund; the stock is not taken again", async () => {
    const productId = await stockedProduct(5);
    const number = await cardCheckout(shopAt(1), productId, 2);
    const session = await sessionOf(number);
    await expect
      .poll(
        async () =>
          (await query<{ status: string }>("select status from orders where number = $1", [number]))[0]
            ?.status,
        { timeout: 30_000 },
      )
      .toBe("cancelled");
    expect(await onHand(productId)).toBe(5);
    const answer = await postEvent(
      shopAt(2),
      signedEvent("checkout.session.completed", {
        ...session,
        status: "complete",
        payment_status: "paid",
        payment_intent: "pi_test_late",
      }),
    );
    expect(answer.status).toBe(200);
    const [payment] = await query<{ status: string; needs_refund: boolean; order_status: string }>(
      "select p.status, p.needs_refund, o.status as order_status from card_payments p join orders o on o.id = p.order_id where o.number = $1",
      [number],
    );
    expect(payment).toEqual({ status: "paid", needs_refund: true, order_status: "cancelled" });
    expect(await onHand(productId)).toBe(5);
  });
});
