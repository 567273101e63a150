import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type pg from "pg";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { addressKey } from "~/utils/client-address.server";
import { logger } from "~/utils/logger.server";

/**
 * Rate limits on the account endpoints. Every attempt is counted *before*
 * the password is checked, so thirty simultaneous guesses cannot all slip
 * under a limit of five; a success gives the attempt back.
 *
 * Logins are limited three ways (docs/decisions/0006-rate-limiting.md):
 * - per client address, whatever the account (a guesser trying many accounts);
 * - per account *and* address: five failures lock that address out of that
 *   account, never the owner elsewhere;
 * - per account from clients it does not know: a guesser with many addresses
 *   runs out too. A browser that signed in to the account before carries a
 *   device cookie and is limited on its own instead (OWASP's "device cookies"),
 *   so such an attack cannot lock the owner out of their own devices.
 *
 * Counters live in Redis when REDIS_URL is set, otherwise in PostgreSQL when
 * that is the database (every process shares them either way), otherwise in
 * this process's memory (the embedded database allows one process). A store
 * that fails or stops answering is replaced by in-memory counters for that
 * attempt: limits hold per process rather than failing open.
 */
interface Limit {
  points: number;
  /** Seconds. */
  duration: number;
}

export interface RateLimits {
  /** Sign-up attempts per address. */
  signUpPerAddress: Limit;
  /** Sign-up attempts per email. */
  signUpPerAccount: Limit;
  /** Login attempts per address, any account, successful or not. */
  loginPerAddress: Limit;
  /** Login attempts for one account from one address; a success clears them. */
  loginPerAccountAndAddress: Limit;
  /** Login attempts for one account from clients without its device cookie; a success gives one back. */
  loginPerAccountFromUnknownDevices: Limit;
  /** Login attempts from one known device (device cookie); a success clears them. */
  loginPerKnownDevice: Limit;
  /** Google sign-in starts per address. */
  googlePerAddress: Limit;
  /** Emails with a link (password reset, email confirmation) asked for from one address. */
  emailLinkPerAddress: Limit;
  /** Emails with a link to one mailbox asked for from one address. */
  emailLinkPerAccountAndAddress: Limit;
  /**
   * Emails with a link sent to one mailbox from anywhere: past it the shop
   * answers as usual and sends nothing, so nobody floods a mailbox through
   * the shop, nor blocks its owner's own request with a refusal. (A reset
   * from the owner's own browser or address is sent anyway: auth.server.ts.)
   */
  emailLinkPerAccount: Limit;
  /** Links from an email used or checked from one address (a guesser of tokens runs out here). */
  emailTokenPerAddress: Limit;
  /** Common-password checks from one address (the new-password fields ask when they are left). */
  passwordCheckPerAddress: Limit;
}

const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = Object.freeze({
  signUpPerAddress: { points: 10, duration: 60 * 60 },
  signUpPerAccount: { points: 5, duration: 60 * 60 },
  loginPerAddress: { points: 30, duration: 10 * 60 },
  loginPerAccountAndAddress: { points: 5, duration: 15 * 60 },
  loginPerAccountFromUnknownDevices: { points: 30, duration: 60 * 60 },
  loginPerKnownDevice: { points: 5, duration: 15 * 60 },
  googlePerAddress: { points: 30, duration: 10 * 60 },
  emailLinkPerAddress: { points: 10, duration: 60 * 60 },
  emailLinkPerAccountAndAddress: { points: 3, duration: 60 * 60 },
  emailLinkPerAccount: { points: 10, duration: 60 * 60 },
  emailTokenPerAddress: { points: 30, duration: 10 * 60 },
  passwordCheckPerAddress: { points: 60, duration: 10 * 60 },
});

type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

type EmailLinkDecision = { allowed: true; send: boolean } | { allowed: false; retryAfterSeconds: number };

/** A counted login attempt: allowed (report a success to give it back) or refused. */
export type LoginAttempt =
  | { allowed: true; succeeded(): Promise<void> }
  | { allowed: false; retryAfterSeconds: number };

export interface AuthRateLimiter {
  /** Where the counters live, for the start-up log. */
  store: "redis" | "postgres" | "memory";
  signUp(address: string, email: string): Promise<RateLimitDecision>;
  /**
   * Counts a login attempt before the password is checked. `knownDevice` is
   * the id of a device cookie already verified for this email, or null.
   */
  login(address: string, email: string, knownDevice: string | null): Promise<LoginAttempt>;
  googleStart(address: string): Promise<RateLimitDecision>;
  /**
   * Counts an email with a link asked for `email` (whether or not it has an
   * account): refused for this address, or allowed, and then sent only while
   * the mailbox has not had its share (`send`).
   */
  emailLink(address: string, email: string): Promise<EmailLinkDecision>;
  /** Counts a use (or a check) of a link's token, before the token is looked up. */
  emailToken(address: string): Promise<RateLimitDecision>;
  /** Counts a common-password check, before the password is looked at. */
  passwordCheck(address: string): Promise<RateLimitDecision>;
}

