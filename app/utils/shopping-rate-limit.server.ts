import type { Redis } from "ioredis";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { apiError } from "./http.server";

/**
 * How many cart changes and checkouts one client may send this process: a
 * shopper changes a quantity a few times a minute and places an order or
 * two; a script adding and placing in a loop is slowed to that pace before
 * it costs the database anything. Counted before the work (the first thing
 * each cart or checkout action does): in Redis when the shop has one
 * (REDIS_URL), so the share is one client's across every process, else in
 * the process's memory, never in PostgreSQL, whose load is what the limit
 * guards. Stock itself needs no limit to stay exact.
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
  { redis }: { redis?: Redis } = {},
): ShoppingRateLimit {
  const make = (keyPrefix: string, points: number): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: limits.duration });
    // With REDIS_URL the count is every process's (one round trip to Redis); Redis down: this process's.
    return redis
      ? new RateLimiterRedis({
          keyPrefix: `backline:rl:${keyPrefix}`,
          points,
          duration: limits.duration,
          storeClient: redis,
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
      : memory;
  };
  const limiters: Record<ShoppingAttempt, RateLimiterAbstract> = {
    "cart-change": make("cart-change", limits.cartChanges),
    checkout: make("checkout", limits.checkouts),
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
