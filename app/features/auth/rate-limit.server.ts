import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { logger } from "~/utils/logger.server";
import { addressKey } from "./client-address.server";

/**
 * Rate limits on the account endpoints, per client address (IPv6 by /64) and
 * per account (email). Counters live in Redis when REDIS_URL is set, so every
 * process shares them; otherwise in this process's memory. If Redis stops
 * answering, each process falls back to its own in-memory counters rather than
 * letting everything through. See docs/decisions/0006-rate-limiting.md.
 */
export interface Limit {
  points: number;
  /** Seconds. */
  duration: number;
}

export interface RateLimits {
  /** Sign-up attempts per address. */
  signUpPerAddress: Limit;
  /** Sign-up attempts per email. */
  signUpPerAccount: Limit;
  /** Login attempts per address, successful or not. */
  loginPerAddress: Limit;
  /** Failed logins per email; a success clears them. */
  loginFailuresPerAccount: Limit;
  /** Google sign-in starts per address. */
  googlePerAddress: Limit;
}

export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = Object.freeze({
  signUpPerAddress: { points: 10, duration: 60 * 60 },
  signUpPerAccount: { points: 5, duration: 60 * 60 },
  loginPerAddress: { points: 30, duration: 10 * 60 },
  loginFailuresPerAccount: { points: 5, duration: 15 * 60 },
  googlePerAddress: { points: 30, duration: 10 * 60 },
});

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface AuthRateLimiter {
  signUp(address: string, email: string): Promise<RateLimitDecision>;
  /** Counts a login attempt; refuses it while the address or the account is over its limit. */
  login(address: string, email: string): Promise<RateLimitDecision>;
  loginFailed(email: string): Promise<void>;
  loginSucceeded(email: string): Promise<void>;
  googleStart(address: string): Promise<RateLimitDecision>;
}

type Limiter = RateLimiterMemory | RateLimiterRedis;

export function createAuthRateLimiter(
  options: { redis?: Redis; limits?: Partial<RateLimits>; keyPrefix?: string } = {},
): AuthRateLimiter {
  const limits = { ...DEFAULT_RATE_LIMITS, ...options.limits };
  const prefix = options.keyPrefix ?? "backline:rl";
  const make = (name: keyof RateLimits): Limiter => {
    const settings = { keyPrefix: `${prefix}:${name}`, ...limits[name] };
    const memory = new RateLimiterMemory(settings);
    if (!options.redis) return memory;
    return new RateLimiterRedis({
      ...settings,
      storeClient: options.redis,
      // Redis down or still connecting: count in memory instead of failing open.
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    });
  };
  const limiters = {
    signUpPerAddress: make("signUpPerAddress"),
    signUpPerAccount: make("signUpPerAccount"),
    loginPerAddress: make("loginPerAddress"),
    loginFailuresPerAccount: make("loginFailuresPerAccount"),
    googlePerAddress: make("googlePerAddress"),
  };

  return {
    async signUp(address, email) {
      return combine(
        await Promise.all([
          consume(limiters.signUpPerAddress, addressKey(address)),
          consume(limiters.signUpPerAccount, accountKey(email)),
        ]),
      );
    },
    async login(address, email) {
      const failures = await peek(limiters.loginFailuresPerAccount, accountKey(email));
      const perAddress = await consume(limiters.loginPerAddress, addressKey(address));
      return combine([failures, perAddress]);
    },
    async loginFailed(email) {
      await consume(limiters.loginFailuresPerAccount, accountKey(email));
    },
    async loginSucceeded(email) {
      await limiters.loginFailuresPerAccount.delete(accountKey(email)).catch(logStoreError);
    },
    async googleStart(address) {
      return consume(limiters.googlePerAddress, addressKey(address));
    },
  };
}

/** Emails are keys, not data: hashed so the counters' store never holds them. */
function accountKey(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("base64url");
}

async function consume(limiter: Limiter, key: string): Promise<RateLimitDecision> {
  try {
    await limiter.consume(key);
    return { allowed: true };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return refused(rejection);
    logStoreError(rejection);
    return { allowed: true };
  }
}

/** Refuses while the key has used up its points, without counting this look. */
async function peek(limiter: Limiter, key: string): Promise<RateLimitDecision> {
  try {
    const state = await limiter.get(key);
    if (state && state.consumedPoints >= limiter.points) return refused(state);
    return { allowed: true };
  } catch (error) {
    logStoreError(error);
    return { allowed: true };
  }
}

function refused(state: RateLimiterRes): RateLimitDecision {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(state.msBeforeNext / 1000)) };
}

/** The strictest of several decisions: the longest wait wins. */
function combine(decisions: RateLimitDecision[]): RateLimitDecision {
  let wait = 0;
  for (const decision of decisions) if (!decision.allowed) wait = Math.max(wait, decision.retryAfterSeconds);
  return wait > 0 ? { allowed: false, retryAfterSeconds: wait } : { allowed: true };
}

function logStoreError(error: unknown) {
  logger.warn({ err: error }, "rate-limit store failed; the attempt was let through");
}
