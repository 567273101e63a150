import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { apiError } from "~/utils/http.server";

/**
 * How many cart changes and checkouts one client may send this process: a
 * shopper changes a quantity a few times a minute and places an order or
 * two; a script adding and placing in a loop is slowed to that pace before
 * it costs the database anything. Counted before the work (the first thing
 * each cart or checkout action does), in the process's memory like the
 * search limit (search-rate-limit.server.ts): what it guards is this
 * process's share of the database, and a shared count would cost every cart
 * change a round trip. Stock itself needs no limit to stay exact.
 */
export interface ShoppingRateLimits {
  /** Cart changes (add, set, remove) per window. */
  cartChanges: number;
  /** Checkouts sent (placed or not) per window. */
  checkouts: number;
  /** The window, in seconds. */
  duration: number;
}

const DEFAULT_SHOPPING_RATE_LIMITS: Readonly<ShoppingRateLimits> = Object.freeze({
  cartChanges: 120,
  checkouts: 20,
  duration: 60,
});

export type ShoppingAttempt = "cart-change" | "checkout";

export interface ShoppingRateLimit {
  /** Counts one attempt from this client (an address, or an IPv6 /64): null to go ahead, or when to come back. */
  admit(clientKey: string, attempt: ShoppingAttempt): Promise<{ retryAfterSeconds: number } | null>;
}

export function createShoppingRateLimit(
  limits: ShoppingRateLimits = DEFAULT_SHOPPING_RATE_LIMITS,
): ShoppingRateLimit {
  const limiters: Record<ShoppingAttempt, RateLimiterMemory> = {
    "cart-change": new RateLimiterMemory({
      keyPrefix: "cart-change",
      points: limits.cartChanges,
      duration: limits.duration,
    }),
    checkout: new RateLimiterMemory({
      keyPrefix: "checkout",
      points: limits.checkouts,
      duration: limits.duration,
    }),
  };
  return {
    async admit(clientKey, attempt) {
      try {
        await limiters[attempt].consume(clientKey);
        return null;
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
      }
    },
  };
}

/** The words of a refused attempt. */
export function shoppingRefusalMessage(attempt: ShoppingAttempt, retryAfterSeconds: number): string {
  const what = attempt === "checkout" ? "checkouts" : "changes to your cart";
  return `Too many ${what} in a short time. Try again in ${retryAfterSeconds} seconds.`;
}

/** The JSON API's 429 for a refused attempt. */
export function shoppingRefusalResponse(attempt: ShoppingAttempt, retryAfterSeconds: number): Response {
  return apiError(
    429,
    { code: "rate_limited", message: shoppingRefusalMessage(attempt, retryAfterSeconds) },
    { "Retry-After": String(retryAfterSeconds) },
  );
}
