import { createHmac, randomBytes } from "node:crypto";
import Stripe from "stripe";

/**
 * The few shapes of Stripe's API the stand-in speaks, as Stripe's API
 * reference documents them: a Checkout Session, a Refund, an Event, an
 * error, the form-encoded bodies the official client sends, and the
 * `Stripe-Signature` header of a webhook (`t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>" keyed with the endpoint's secret>`).
 */

/** The API version the stand-in says it answers in: the one the installed `stripe` package asks for. */
const API_VERSION = Stripe.API_VERSION;

/** Stripe's ids: a prefix and random letters and digits (`cs_test_a1B2…`). */
export function stripeId(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString("base64url").replace(/[-_]/g, "x")}`;
}

const unixNow = () => Math.floor(Date.now() / 1000);

export interface DemoLine {
  name: string;
  unitAmount: number;
  quantity: number;
}

/** A Checkout Session (object `checkout.session`), the fields the shop and the client read and a few more. */
export interface DemoSession {
  id: string;
  object: "checkout.session";
  mode: "payment";
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string | null;
  url: string | null;
  created: number;
  expires_at: number;
  livemode: false;
}

export function newSession(fields: {
  lines: DemoLine[];
  currency: string;
  clientReferenceId: string | null;
  customerEmail: string | null;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string | null;
  pageUrl: (id: string) => string;
}): DemoSession {
  const id = stripeId("cs_test");
  const total = fields.lines.reduce((sum, line) => sum + line.unitAmount * line.quantity, 0);
  const created = unixNow();
  return {
    id,
    object: "checkout.session",
    mode: "payment",
    status: "open",
    payment_status: "unpaid",
    amount_subtotal: total,
    amount_total: total,
    currency: fields.currency,
    client_reference_id: fields.clientReferenceId,
    customer_email: fields.customerEmail,
    metadata: fields.metadata,
    payment_intent: null,
    success_url: fields.successUrl,
    cancel_url: fields.cancelUrl,
    url: fields.pageUrl(id),
    created,
    // Stripe's default: a session stays open for 24 hours.
    expires_at: created + 24 * 60 * 60,
    livemode: false,
  };
}

export function newRefund(paymentIntent: string, amount: number, currency: string) {
  return {
    id: stripeId("re"),
    object: "refund" as const,
    amount,
    currency,
    payment_intent: paymentIntent,
    status: "succeeded" as const,
    created: unixNow(),
  };
}

export function newEvent(type: string, object: unknown) {
  return {
    id: stripeId("evt"),
    object: "event" as const,
    api_version: API_VERSION,
    created: unixNow(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** Stripe's error body: `{ "error": { "type", "message", "code"?, "param"? } }`. */
export function stripeError(
  status: number,
  message: string,
  extra: { type?: string; code?: string; param?: string } = {},
) {
  return {
    status,
    body: {
      error: { type: extra.type ?? "invalid_request_error", message, code: extra.code, param: extra.param },
    },
  };
}

/** The header Stripe signs a webhook with. */
export function signatureHeader(payload: string, secret: string, timestamp = unixNow()): string {
  const signature = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
  return `t=${timestamp},v1=${signature}`;
}

type Nested = { [key: string]: Nested | Nested[] | string };

/**
 * A body as the official client encodes it (`application/x-www-form-urlencoded`,
 * nested keys in brackets: `line_items[0][price_data][currency]=usd`), as
 * plain objects; a numeric key makes an array.
 */
export function parseStripeForm(body: string): Nested {
  const root: Nested = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== "");
    let node: Nested | Nested[] = root;
    path.forEach((part, index) => {
      const last = index === path.length - 1;
      const container = node as Record<string, Nested | Nested[] | string>;
      if (last) {
        container[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[index + 1] ?? "");
      container[part] ??= nextIsIndex ? [] : {};
      node = container[part] as Nested | Nested[];
    });
  }
  return root;
}
