import type http from "node:http";
import type { Database } from "~/db/client.server";
import { logger } from "~/utils/logger.server";
import { readSmallBody } from "~/utils/small-body.server";
import { sendStandInPage } from "~/utils/stand-in-page.server";
import { closedPage, notFoundPage, paymentPage } from "./hosted-page.server";
import { type Answer, createStandInApi } from "./stand-in-api.server";
import { recordStore, type SessionRecord } from "./stand-in-records.server";
import { type DemoSession, newEvent, signatureHeader, stripeError, stripeId } from "./stripe-shapes.server";

/**
 * The local stand-in for Stripe (DEMO_PAYMENT_PROVIDER=1, docs/decisions/0040),
 * served by the shop itself: the official `stripe` client is pointed at it
 * with its own host/port/protocol options and cannot tell it from Stripe for
 * the few calls the shop makes — create, read and expire a Checkout session,
 * create a refund — each answered in Stripe's documented shapes, with
 * Stripe's idempotency keys honoured. Its payment page says it stands in for
 * Stripe and has Pay and Cancel; paying sends the shop a
 * `checkout.session.completed` webhook signed with Stripe's scheme, and is
 * retried, like Stripe's, until the shop answers 2xx. It is never started
 * on an https BASE_URL or a public HOST unless explicitly allowed (env.server.ts).
 */

const API_PREFIX = "/v1/";
const PAGE_PREFIX = "/demo-payment-provider/checkout/";
const WEBHOOK_PATH = "/api/webhooks/stripe";

export interface DemoPaymentProvider {
  secretKey: string;
  webhookSecret: string;
  /** Where the official client finds the stand-in: the shop's own origin (BASE_URL). */
  api: { host: string; port: number; protocol: "http" | "https" };
  /** Answers the request when it is the stand-in's (/v1/…, /demo-payment-provider/…); false otherwise. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean;
}

export function createDemoPaymentProvider(options: {
  db: Database;
  baseUrl: string;
  secretKey: string;
  webhookSecret: string;
}): DemoPaymentProvider {
  const { db, baseUrl, secretKey, webhookSecret } = options;
  const base = new URL(baseUrl);
  const store = recordStore(db);

  const deliver = (type: string, session: DemoSession) =>
    void deliverWebhook(`${base.origin}${WEBHOOK_PATH}`, webhookSecret, newEvent(type, session));

  const api = createStandInApi({ store, pageUrl: (id) => `${base.origin}${PAGE_PREFIX}${id}`, deliver });

  /** The payment page: shown (GET), or paid or left (POST). */
  async function checkoutPage(req: http.IncomingMessage, res: http.ServerResponse, id: string) {
    const record = /^cs_\w+$/.test(id) ? await store.read<SessionRecord>(`session:${id}`) : null;
    if (!record) return sendStandInPage(res, 404, notFoundPage());
    const { session } = record;
    if (req.method !== "POST") {
      return sendStandInPage(
        res,
        200,
        session.status === "open" ? paymentPage(session, record.lines, req.url ?? "") : closedPage(session),
      );
    }
    const action = new URLSearchParams(await readSmallBody(req, 30_000)).get("action");
    if (session.status !== "open") return sendStandInPage(res, 409, closedPage(session));
    if (action === "cancel") return redirect(res, session.cancel_url ?? base.origin);
    if (action !== "pay") return sendStandInPage(res, 400, paymentPage(session, record.lines, req.url ?? ""));
    // Paid only once, whatever two clicks send: the write is conditional on the session still open.
    const paymentIntent = stripeId("pi");
    const paid: DemoSession = {
      ...session,
      status: "complete",
      payment_status: "paid",
      payment_intent: paymentIntent,
      url: null,
    };
    if (!(await store.replaceIfOpen(`session:${id}`, { ...record, session: paid }))) {
      return sendStandInPage(res, 409, closedPage(session));
    }
    await store.write(`payment:${paymentIntent}`, id);
    deliver("checkout.session.completed", paid);
    redirect(res, paid.success_url.replace("{CHECKOUT_SESSION_ID}", id));
  }

  return {
    secretKey,
    webhookSecret,
    api: {
      host: base.hostname,
      port: Number(base.port || (base.protocol === "https:" ? 443 : 80)),
      protocol: base.protocol === "https:" ? "https" : "http",
    },
    handle(req, res) {
      const url = new URL(req.url ?? "/", base.origin);
      if (url.pathname.startsWith(PAGE_PREFIX)) {
        checkoutPage(req, res, url.pathname.slice(PAGE_PREFIX.length)).catch((error) => fail(res, error));
        return true;
      }
      if (!url.pathname.startsWith(API_PREFIX)) return false;
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        sendJson(res, stripeError(401, "Invalid API Key provided.", { type: "authentication_error" }));
        return true;
      }
      const key = req.headers["idempotency-key"];
      readSmallBody(req, 30_000)
        .then((body) =>
          api(
            req.method ?? "GET",
            url.pathname.slice(API_PREFIX.length),
            body,
            typeof key === "string" ? key : undefined,
          ),
        )
        .then((answer) => sendJson(res, answer))
        .catch((error) => fail(res, error));
      return true;
    },
  };
}

/** Tries after 0, 1, 2, 4, … seconds (at most 8 tries), as Stripe retries until the endpoint answers 2xx. */
async function deliverWebhook(url: string, secret: string, event: ReturnType<typeof newEvent>) {
  const payload = JSON.stringify(event);
  for (let attempt = 0; attempt < 8; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** (attempt - 1)));
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Stripe-Signature": signatureHeader(payload, secret) },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      if (response.ok) return;
      logger.warn(
        { type: event.type, status: response.status },
        "demo payment provider: the webhook was refused",
      );
      // A 4xx is the shop's considered answer (a bad signature, another amount): Stripe retries it too,
      // but here it would only repeat the same refusal.
      if (response.status < 500) return;
    } catch (error) {
      logger.warn(
        { type: event.type, err: error },
        "demo payment provider: the webhook could not be delivered",
      );
    }
  }
}

function sendJson(res: http.ServerResponse, answer: Answer) {
  res.statusCode = answer.status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Request-Id", stripeId("req"));
  res.end(JSON.stringify(answer.body));
}

function redirect(res: http.ServerResponse, location: string) {
  res.writeHead(303, { Location: location, "Cache-Control": "no-store" });
  res.end();
}

function fail(res: http.ServerResponse, error: unknown) {
  logger.error({ err: error }, "demo payment provider: a request failed");
  if (!res.headersSent) sendJson(res, stripeError(500, "The stand-in failed.", { type: "api_error" }));
}
