import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequestListener } from "@remix-run/node-fetch-server";
import Stripe from "stripe";
import { createDemoPaymentProvider } from "~/features/demo-payment-provider/demo-payment-provider.server";
import type { CardPaymentServices } from "~/features/orders/card-payments/card-payments.server";
import { stripeWebhookResponse } from "~/features/orders/card-payments/card-webhook.server";
import { createStripeGateway } from "~/features/orders/card-payments/stripe-gateway.server";
import type { OrderServices } from "~/features/orders/orders.server";
import type { TestDatabase } from "./test-database";

export const TEST_STRIPE_SECRET_KEY = "sk_test_backlineTests";
export const TEST_STRIPE_WEBHOOK_SECRET = "whsec_backlineTests";

/**
 * Card payments for service and route tests, on a test database: the shop's
 * own stand-in for Stripe (app/features/demo-payment-provider) served on a
 * port of its own, the official client pointed at it, and the shop's webhook
 * endpoint behind it, so the stand-in's Pay and the test's own signed events
 * reach the same code as in the running shop.
 */
export interface PaymentStandIn {
  /** What the orders feature gets as `card` (the sweeper's `dueAt` is the test's to call). */
  card: CardPaymentServices;
  /** The official client, pointed at the stand-in: to read what Stripe holds (a session's state). */
  stripe: Stripe;
  /** Where the stand-in answers (its pay pages, /v1, and the webhook endpoint). */
  url: string;
  /** The order services the webhook endpoint applies events with (set once the test has them). */
  useOrders(orders: Pick<OrderServices, "mail" | "linkSecret" | "baseUrl">): void;
  /** An event as Stripe sends it: the body, and its Stripe-Signature made by the `stripe` package. */
  signed(type: string, object: unknown, secret?: string): { payload: string; signature: string };
  /** POSTs a signed (or unsigned) event to the webhook endpoint. */
  deliver(payload: string, signature: string | null): Promise<Response>;
  close(): Promise<void>;
}

export async function startPaymentStandIn(
  engine: TestDatabase,
  { windowMinutes = 30 }: { windowMinutes?: number } = {},
): Promise<PaymentStandIn> {
  let orders: Pick<OrderServices, "mail" | "linkSecret" | "baseUrl"> | undefined;
  let card: CardPaymentServices | undefined;
  const webhook = createRequestListener((request: Request) => {
    if (!orders || !card) return new Response("no order services yet", { status: 503 });
    return stripeWebhookResponse(request, { ...orders, card });
  });
  let provider: ReturnType<typeof createDemoPaymentProvider> | undefined;
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith("/api/webhooks/stripe")) return void webhook(req, res);
    if (!provider?.handle(req, res)) {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  provider = createDemoPaymentProvider({
    db: engine.db,
    baseUrl: url,
    secretKey: TEST_STRIPE_SECRET_KEY,
    webhookSecret: TEST_STRIPE_WEBHOOK_SECRET,
  });
  card = {
    gateway: createStripeGateway({
      secretKey: TEST_STRIPE_SECRET_KEY,
      webhookSecret: TEST_STRIPE_WEBHOOK_SECRET,
      api: provider.api,
    }),
    windowMinutes,
    pageOrigin: url,
    dueAt: () => {},
  };
  const stripe = new Stripe(TEST_STRIPE_SECRET_KEY, { host: "127.0.0.1", port, protocol: "http" });
  let events = 0;
  return {
    card,
    stripe,
    url,
    useOrders: (given) => {
      orders = given;
    },
    signed(type, object, secret = TEST_STRIPE_WEBHOOK_SECRET) {
      events += 1;
      const payload = JSON.stringify({
        id: `evt_test_${events}_${Date.now()}`,
        object: "event",
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object },
      });
      return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
    },
    deliver: (payload, signature) =>
      fetch(`${url}/api/webhooks/stripe`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          ...(signature === null ? {} : { "Stripe-Signature": signature }),
        },
        body: payload,
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
