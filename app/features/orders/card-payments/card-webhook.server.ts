import { apiError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import type { OrderServices } from "../orders.server";
import { recordClosedSession, recordPaidSession, type WebhookOutcome } from "./record-card-payment.server";
import { type CheckoutSession, isSignatureError, type StripeEvent } from "./stripe-gateway.server";

/**
 * POST /api/webhooks/stripe: Stripe's word on a Checkout session
 * (docs/decisions/0032). Nothing in it is believed before its signature
 * verifies against STRIPE_WEBHOOK_SECRET over the exact bytes received; a
 * missing or bad signature, and an event whose amount or currency is not
 * its order's, get 400 and change nothing. Every other answer is 200, so
 * Stripe stops sending it: applied now, already applied, or not the shop's.
 */

type Deps = Pick<OrderServices, "mail" | "linkSecret" | "baseUrl" | "card">;

/** Applies one verified event; the types the shop does not use are acknowledged and left. */
function apply(deps: Deps, event: StripeEvent): Promise<WebhookOutcome> {
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object as CheckoutSession;
      // A delayed method (a bank debit) completes unpaid, and is settled by a later event.
      if (session.payment_status !== "paid") {
        return Promise.resolve({ outcome: "ignored", why: "completed, payment still pending" });
      }
      return recordPaidSession(deps, session);
    }
    case "checkout.session.async_payment_succeeded":
      return recordPaidSession(deps, event.data.object as CheckoutSession);
    case "checkout.session.async_payment_failed":
      return recordClosedSession(deps, event.data.object as CheckoutSession, "failed");
    case "checkout.session.expired":
      return recordClosedSession(deps, event.data.object as CheckoutSession, "expired");
    default:
      return Promise.resolve({ outcome: "ignored", why: "an event the shop does not use" });
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
  logger.info(
    fields,
    "Stripe webhook %s: %s",
    event.type,
    "change" in outcome ? outcome.change : outcome.why,
  );
  return Response.json({ received: true }, { headers: { "Cache-Control": "no-store" } });
}
