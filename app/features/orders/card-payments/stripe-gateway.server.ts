import Stripe from "stripe";
import { z } from "~/utils/zod";

/**
 * The shop's only door to Stripe (docs/decisions/0032): the official
 * `stripe` client, and exactly the calls Stripe's Checkout guide asks of a
 * merchant — open a hosted Checkout session, expire one the shop no longer
 * wants paid, refund a payment, and verify a webhook's signature. Every
 * call that creates something carries an idempotency key, so a retry (the
 * client's own, after a lost answer, or a second click) never makes two.
 * No card number ever reaches the shop: the shopper types it on Stripe's page.
 */

export interface StripeSettings {
  secretKey: string;
  /** The webhook endpoint's signing secret (whsec_…). */
  webhookSecret: string;
  /**
   * Where Stripe's API answers: api.stripe.com by default; the shop's own
   * stand-in with DEMO_PAYMENT_PROVIDER=1, through the client's own options.
   */
  api?: { host: string; port: number; protocol: "http" | "https" };
}

/** Where Stripe's hosted Checkout pages are: a checkout form's redirect goes there. */
export const STRIPE_CHECKOUT_ORIGIN = "https://checkout.stripe.com";

interface CheckoutSessionRequest {
  orderNumber: string;
  /** The order's n-th session: with the order, what makes the idempotency key. */
  attempt: number;
  email: string;
  /** The order's currency (ISO 4217): Stripe takes amounts in its minor units, as the shop keeps them. */
  currency: string;
  /** The order's lines, and its shipping as one more line: they add up to its total. */
  lines: { name: string; unitAmountCents: number; quantity: number }[];
  /** Where Stripe sends the shopper back: after paying, and when they leave without paying. */
  successUrl: string;
  cancelUrl: string;
}

interface OpenedSession {
  id: string;
  url: string;
  amountCents: number;
  currency: string;
}

export type StripeEvent = Stripe.Event;

/**
 * The parts of a Checkout session the shop reads from a webhook: a signed
 * event is Stripe's, but its shape is still checked before anything is read
 * from it (an event without its session was a TypeError, a 500).
 */
export const checkoutSessionSchema = z.looseObject({
  id: z.string(),
  payment_status: z.string().nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  client_reference_id: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  payment_intent: z.union([z.string(), z.looseObject({ id: z.string() })]).nullish(),
});

export type CheckoutSession = z.output<typeof checkoutSessionSchema>;

export interface StripeGateway {
  openCheckoutSession(request: CheckoutSessionRequest): Promise<OpenedSession>;
  /** Closes a session nobody should pay any more; one already closed (paid, expired) is left as it is. */
  expireCheckoutSession(sessionId: string): Promise<void>;
  /** Refunds a payment in full; the same key again is the same refund. */
  refund(paymentIntentId: string, idempotencyKey: string): Promise<{ id: string; status: string | null }>;
  /** The event a webhook carries, once its signature verifies; throws when it does not. */
  verifiedEvent(payload: string, signature: string): StripeEvent;
}

/**
 * Seconds a webhook's signature stays acceptable (Stripe's default): an older
 * replay is refused, and so is one dated further ahead than that (the
 * client's own check looks back only).
 */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The time a Stripe-Signature header was made (its last `t=`, as the client reads it), in seconds. */
function signedAt(header: string): number {
  let timestamp = Number.NaN;
  for (const item of header.split(",")) {
    const [key, value] = item.split("=");
    if (key === "t") timestamp = Number.parseInt(value ?? "", 10);
  }
  return timestamp;
}

export function createStripeGateway(settings: StripeSettings): StripeGateway {
  const stripe = new Stripe(settings.secretKey, {
    // Retries reuse the request's idempotency key: a lost answer never opens a second session.
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    appInfo: { name: "Backline" },
    ...(settings.api ?? {}),
  });
  return {
    async openCheckoutSession(request) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          // Cards only (Apple Pay, Google Pay and Link pay by card too): the shop says "Paid by
          // card", and a delayed method (a bank debit) would outlast the order's payment window.
          allowed_payment_method_types: ["card"],
          client_reference_id: request.orderNumber,
          customer_email: request.email,
          line_items: request.lines.map((line) => ({
            quantity: line.quantity,
            price_data: {
              // Stripe writes a currency in small letters.
              currency: request.currency.toLowerCase(),
              unit_amount: line.unitAmountCents,
              product_data: { name: line.name },
            },
          })),
          metadata: { order_number: request.orderNumber },
          payment_intent_data: { metadata: { order_number: request.orderNumber } },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: `backline-${request.orderNumber}-checkout-${request.attempt}` },
      );
      if (!session.url || session.amount_total === null || !session.currency) {
        throw new Error(`Stripe answered checkout session ${session.id} without its url or amount`);
      }
      return {
        id: session.id,
        url: session.url,
        amountCents: session.amount_total,
        currency: session.currency,
      };
    },

    async expireCheckoutSession(sessionId) {
      try {
        await stripe.checkout.sessions.expire(sessionId);
      } catch (error) {
        // Only an open session can be expired: one paid or expired meanwhile is what it is, and
        // its webhook tells the shop. Anything else (Stripe out of reach) is the caller's to log.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
        throw error;
      }
    },

    async refund(paymentIntentId, idempotencyKey) {
      const refund = await stripe.refunds.create({ payment_intent: paymentIntentId }, { idempotencyKey });
      return { id: refund.id, status: refund.status };
    },

    verifiedEvent(payload, signature) {
      const event = stripe.webhooks.constructEvent(
        payload,
        signature,
        settings.webhookSecret,
        SIGNATURE_TOLERANCE_SECONDS,
      );
      if (signedAt(signature) > Date.now() / 1000 + SIGNATURE_TOLERANCE_SECONDS) {
        throw new Stripe.errors.StripeSignatureVerificationError(signature, payload, {
          message: "Timestamp outside the tolerance zone (in the future)",
        });
      }
      return event;
    },
  };
}

/** Whether `error` is the client's own "this signature does not verify". */
export function isSignatureError(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeSignatureVerificationError;
}
