import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { isAPIError } from "better-auth/api";
import { betterAuth } from "better-auth/minimal";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import Bowser from "bowser";
import { and, desc, eq, gt, ne } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { accounts, sessions, users, verifications } from "~/db/schema";
import { addressKey, clientAddress } from "~/utils/client-address.server";
import { logFailure, logger } from "~/utils/logger.server";
import type { MailQueue } from "~/utils/mail-queue.server";
import { emailChangedNotice } from "./account-email.server";
import {
  confirmationIdentifier,
  createAccountLinks,
  forgetPendingLinks,
  parseVerificationClaim,
  resetIdentifier,
} from "./account-links.server";
import { emailSchema, type LoginInput, nameSchema, photoSchema, type SignUpInput } from "./auth-schema";
import { isCommonPassword } from "./common-passwords.server";
import { createDeviceCookies } from "./device-cookie.server";
import type { GoogleAvailability } from "./google-sign-in-message";
import { hashPassword, needsRehash, verifyPassword } from "./password-hasher.server";
import type { AuthRateLimiter } from "./rate-limit.server";
import { pastAbsoluteLifetime, withAbsoluteSessionLifetime } from "./session-lifetime.server";
import type { SessionUser } from "./session-user";

/**
 * Accounts and sessions, through Better Auth. Routes never call Better Auth
 * directly: they call this service, which adds what the shop needs around it
 * (rate limits, the client address, one answer for every failed login, the
 * race between simultaneous sign-ups). See docs/decisions/0004-accounts-with-better-auth.md.
 */
export const GOOGLE_PROVIDER_ID = "google";
export const AUTH_BASE_PATH = "/api/auth";
/** Better Auth reads the client address for session records from this header, which only the shop sets. */
const CLIENT_ADDRESS_HEADER = "x-backline-client-address";

const DAY = 60 * 60 * 24;
/** How recent a sign-in must be to stand in for the password (accounts without one: Google only). */
const RECENT_SIGN_IN_SECONDS = 10 * 60;

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  /** The OpenID Connect issuer; discovery at `${issuer}/.well-known/openid-configuration`. */
  issuerUrl: string;
  /** "demo": the local stand-in (no account linking, ever); "google": the real thing. */
  kind: "google" | "demo";
}

export interface AuthServiceOptions {
  db: Database;
  secret: string;
  /** The shop's public origin, e.g. https://shop.example.com. */
  baseUrl: string;
  google: GoogleSettings | null;
  limiter: AuthRateLimiter;
  /** TRUST_PROXY: reverse proxies whose X-Forwarded-For entries are believed. */
  trustedProxies: number;
  /** The durable queue the account emails (password reset, email confirmation) go out through. */
  mail: MailQueue;
}

/** The database (or another service the shop needs) failed: nothing was changed, try again later. */
type Unavailable = { ok: false; reason: "unavailable" };

type SignUpResult =
  | { ok: true; headers: Headers; user: SessionUser }
  | { ok: false; reason: "email-taken" }
  | { ok: false; reason: "rate-limited"; retryAfterSeconds: number }
  | Unavailable;

type LogInResult =
  | { ok: true; headers: Headers; user: SessionUser }
  | { ok: false; reason: "invalid-credentials" }
  | { ok: false; reason: "rate-limited"; retryAfterSeconds: number }
  | Unavailable;

type RateLimited = { ok: false; reason: "rate-limited"; retryAfterSeconds: number };

/** What a link from an email leads to: it works, or it is unknown, used or expired (one answer for all three). */
type TokenResult<T = object> =
  | ({ ok: true } & T)
  | { ok: false; reason: "invalid-token" }
  | RateLimited
  | Unavailable;

/** One of the shopper's signed-in sessions, as the account page lists it (never its token). */
interface SessionSummary {
  id: string;
  /** "Chrome on Linux", or "Unknown device". */
  device: string;
  address: string | null;
  lastActive: string;
  signedInAt: string;
  current: boolean;
}

interface AccountOverview {
  user: SessionUser;
  /** The account signs in with a password (otherwise with Google only). */
  hasPassword: boolean;
  sessions: SessionSummary[];
}

/** Who asks for a sensitive change proves it is them: the password, or (no password) a sign-in of the last minutes. */
type IdentityRefused =
  | { ok: false; reason: "wrong-password" }
  | { ok: false; reason: "sign-in-again" }
  | RateLimited;

type GoogleStartResult =
  | { ok: true; url: string; headers: Headers }
  | { ok: false; reason: "not-configured" }
  | { ok: false; reason: "rate-limited"; retryAfterSeconds: number };