export interface RateLimitStores {
  redis?: Redis;
  /** The shop's PostgreSQL pool, used when there is no Redis. */
  postgres?: pg.Pool | null;
}

const RATE_LIMIT_TABLE = "rate_limits";

export function createAuthRateLimiter(
  options: RateLimitStores & { limits?: Partial<RateLimits>; keyPrefix?: string } = {},
): AuthRateLimiter {
  const limits = { ...DEFAULT_RATE_LIMITS, ...options.limits };
  const prefix = options.keyPrefix ?? "backline:rl";
  const store = options.redis ? "redis" : options.postgres ? "postgres" : "memory";
  const make = (name: keyof RateLimits): RateLimiterAbstract => {
    const settings = { keyPrefix: `${prefix}:${name}`, ...limits[name] };
    const memory = new RateLimiterMemory(settings);
    if (options.redis) {
      return new RateLimiterRedis({
        ...settings,
        storeClient: options.redis,
        // Redis down or still connecting: count in memory instead of failing open.
        rejectIfRedisNotReady: true,
        insuranceLimiter: memory,
      });
    }
    if (options.postgres) {
      return new RateLimiterPostgres({
        ...settings,
        storeClient: options.postgres,
        storeType: "pool",
        tableName: RATE_LIMIT_TABLE,
        // The table comes with the shop's migrations.
        tableCreated: true,
        insuranceLimiter: memory,
      });
    }
    return memory;
  };
  const limiters = Object.fromEntries(
    (Object.keys(DEFAULT_RATE_LIMITS) as (keyof RateLimits)[]).map((name) => [name, make(name)]),
  ) as Record<keyof RateLimits, RateLimiterAbstract>;

  return {
    store,
    async signUp(address, email) {
      return combine(
        await Promise.all([
          consume(limiters.signUpPerAddress, addressKey(address)),
          consume(limiters.signUpPerAccount, accountKey(email)),
        ]),
      );
    },

    async login(address, email, knownDevice) {
      const perAddress = await consume(limiters.loginPerAddress, addressKey(address));
      if (!perAddress.allowed) return perAddress;
      const account = accountKey(email);
      // The counters this attempt takes a point from, and what a success gives back.
      const counted: [RateLimiterAbstract, string, "clear" | "give-back"][] = knownDevice
        ? [[limiters.loginPerKnownDevice, `${account}:${knownDevice}`, "clear"]]
        : [
            [limiters.loginPerAccountAndAddress, `${account}:${addressKey(address)}`, "clear"],
            [limiters.loginPerAccountFromUnknownDevices, account, "give-back"],
          ];
      // One counter after the other, stopping at the first refusal: an attempt
      // refused for this address never spends the account's budget for unknown
      // devices, so one guesser cannot use that budget up for everybody.
      for (const [limiter, key] of counted) {
        const decision = await consume(limiter, key);
        if (!decision.allowed) return decision;
      }
      return {
        allowed: true,
        async succeeded() {
          await Promise.all(
            counted.map(([limiter, key, release]) =>
              (release === "clear" ? limiter.delete(key) : limiter.reward(key, 1)).catch(logStoreError),
            ),
          );
        },
      };
    },

    async googleStart(address) {
      return consume(limiters.googlePerAddress, addressKey(address));
    },

    async emailLink(address, email) {
      // This address's counters first: a refused address never spends the mailbox's share.
      const perAddress = await consume(limiters.emailLinkPerAddress, addressKey(address));
      if (!perAddress.allowed) return perAddress;
      const perPair = await consume(
        limiters.emailLinkPerAccountAndAddress,
        `${accountKey(email)}:${addressKey(address)}`,
      );
      if (!perPair.allowed) return perPair;
      const perMailbox = await consume(limiters.emailLinkPerAccount, accountKey(email));
      return { allowed: true, send: perMailbox.allowed };
    },

    async emailToken(address) {
      return consume(limiters.emailTokenPerAddress, addressKey(address));
    },

    async passwordCheck(address) {
      return consume(limiters.passwordCheckPerAddress, addressKey(address));
    },
  };
}

/** Emails are keys, not data: hashed so the counters' store never holds them. */
export function accountKey(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("base64url");
}

async function consume(limiter: RateLimiterAbstract, key: string): Promise<RateLimitDecision> {
  try {
    await limiter.consume(key);
    return { allowed: true };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
    }
    // Only a limiter without insurance (none here) can get this far.
    logStoreError(rejection);
    return { allowed: true };
  }
}

/** The strictest of several decisions: the longest wait wins. */
function combine(decisions: RateLimitDecision[]): RateLimitDecision {
  let wait = 0;
  for (const decision of decisions) if (!decision.allowed) wait = Math.max(wait, decision.retryAfterSeconds);
  return wait > 0 ? { allowed: false, retryAfterSeconds: wait } : { allowed: true };
}

function logStoreError(error: unknown) {
  logger.warn({ err: error }, "rate-limit store failed");
}
