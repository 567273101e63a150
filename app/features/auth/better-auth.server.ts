import { betterAuth } from "better-auth/minimal";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import type { Database } from "~/db/client.server";
import { logFailure, logger } from "~/utils/logger.server";
import { emailSchema, nameSchema, photoSchema } from "./auth-schema";
import { betterAuthDatabase, forgetPendingLinks, sessionAddress } from "./auth-tables.server";
import { hashPassword, verifyPassword } from "./password-hasher.server";

const COOKIE_PREFIX = "backline";
/** The session cookie Better Auth sets: `__Secure-` goes first when the shop is served over https. */
export const SESSION_COOKIE = `${COOKIE_PREFIX}.session_token`;
/** A `name=value` pair of the session cookie with a value, at the start of a Cookie or Set-Cookie entry. */
export const SESSION_COOKIE_PAIR = new RegExp(`^(?:__Secure-)?${SESSION_COOKIE.replace(".", "\\.")}=[^;\\s]`);

/**
 * The Better Auth instance: its settings, and nothing the shop adds around it
 * (that is the services', app/features/auth/services). See
 * docs/decisions/0004-accounts-with-better-auth.md.
 */
export const GOOGLE_PROVIDER_ID = "google";
export const AUTH_BASE_PATH = "/api/auth";

const DAY = 60 * 60 * 24;

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  /** The OpenID Connect issuer; discovery at `${issuer}/.well-known/openid-configuration`. */
  issuerUrl: string;
  /** "demo": the local stand-in (no account linking, ever); "google": the real thing. */
  kind: "google" | "demo";
}

interface BetterAuthSettings {
  db: Database;
  secret: string;
  baseUrl: string;
  google: GoogleSettings | null;
  /**
   * The address of the client Better Auth is working for (the HTTP layer
   * resolved it, TRUST_PROXY honoured): what a session it creates records.
   */
  clientAddress: () => string | undefined;
}

export function createBetterAuth(settings: BetterAuthSettings) {
  const { google } = settings;
  return betterAuth({
    appName: "Backline",
    baseURL: settings.baseUrl,
    basePath: AUTH_BASE_PATH,
    secret: settings.secret,
    trustedOrigins: [settings.baseUrl],
    // Every session read through it ends at the absolute lifetime (30 days
    // from the sign-in), whichever of Better Auth's paths reads it.
    database: betterAuthDatabase(settings.db),
    databaseHooks: {
      session: {
        create: {
          // The client's address comes from the shop, never from a header
          // Better Auth would read (ipAddress tracking is off below).
          before: async (session) => ({
            data: { ...session, ipAddress: sessionAddress(settings.clientAddress()) },
          }),
        },
      },
    },
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
      onPasswordReset: async ({ user }) => forgetPendingLinks(settings.db, user.id),
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
      useSecureCookies: settings.baseUrl.startsWith("https://"),
      cookiePrefix: COOKIE_PREFIX,
      // Better Auth reads no address from the request's headers: the shop hands it one (above).
      ipAddress: { disableIpTracking: true },
    },
    telemetry: { enabled: false },
    // OAuth errors that happen before the shop's own error URL is known land here.
    onAPIError: { errorURL: "/auth/google/done" },
    logger: { level: "warn", log: logBetterAuth },
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

export type BetterAuthInstance = ReturnType<typeof createBetterAuth>;

/**
 * Better Auth's log lines, through the shop's logger. Only an error argument
 * is kept, and it goes through the logger's serialiser, which keeps query
 * values (emails, names) out of the log; other arguments (a user, an email)
 * are dropped.
 */
function logBetterAuth(level: string, message: string, ...args: unknown[]) {
  const error = args.find((arg) => typeof arg === "object" && arg !== null);
  const payload = error ? { err: error } : {};
  // Better Auth reports what a client got wrong (a forged or stale OAuth
  // state, an unknown code) as errors of its own kind: those are the
  // client's, logged as warnings. A failure underneath (the database) stays an error.
  const clientsMistake = !error || (error as { name?: unknown }).name === "BetterAuthError";
  if (level === "error" && !clientsMistake) logFailure(error, `auth: ${message}`);
  else if (level === "error" || level === "warn") logger.warn(payload, `auth: ${message}`);
  else logger.debug(payload, `auth: ${message}`);
}

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
