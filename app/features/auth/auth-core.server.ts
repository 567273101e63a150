import { AsyncLocalStorage } from "node:async_hooks";
import { isAPIError } from "better-auth/api";
import type { Database } from "~/db/client.server";
import { logFailure } from "~/utils/logger.server";
import type { MailQueue } from "~/utils/mail-queue.server";
import { type AccountLinks, createAccountLinks } from "./account-links.server";
import { type AuthTables, createAuthTables } from "./auth-tables.server";
import { type BetterAuthInstance, createBetterAuth, type GoogleSettings } from "./better-auth.server";
import { createDeviceCookies, type DeviceCookies } from "./device-cookie.server";
import type { AuthRateLimiter } from "./rate-limit.server";
import type { SessionUser } from "./session-user";

/**
 * What every account service stands on: the Better Auth instance, Better
 * Auth's tables (auth-tables.server.ts), the rate limiter, the emailed links
 * (through the mail queue) and the device cookies. The services
 * (app/features/auth/services) each take the core and the visitor they work
 * for; auth.server.ts puts them together.
 */
export interface AuthServiceOptions {
  db: Database;
  secret: string;
  /** The shop's public origin, e.g. https://shop.example.com. */
  baseUrl: string;
  google: GoogleSettings | null;
  limiter: AuthRateLimiter;
  /** The durable queue the account emails (password reset, email confirmation) go out through. */
  mail: MailQueue;
  /** OWNER_EMAILS: accounts that are owners once their email is confirmed (docs/decisions/0029). */
  ownerEmails?: string[];
}

/**
 * Who asks: this request (its cookies) and its client's address, which the
 * HTTP layer resolved once (TRUST_PROXY honoured; server/shop-server.ts).
 * Rate limits and logs key on the address; sessions record it.
 */
export interface Visitor {
  request: Request;
  address: string;
}

export interface AuthCore {
  /** The Better Auth instance, made on first use. */
  auth(): BetterAuthInstance;
  /**
   * Runs Better Auth's work for this visitor: a session it creates records
   * the visitor's address (Better Auth's session hook reads it from here).
   */
  asVisitor<T>(visitor: Visitor, work: () => Promise<T>): Promise<T>;
  tables: AuthTables;
  /** The shop's database, for what is the shop's own and not Better Auth's (the role). */
  db: Database;
  ownerEmails: string[];
  limiter: AuthRateLimiter;
  links: AccountLinks;
  deviceCookies: DeviceCookies;
  mail: MailQueue;
  baseUrl: string;
  google: GoogleSettings | null;
  /** Served over https: cookies are Secure (and the session cookie __Secure-). */
  secureCookies: boolean;
}

export function createAuthCore(options: AuthServiceOptions): AuthCore {
  const visitors = new AsyncLocalStorage<Visitor>();
  // Created on first use, not at start-up: OpenID discovery against the demo
  // provider needs this very server to be listening already.
  let instance: BetterAuthInstance | undefined;
  const auth = () => {
    instance ??= createBetterAuth({
      db: options.db,
      secret: options.secret,
      baseUrl: options.baseUrl,
      google: options.google,
      clientAddress: () => visitors.getStore()?.address,
    });
    return instance;
  };
  const secureCookies = options.baseUrl.startsWith("https://");
  return {
    auth,
    asVisitor: (visitor, work) => visitors.run(visitor, work),
    tables: createAuthTables(options.db, async () => (await auth().$context).internalAdapter),
    db: options.db,
    ownerEmails: options.ownerEmails ?? [],
    limiter: options.limiter,
    links: createAccountLinks({ mail: options.mail, baseUrl: options.baseUrl }),
    deviceCookies: createDeviceCookies({ secret: options.secret, secure: secureCookies }),
    mail: options.mail,
    baseUrl: options.baseUrl,
    google: options.google,
    secureCookies,
  };
}

/** The database (or another service the shop needs) failed: nothing was changed, try again later. */
export type Unavailable = { ok: false; reason: "unavailable" };

export type RateLimited = { ok: false; reason: "rate-limited"; retryAfterSeconds: number };

export function rateLimited(retryAfterSeconds: number): RateLimited {
  return { ok: false, reason: "rate-limited", retryAfterSeconds };
}

/** Anything but an answer from Better Auth about the input: the database or the network failed. */
export function unavailable(error: unknown, action: string): Unavailable {
  logFailure(error, `${action} failed`);
  return { ok: false, reason: "unavailable" };
}

/** Better Auth refused the input (4xx): not a failure of the shop. */
export function isRefusal(error: unknown): boolean {
  return isAPIError(error) && error.statusCode < 500;
}

/** Better Auth's code for a refusal (USER_ALREADY_EXISTS, …). */
export function errorCode(error: unknown): string | undefined {
  if (!isAPIError(error)) return undefined;
  const body = error.body as { code?: string } | undefined;
  return body?.code;
}

export function toSessionUser(user: {
  id: string;
  name: string;
  email: string;
  emailVerified?: boolean;
  image?: string | null;
}): SessionUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerified ?? false,
    image: user.image ?? null,
  };
}