export interface AuthService {
  google: GoogleAvailability;
  /** Served over https: cookies are Secure (and the session cookie __Secure-). */
  secureCookies: boolean;
  /** Origins a login form may be redirected to (the identity provider), for the CSP's form-action. */
  formActionOrigins: string[];
  /** The requesting client's address, honouring TRUST_PROXY. */
  addressOf(request: Request, socketAddress: string): string;
  /** The signed-in user, plus any Set-Cookie that refreshes the session. */
  getSession(request: Request): Promise<{ user: SessionUser | null; headers: Headers }>;
  signUp(request: Request, input: SignUpInput, address: string): Promise<SignUpResult>;
  logIn(request: Request, input: LoginInput, address: string): Promise<LogInResult>;
  /** Deletes the session on the server; the headers clear the cookies. */
  logOut(request: Request): Promise<Headers>;
  startGoogle(
    request: Request,
    address: string,
    urls: { callbackURL: string; errorCallbackURL: string },
  ): Promise<GoogleStartResult>;
  /**
   * Emails a password-reset link when `email` has an account; the answer is
   * the same when it has none (the email goes out after it, from the queue;
   * only the link's one small write differs: docs/decisions/0025).
   */
  requestPasswordReset(
    request: Request,
    email: string,
    address: string,
  ): Promise<{ ok: true } | RateLimited | Unavailable>;
  /** Whether the shop refuses `password` as too common (asked when a new-password field is left); counted per address. */
  checkCommonPassword(
    password: string,
    address: string,
  ): Promise<{ ok: true; tooCommon: boolean } | RateLimited>;
  /** Whether a password-reset link still works (the page shows its form, or says it has expired). */
  checkPasswordResetToken(token: string, address: string): Promise<TokenResult>;
  /** Sets the new password, uses the link up and ends every session of the account. */
  resetPassword(token: string, password: string, address: string): Promise<TokenResult>;
  /** Emails the signed-in user a link that confirms their email address. */
  sendEmailVerification(
    user: SessionUser,
    address: string,
  ): Promise<{ ok: true } | { ok: false; reason: "already-verified" } | RateLimited | Unavailable>;
  /**
   * Marks the email of the link's account as confirmed (or, for an email
   * change, makes the new address its email), and uses the link up. Only the
   * account's own signed-in owner may: a link clicked by anyone else (a
   * victim whose address someone else registered) changes nothing.
   */
  verifyEmail(
    token: string,
    signedInUserId: string,
    address: string,
  ): Promise<TokenResult<{ userId: string; changed: boolean }>>;
  /** The signed-in shopper's account: the password question and the sessions; null when signed out. */
  accountOverview(request: Request): Promise<AccountOverview | null>;
  /** Ends one of the signed-in shopper's sessions (by its id); false when it is not theirs. */
  revokeSession(request: Request, sessionId: string): Promise<boolean>;
  /** Ends every session of the signed-in shopper but this one; resolves with how many ended. */
  revokeOtherSessions(request: Request): Promise<number>;
  /** A new password, the current one required; every other session ends. */
  changePassword(
    request: Request,
    input: { currentPassword: string; newPassword: string },
    address: string,
  ): Promise<
    { ok: true; headers: Headers } | { ok: false; reason: "no-password" } | IdentityRefused | Unavailable
  >;
  /**
   * Emails the new address a link that makes it the account's email. The
   * answer is the same whether or not the address has an account already.
   */
  requestEmailChange(
    request: Request,
    input: { newEmail: string; password: string | undefined },
    address: string,
  ): Promise<{ ok: true } | IdentityRefused | Unavailable>;
  /** Deletes the account, its sessions and personal data; the headers clear the cookies. */
  deleteAccount(
    request: Request,
    input: { password: string | undefined },
    address: string,
  ): Promise<{ ok: true; headers: Headers } | IdentityRefused | Unavailable>;
  /** Sets the signed-in user's name and photo. */
  updateProfile(
    request: Request,
    profile: { name: string; image: string | null },
  ): Promise<SessionUser | null>;
  /** Better Auth's own HTTP endpoints (only the OAuth callback is routed here). */
  handler(request: Request, address: string): Promise<Response>;
}

