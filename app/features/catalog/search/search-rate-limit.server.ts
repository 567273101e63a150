import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

/**
 * How many catalogue calls that search one client may make: every
 * /suggestions and /facets call, and every other call or shop page that
 * carries a search. A search's own work is bounded (search-vocabulary.server.ts),
 * and this bounds how many one client sends: a shopper typing with
 * suggestions open sends a few a second, and a script sending a different
 * search each time (which no cache answers) is slowed to the same pace.
 *
 * Counted in this process's memory, on purpose: what it protects is this
 * process's CPU, and a count in Redis or PostgreSQL would cost every
 * catalogue answer (most take well under a millisecond) a round trip. Behind
 * a load balancer a client may make this many in each process.
 */
export interface SearchRateLimits {
  /** Calls per window. */
  points: number;
  /** The window, in seconds. */
  duration: number;
}

export const DEFAULT_SEARCH_RATE_LIMITS: Readonly<SearchRateLimits> = Object.freeze({
  points: 300,
  duration: 60,
});

type SearchAdmission = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface SearchRateLimit {
  /** Counts one call from this client (its rate-limit key: an address, or an IPv6 /64), before any work. */
  admit(clientKey: string): Promise<SearchAdmission>;
}

export function createSearchRateLimit(
  limits: SearchRateLimits = DEFAULT_SEARCH_RATE_LIMITS,
): SearchRateLimit {
  const limiter = new RateLimiterMemory({ keyPrefix: "catalog-search", ...limits });
  return {
    async admit(clientKey) {
      try {
        await limiter.consume(clientKey);
        return { allowed: true };
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
      }
    },
  };
}
