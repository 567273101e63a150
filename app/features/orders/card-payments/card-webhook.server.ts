import { apiError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import type { OrderServices } from "../orders.server";
import { recordClosedSession, recordPaidSession, type WebhookOutcome } from "./record-card-payment.server";
import { checkoutSessionSchema, isSignatureError, type StripeEvent } from "./stripe-gateway.server";

/**
 * POST /api/webhooks/stripe: Stripe's word on a Checkout session
 * (docs/decisions/0032). Nothing in it is believed before its signature
 * verifies against STRIPE_WEBHOOK_SECRET over the exact bytes received and
 * was made within five minutes of now, either way; a missing, bad or
 * out-of-date signature, an event of the shop's types without its Checkout
 * session, and an event whose amount or currency is not its order's, get
 * 400 and change nothing. Every other answer is 200, so
 * Stripe stops sending it: applied now, already applied, or not the shop's.
 */

type Deps = Pick<OrderServices, "mail" | "linkSecret" | "baseUrl" | "card">;

/** The event types the shop acts on: each carries a Checkout session. */
const SESSION_EVENTS = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
]);

/**
 * Applies one verified event; the types the shop does not use are
 * acknowledged and left, and one of its types without a readable session is
 * `invalid` (signed, yet nothing the shop can act on).
 */
function apply(deps: Deps, event: StripeEvent): Promise<WebhookOutcome | { outcome: "invalid" }> {
  if (!SESSION_EVENTS.has(event.type)) {
    return Promise.resolve({ outcome: "ignored", why: "an event the shop does not use" });
  }
  const parsed = checkoutSessionSchema.safeParse((event.data as { object?: unknown } | undefined)?.object);
  if (!parsed.success) return Promise.resolve({ outcome: "invalid" });
  const session = parsed.data;
  switch (event.type) {
    case "checkout.session.completed":
      // A delayed method (a bank debit) completes unpaid, and is settled by a later event.
      if (session.payment_status !== "paid") {
        return Promise.resolve({ outcome: "ignored", why: "completed, payment still pending" });
      }
      return recordPaidSession(deps, session);
    case "checkout.session.async_payment_succeeded":
      return recordPaidSession(deps, session);
    case "checkout.session.async_payment_failed":
      return recordClosedSession(deps, session, "failed");
    default:
      return recordClosedSession(deps, session, "expired");
  }
}

export async function stripeWebhookResponse(request: Request, deps: Deps): Promise<Response> {
  const { card } = deps;
  if (!card) {
    return apiError(404, { code: "not_found", message: "Card payments are not turned on in this shop." });
  }
  const signature = request.headers.get("stripe-signature");
  // The exact bytes Stripe signed: read as text once, never parsed before they verify.
  const payload = await request.text();
  if (!signature) {
    return apiError(400, {
      code: "missing_signature",
      message: "Send Stripe's Stripe-Signature header.",
      field: "Stripe-Signature",
    });
  }
  let event: StripeEvent;
  try {
    event = card.gateway.verifiedEvent(payload, signature);
  } catch (error) {
    const why = isSignatureError(error) ? "bad signature" : "unreadable event";
    logger.warn({ event: "stripe.webhook.refused", why }, "a Stripe webhook was refused: %s", why);
    return apiError(400, {
      code: "bad_signature",
      message: "The Stripe-Signature header does not verify for this body with the shop's webhook secret.",
      field: "Stripe-Signature",
    });
  }
  const outcome = await apply(deps, event);
  const fields = { event: "stripe.webhook", type: event.type, id: event.id, outcome: outcome.outcome };
  if (outcome.outcome === "refused") {
    logger.warn(fields, "a Stripe webhook was refused: %s", outcome.message);
    return apiError(400, { code: "does_not_match_order", message: outcome.message });
  }
  if (outcome.outcome === "invalid") {
    logger.warn(fields, "a Stripe webhook was refused: no Checkout session in data.object");
    return apiError(400, {
      code: "invalid_event",
      message: `A ${event.type} event carries its Checkout session, with its id, in data.object.`,
      field: "data.object",
    });
  }
  logger.info(
    fields,
    "Stripe webhook %s: %s",
    event.type,
    "change" in outcome ? outcome.change : outcome.why,
  );
  return Response.json({ received: true }, { headers: { "Cache-Control": "no-store" } });
}