function createBetterAuth(options: AuthServiceOptions) {
  const { google } = options;
  return betterAuth({
    appName: "Backline",
    baseURL: options.baseUrl,
    basePath: AUTH_BASE_PATH,
    secret: options.secret,
    trustedOrigins: [options.baseUrl],
    // Every session read through it ends at the absolute lifetime (30 days
    // from the sign-in), whichever of Better Auth's paths reads it.
    database: withAbsoluteSessionLifetime(
      drizzleAdapter(options.db, {
        provider: "pg",
        schema: { user: users, session: sessions, account: accounts, verification: verifications },
        // A sign-up writes the user and its password in one transaction: a
        // failure part-way (the database killed, a full disk) leaves no user
        // without a password behind, so the email can sign up again.
        transaction: true,
      }),
    ),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      // The shop's own rules (6–20, character classes, common passwords) are
      // enforced before Better Auth is called; these are only its outer bounds.
      minPasswordLength: 6,
      maxPasswordLength: 128,
      password: {
        hash: hashPassword,
        verify: ({ hash, password }) => verifyPassword(hash, password),
      },
      // Reset tokens are made by the shop (account-links.server.ts), with
      // their email in one transaction; Better Auth's resetPassword uses them.
      // A new password ends what was pending for the account (an email change asked for by whoever knew the old one).
      onPasswordReset: async ({ user }) => forgetPendingLinks(options.db, user.id),
      // A new password ends every session, the thief's too (in the same transaction).
      revokeSessionsOnPasswordReset: true,
    },
    // Reset tokens, confirmation tokens and OAuth states are kept as hashes:
    // a copy of the database holds no link that works.
    verification: { storeIdentifier: "hashed" },
    session: {
      expiresIn: 7 * DAY,
      // Sliding expiry: an active session is extended at most once a day.
      updateAge: DAY,
      // No cookie cache: every request checks the session row, so logging out
      // (or any revocation) takes effect at once, within PRODUCT's 300 s bound.
      cookieCache: { enabled: false },
    },
    account: {
      accountLinking: {
        // The demo provider asserts whatever email is typed into it: it may
        // never take over an existing account. Real Google joins an existing
        // account only when both sides have verified the email: Google's
        // email_verified, and the shop's own verification of the account's
        // email — otherwise whoever registered the address first (perhaps not
        // its owner) would keep access to the owner's account. Until the shop
        // verifies emails, the visitor is told to log in with the password.
        enabled: google?.kind === "google",
        trustedProviders: [],
        requireLocalEmailVerified: true,
      },
    },
    // The shop's own limiter (per address and per account, shared by every process) guards
    // the account endpoints; Better Auth's HTTP routes other than the OAuth
    // callback are not exposed at all.
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: options.baseUrl.startsWith("https://"),
      cookiePrefix: "backline",
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    telemetry: { enabled: false },
    // OAuth errors that happen before the shop's own error URL is known land here.
    onAPIError: { errorURL: "/auth/google/done" },
    logger: {
      level: "warn",
      log: (level, message, ...args) => {
        // Only an error argument is kept, and it goes through the logger's
        // serialiser, which keeps query values (emails, names) out of the log;
        // other arguments (a user, an email) are dropped.
        const error = args.find((arg) => typeof arg === "object" && arg !== null);
        const payload = error ? { err: error } : {};
        // Better Auth reports what a client got wrong (a forged or stale OAuth
        // state, an unknown code) as errors of its own kind: those are the
        // client's, logged as warnings. A failure underneath (the database) stays an error.
        const clientsMistake = !error || (error as { name?: unknown }).name === "BetterAuthError";
        if (level === "error" && !clientsMistake) logFailure(error, `auth: ${message}`);
        else if (level === "error" || level === "warn") logger.warn(payload, `auth: ${message}`);
        else logger.debug(payload, `auth: ${message}`);
      },
    },
    plugins: google
      ? [
          genericOAuth({
            config: [
              {
                providerId: GOOGLE_PROVIDER_ID,
                name: "Google",
                clientId: google.clientId,
                clientSecret: google.clientSecret,
                discoveryUrl: `${google.issuerUrl}/.well-known/openid-configuration`,
                scopes: ["openid", "email", "profile"],
                pkce: true,
                // ID tokens are checked against the issuer's keys, audience and our nonce.
                requireIdTokenVerification: true,
                authentication: "basic",
                // The demo always shows its form; Google lets the user pick an account.
                prompt: google.kind === "demo" ? "login" : "select_account",
                mapProfileToUser: profileFromProvider,
              },
            ],
          }),
        ]
      : [],
  });
}

type BetterAuthInstance = ReturnType<typeof createBetterAuth>;

/**
 * What an identity provider says about a person, held to the shop's own rules
 * before it is stored: an email that is not one is dropped (the sign-in then
 * fails cleanly), a name with control characters gives way to the email's
 * first part, a photo that is not an http(s) URL to the initials.
 */
export function profileFromProvider(profile: { email?: unknown; name?: unknown; image?: unknown }) {
  const email = emailSchema.safeParse(profile.email);
  const name = nameSchema.safeParse(profile.name);
  const photo = photoSchema.safeParse(profile.image);
  const fallbackName = email.success ? (email.data.split("@")[0] ?? "Shopper") : "Shopper";
  return {
    email: email.success ? email.data : null,
    name: name.success ? name.data : fallbackName,
    image: photo.success ? photo.data : undefined,
  };
}

function toSessionUser(user: {
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

function isUniqueViolation(error: unknown): boolean {
  for (
    let current = error;
    current && typeof current === "object";
    current = (current as { cause?: unknown }).cause
  ) {
    if ((current as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/** "Chrome on Linux": what a shopper recognises of a session's browser. */
function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name;
  const system = parsed.os.name;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}

function rateLimited(retryAfterSeconds: number): RateLimited {
  return { ok: false, reason: "rate-limited", retryAfterSeconds };
}

function errorCode(error: unknown): string | undefined {
  if (!isAPIError(error)) return undefined;
  const body = error.body as { code?: string } | undefined;
  return body?.code;
}

export function createAuthService(options: AuthServiceOptions): AuthService {
  // Created on first use, not at start-up: OpenID discovery against the demo
  // provider needs this very server to be listening already.
  let instance: BetterAuthInstance | undefined;
  const auth = () => {
    instance ??= createBetterAuth(options);
    return instance;
  };
  const { limiter, db } = options;
  const secureCookies = options.baseUrl.startsWith("https://");
  const deviceCookies = createDeviceCookies({ secret: options.secret, secure: secureCookies });
  const links = createAccountLinks({ mail: options.mail, baseUrl: options.baseUrl });

  /** The request's headers for Better Auth, with the client address only the shop may set. */
  const headersFor = (request: Request, address?: string) => {
    const headers = new Headers(request.headers);
    headers.delete(CLIENT_ADDRESS_HEADER);
    if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
    return headers;
  };

  /** The signed-in session as Better Auth knows it (id, token, when it signed in), or null. */
  const currentSession = async (request: Request) => {
    const found = await auth().api.getSession({
      headers: headersFor(request),
      query: { disableRefresh: true },
    });
    return found ? { session: found.session, user: toSessionUser(found.user) } : null;
  };

  const currentSessionToken = async (request: Request): Promise<string | null> =>
    (await currentSession(request))?.session.token ?? null;

  /** A new sign-in replaces any session the browser already had (no session fixation, nothing left behind). */
  const revoke = async (token: string | null) => {
    if (token) await db.delete(sessions).where(eq(sessions.token, token));
  };

  /**
   * Whether the request comes from the account's owner as far as the shop can
   * tell: a browser carrying the account's device cookie, or an address one of
   * its sessions was signed in from (IPv6 by its /64, as the limits count it).
   */
  const isOwnersClient = async (request: Request, email: string, address: string): Promise<boolean> => {
    if (await deviceCookies.knownDevice(request, email)) return true;
    const signedInFrom = await db
      .select({ address: sessions.ipAddress })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(users.email, email));
    const key = addressKey(address);
    return signedInFrom.some((session) => session.address !== null && addressKey(session.address) === key);
  };

  const accountIdOf = async (email: string): Promise<string | null> => {
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    return row?.id ?? null;
  };

  /**
   * After a successful login, a password hashed with weaker parameters than
   * today's (an account from before they were raised) is hashed again: the
   * login is the only moment the shop has the password. Best effort: the
   * login stands even if this fails.
   */
  const upgradePasswordHash = async (userId: string, password: string) => {
    try {
      const [credential] = await db
        .select({ id: accounts.id, password: accounts.password })
        .from(accounts)
        .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
        .limit(1);
      if (!credential?.password || !needsRehash(credential.password)) return;
      await db
        .update(accounts)
        .set({ password: await hashPassword(password), updatedAt: new Date() })
        .where(eq(accounts.id, credential.id));
      logger.info({ event: "password.rehashed", accountId: userId }, "password hash upgraded");
    } catch (error) {
      logFailure(error, "password hash upgrade failed");
    }
  };

  /**
   * Sign-in events for the operator: account id and client address, never
   * the email. An unknown email is logged as accountId null.
   */
  const logSignIn = async (
    event: "login.succeeded" | "login.failed" | "login.rate_limited" | "sign_up.rate_limited",
    details: { email: string; address: string; accountId?: string; retryAfterSeconds?: number },
  ) => {
    const accountId = details.accountId ?? (await accountIdOf(details.email).catch(() => null));
    const fields = {
      event,
      accountId,
      address: details.address,
      retryAfterSeconds: details.retryAfterSeconds,
    };
    const message = {
      "login.succeeded": "sign-in succeeded",
      "login.failed": "sign-in failed",
      "login.rate_limited": "sign-in refused: too many attempts",
      "sign_up.rate_limited": "sign-up refused: too many attempts",
    }[event];
    if (event === "login.succeeded") logger.info(fields, message);
    else logger.warn(fields, message);
  };

  /** Anything but an answer from Better Auth about the input: the database or the network failed. */
  const unavailable = (error: unknown, action: string): Unavailable => {
    logFailure(error, `${action} failed`);
    return { ok: false, reason: "unavailable" };
  };

  const internal = async () => (await auth().$context).internalAdapter;

  const passwordHashOf = async (userId: string): Promise<string | null> => {
    const [credential] = await db
      .select({ password: accounts.password })
      .from(accounts)
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
      .limit(1);
    return credential?.password ?? null;
  };

  /**
   * A sensitive change (password, email, deletion) needs a recent proof of
   * identity: the password, counted like a login attempt before it is
   * checked; an account without a password needs a sign-in of the last ten minutes.
   */
  const confirmIdentity = async (
    request: Request,
    signedIn: { session: { createdAt: Date | string }; user: SessionUser },
    password: string | undefined,
    address: string,
  ): Promise<IdentityRefused | null> => {
    const hash = await passwordHashOf(signedIn.user.id);
    if (!hash) {
      const age = (Date.now() - new Date(signedIn.session.createdAt).getTime()) / 1000;
      return age <= RECENT_SIGN_IN_SECONDS ? null : { ok: false, reason: "sign-in-again" };
    }
    const knownDevice = await deviceCookies.knownDevice(request, signedIn.user.email);
    const attempt = await limiter.login(address, signedIn.user.email, knownDevice);
    if (!attempt.allowed) {
      return rateLimited(attempt.retryAfterSeconds);
    }
    if (!password || !(await verifyPassword(hash, password))) {
      logger.warn(
        { event: "identity.refused", accountId: signedIn.user.id, address },
        "password re-entry failed",
      );
      return { ok: false, reason: "wrong-password" };
    }
    await attempt.succeeded();
    return null;
  };

  /** Counts the use of a link's token; refused, it is not looked up at all. */
  const countTokenUse = async (address: string): Promise<RateLimited | null> => {
    const decision = await limiter.emailToken(address);
    if (decision.allowed) return null;
    logger.warn({ event: "email_token.rate_limited", address }, "email link refused: too many attempts");
    return rateLimited(decision.retryAfterSeconds);
  };

  return {
    google: options.google ? (options.google.kind === "demo" ? "demo" : "configured") : "not-configured",
    secureCookies,
    formActionOrigins: options.google ? [new URL(options.google.issuerUrl).origin] : [],

    addressOf(request, socketAddress) {
      return clientAddress(socketAddress, request.headers.get("x-forwarded-for"), options.trustedProxies);
    },

    async getSession(request) {
      // A session past its absolute lifetime reads as expired (session-lifetime.server.ts):
      // Better Auth deletes it and the headers clear its cookie.
      const { headers, response } = await auth().api.getSession({
        headers: headersFor(request),
        returnHeaders: true,
      });
      return { user: response ? toSessionUser(response.user) : null, headers };
    },

    async signUp(request, input, address) {
      const decision = await limiter.signUp(address, input.email);
      if (!decision.allowed) {
        await logSignIn("sign_up.rate_limited", { ...decision, email: input.email, address });
        return rateLimited(decision.retryAfterSeconds);
      }
      try {
        const previous = await currentSessionToken(request);
        const { headers, response } = await auth().api.signUpEmail({
          body: { name: input.name, email: input.email, password: input.password, image: input.photo },
          headers: headersFor(request, address),
          returnHeaders: true,
        });
        await revoke(previous);
        // The browser an account was created in is one of its owner's devices.
        headers.append("Set-Cookie", await deviceCookies.remember(request, input.email));
        // The account works at once; the confirmation only matters for joining a Google identity.
        await links
          .emailConfirmation(response.user)
          .catch((error: unknown) => logFailure(error, "email confirmation after sign-up failed"));
        return { ok: true, headers, user: toSessionUser(response.user) };
      } catch (error) {
        const code = errorCode(error);
        if (code === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" || code === "USER_ALREADY_EXISTS") {
          return { ok: false, reason: "email-taken" };
        }
        // Two sign-ups for one email at the same moment: both passed Better
        // Auth's "does it exist?" check, the unique index let only one insert win.
        if (code === "FAILED_TO_CREATE_USER" && (await accountIdOf(input.email).catch(() => null))) {
          return { ok: false, reason: "email-taken" };
        }
        return unavailable(error, "sign-up");
      }
    },

    async logIn(request, input, address) {
      // Counted before the password is checked: simultaneous guesses cannot
      // all get through while the first ones are still being hashed.
      const knownDevice = await deviceCookies.knownDevice(request, input.email);
      const attempt = await limiter.login(address, input.email, knownDevice);
      if (!attempt.allowed) {
        await logSignIn("login.rate_limited", { ...attempt, email: input.email, address });
        return rateLimited(attempt.retryAfterSeconds);
      }
      try {
        const previous = await currentSessionToken(request);
        const { headers, response } = await auth().api.signInEmail({
          body: { email: input.email, password: input.password },
          headers: headersFor(request, address),
          returnHeaders: true,
        });
        await attempt.succeeded();
        await revoke(previous);
        await upgradePasswordHash(response.user.id, input.password);
        headers.append("Set-Cookie", await deviceCookies.remember(request, input.email));
        await logSignIn("login.succeeded", { email: input.email, address, accountId: response.user.id });
        return { ok: true, headers, user: toSessionUser(response.user) };
      } catch (error) {
        // Unknown email, wrong password, an account without a password: one answer.
        if (isAPIError(error) && error.statusCode < 500) {
          await logSignIn("login.failed", { email: input.email, address });
          return { ok: false, reason: "invalid-credentials" };
        }
        return unavailable(error, "login");
      }
    },

    async logOut(request) {
      try {
        const { headers } = await auth().api.signOut({ headers: headersFor(request), returnHeaders: true });
        return headers;
      } catch (error) {
        // No session to end (already logged out, or it expired): nothing to do.
        if (isAPIError(error) && error.statusCode < 500) return new Headers();
        throw error;
      }
    },

    async startGoogle(request, address, urls) {
      if (!options.google) return { ok: false, reason: "not-configured" };
      const decision = await limiter.googleStart(address);
      if (!decision.allowed) return rateLimited(decision.retryAfterSeconds);
      const { headers, response } = await auth().api.signInSocial({
        body: {
          provider: GOOGLE_PROVIDER_ID,
          callbackURL: urls.callbackURL,
          errorCallbackURL: urls.errorCallbackURL,
          disableRedirect: true,
        },
        headers: headersFor(request, address),
        returnHeaders: true,
      });
      if (!response.url) throw new Error("Google sign-in did not return an authorization URL");
      return { ok: true, url: response.url, headers };
    },

    async requestPasswordReset(request, email, address) {
      const decision = await limiter.emailLink(address, email);
      if (!decision.allowed) {
        logger.warn(
          { event: "password_reset.rate_limited", address },
          "password reset refused: too many attempts",
        );
        return rateLimited(decision.retryAfterSeconds);
      }
      try {
        // A mailbox that had its share of emails this hour gets nothing more
        // from strangers, and the answer is the usual one (the look-up keeps
        // its timing alike). Its owner's own browser or address still gets a
        // link: other people's requests must not stop the owner's reset.
        if (!decision.send && !(await isOwnersClient(request, email, address))) return { ok: true };
        // The link's token and its email are written together; the email goes
        // out from the queue, after the answer. An unknown email gets the same
        // answer, with nothing stored or sent.
        const [account] = await db
          .select({ id: users.id, email: users.email })
          .from(users)
          .where(eq(users.email, email))
          .limit(1);
        if (account) await links.emailPasswordReset(account);
        logger.info({ event: "password_reset.requested", address }, "password reset asked for");
        return { ok: true };
      } catch (error) {
        return unavailable(error, "password reset request");
      }
    },

    async checkCommonPassword(password, address) {
      const decision = await limiter.passwordCheck(address);
      if (!decision.allowed) return rateLimited(decision.retryAfterSeconds);
      return { ok: true, tooCommon: isCommonPassword(password) };
    },

    async checkPasswordResetToken(token, address) {
      const refused = await countTokenUse(address);
      if (refused) return refused;
      try {
        const found = await (await internal()).findVerificationValue(resetIdentifier(token));
        return found && found.expiresAt > new Date() ? { ok: true } : { ok: false, reason: "invalid-token" };
      } catch (error) {
        return unavailable(error, "password reset link check");
      }
    },

    async resetPassword(token, password, address) {
      const refused = await countTokenUse(address);
      if (refused) return refused;
      try {
        await auth().api.resetPassword({ body: { token, newPassword: password } });
        logger.info({ event: "password_reset.completed", address }, "password reset; every session ended");
        return { ok: true };
      } catch (error) {
        if (isAPIError(error) && error.statusCode < 500) return { ok: false, reason: "invalid-token" };
        return unavailable(error, "password reset");
      }
    },

    async sendEmailVerification(user, address) {
      const decision = await limiter.emailLink(address, user.email);
      if (!decision.allowed) {
        return rateLimited(decision.retryAfterSeconds);
      }
      try {
        const [row] = await db
          .select({ verified: users.emailVerified })
          .from(users)
          .where(eq(users.id, user.id))
          .limit(1);
        if (!row || row.verified) return { ok: false, reason: "already-verified" };
        // The shopper's own mailbox had its share this hour: they are told to wait.
        if (!decision.send) return rateLimited(60 * 60);
        await links.emailConfirmation(user);
        return { ok: true };
      } catch (error) {
        return unavailable(error, "email confirmation");
      }
    },

    async verifyEmail(token, signedInUserId, address) {
      const refused = await countTokenUse(address);
      if (refused) return refused;
      try {
        const adapter = await internal();
        const identifier = confirmationIdentifier(token);
        const found = await adapter.findVerificationValue(identifier);
        const pending = found ? parseVerificationClaim(found.value) : null;
        // Another account's link stays unused, for its owner.
        if (!pending || pending.userId !== signedInUserId) return { ok: false, reason: "invalid-token" };
        // Used up by the first request that presents it, even one that races another.
        const used = await adapter.consumeVerificationValue(identifier);
        const claim = used ? parseVerificationClaim(used.value) : null;
        if (!claim) return { ok: false, reason: "invalid-token" };
        // The link confirms the address it was sent to: an account whose email
        // has changed since is not confirmed by it. A change's link makes its
        // new address the account's email, confirmed by this very click; in
        // the same transaction whatever was sent to the old address (a reset
        // link, another change) stops working, and the old address's notice
        // is written.
        const { newEmail } = claim;
        const confirmed = await options.mail
          .transaction(async (tx, add) => {
            const updated = await tx
              .update(users)
              .set({ email: newEmail ?? claim.email, emailVerified: true, updatedAt: new Date() })
              .where(and(eq(users.id, claim.userId), eq(users.email, claim.email)))
              .returning({ id: users.id });
            if (updated.length === 0 || !newEmail) return updated.length > 0;
            await forgetPendingLinks(tx, claim.userId);
            await add(emailChangedNotice(claim.email, newEmail, options.baseUrl));
            return true;
          })
          .catch((error: unknown) => {
            // The new address got an account of its own meanwhile (the unique index).
            if (newEmail && isUniqueViolation(error)) return false;
            throw error;
          });
        if (!confirmed) return { ok: false, reason: "invalid-token" };
        const event = claim.newEmail ? "email.changed" : "email.verified";
        logger.info(
          { event, accountId: claim.userId, address },
          claim.newEmail ? "email changed" : "email confirmed",
        );
        return { ok: true, userId: claim.userId, changed: Boolean(claim.newEmail) };
      } catch (error) {
        return unavailable(error, "email confirmation");
      }
    },

    async accountOverview(request) {
      const signedIn = await currentSession(request);
      if (!signedIn) return null;
      const now = Date.now();
      const rows = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, signedIn.user.id), gt(sessions.expiresAt, new Date(now))))
        .orderBy(desc(sessions.updatedAt));
      return {
        user: signedIn.user,
        hasPassword: (await passwordHashOf(signedIn.user.id)) !== null,
        // A session past its absolute lifetime is over, though its row waits for its next read to go.
        sessions: rows
          .filter((row) => !pastAbsoluteLifetime(row.createdAt, now))
          .map((row) => ({
            id: row.id,
            device: describeDevice(row.userAgent),
            address: row.ipAddress,
            lastActive: row.updatedAt.toISOString(),
            signedInAt: row.createdAt.toISOString(),
            current: row.id === signedIn.session.id,
          })),
      };
    },

    async revokeSession(request, sessionId) {
      const signedIn = await currentSession(request);
      if (!signedIn) return false;
      const ended = await db
        .delete(sessions)
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, signedIn.user.id)))
        .returning({ id: sessions.id });
      return ended.length > 0;
    },

    async revokeOtherSessions(request) {
      const signedIn = await currentSession(request);
      if (!signedIn) return 0;
      const ended = await db
        .delete(sessions)
        .where(and(eq(sessions.userId, signedIn.user.id), ne(sessions.id, signedIn.session.id)))
        .returning({ id: sessions.id });
      return ended.length;
    },

    async changePassword(request, input, address) {
      try {
        const signedIn = await currentSession(request);
        if (!signedIn) return { ok: false, reason: "sign-in-again" };
        // An account made with Google has no password to change.
        if (!(await passwordHashOf(signedIn.user.id))) return { ok: false, reason: "no-password" };
        const refused = await confirmIdentity(request, signedIn, input.currentPassword, address);
        if (refused) return refused;
        const { headers } = await auth().api.changePassword({
          body: {
            currentPassword: input.currentPassword,
            newPassword: input.newPassword,
            revokeOtherSessions: true,
          },
          headers: headersFor(request, address),
          returnHeaders: true,
        });
        await forgetPendingLinks(db, signedIn.user.id);
        logger.info(
          { event: "password.changed", accountId: signedIn.user.id, address },
          "password changed; other sessions ended",
        );
        return { ok: true, headers };
      } catch (error) {
        return unavailable(error, "password change");
      }
    },

    async requestEmailChange(request, input, address) {
      try {
        const signedIn = await currentSession(request);
        if (!signedIn) return { ok: false, reason: "sign-in-again" };
        const refused = await confirmIdentity(request, signedIn, input.password, address);
        if (refused) return refused;
        const decision = await limiter.emailLink(address, input.newEmail);
        if (!decision.allowed) {
          return rateLimited(decision.retryAfterSeconds);
        }
        // An address that has an account already gets nothing, and neither the
        // answer nor its timing says so: its token is made all the same and
        // never sent (the change would fail at the link anyway).
        const taken = input.newEmail === signedIn.user.email || (await accountIdOf(input.newEmail)) !== null;
        await links.emailConfirmation(signedIn.user, input.newEmail, { send: decision.send && !taken });
        logger.info(
          { event: "email_change.requested", accountId: signedIn.user.id, address },
          "email change asked for",
        );
        return { ok: true };
      } catch (error) {
        return unavailable(error, "email change");
      }
    },

    async deleteAccount(request, input, address) {
      try {
        const signedIn = await currentSession(request);
        if (!signedIn) return { ok: false, reason: "sign-in-again" };
        const refused = await confirmIdentity(request, signedIn, input.password, address);
        if (refused) return refused;
        // Sessions, password and Google link go with the user row (ON DELETE
        // CASCADE); pending links (which hold the email) go too.
        await forgetPendingLinks(db, signedIn.user.id);
        await db.delete(users).where(eq(users.id, signedIn.user.id));
        logger.info({ event: "account.deleted", accountId: signedIn.user.id, address }, "account deleted");
        return { ok: true, headers: await this.logOut(request) };
      } catch (error) {
        return unavailable(error, "account deletion");
      }
    },

    async updateProfile(request, profile) {
      try {
        await auth().api.updateUser({
          body: { name: profile.name, image: profile.image },
          headers: headersFor(request),
        });
      } catch (error) {
        // No session (signed out, ended, past its lifetime): nothing was changed.
        if (isAPIError(error) && error.statusCode === 401) return null;
        throw error;
      }
      const { user } = await this.getSession(request);
      return user;
    },

    async handler(request, address) {
      const previous = await currentSessionToken(request);
      const response = await auth().handler(new Request(request, { headers: headersFor(request, address) }));
      // The provider's callback signed someone in: as with a password login,
      // the session this browser had before ends.
      if (previous && setsSessionCookie(response.headers)) await revoke(previous);
      return response;
    },
  };
}

/** Whether these headers start a new session (a session cookie with a value, not one being cleared). */
function setsSessionCookie(headers: Headers): boolean {
  return headers
    .getSetCookie()
    .some((cookie) => /^(__Secure-)?backline\.session_token=[^;]/.test(cookie) && !/max-age=0/i.test(cookie));
}

/** Copies every Set-Cookie of `from` onto `to`. */
export function appendSetCookies(to: Headers, from: Headers): Headers {
  for (const cookie of from.getSetCookie()) to.append("Set-Cookie", cookie);
  return to;
}
