import { type AuthServiceOptions, createAuthCore, type Visitor } from "./auth-core.server";
import { type AccountSettings, accountSettingsFor } from "./services/account-settings.server";
import { type BackOfficeAccess, backOfficeAccessFor } from "./services/back-office-access.server";
import { type Credentials, credentialsFor } from "./services/credentials.server";
import { type EmailLinks, emailLinksFor } from "./services/email-links.server";
import { type GoogleSignIn, googleSignInFor } from "./services/google-sign-in.server";
import { type Sessions, sessionsFor } from "./services/sessions.server";

/**
 * Accounts and sessions, through Better Auth. Routes never call Better Auth
 * directly: they call these services, one per use case, which add what the
 * shop needs around it (rate limits, the client address, one answer for
 * every failed login, the race between simultaneous sign-ups). See
 * docs/decisions/0004-accounts-with-better-auth.md.
 *
 * The services are made for one visitor at a time (`for`): the request
 * whose cookies say who is signed in, and the client address the HTTP layer
 * resolved. No method takes an address; each knows who asks.
 */
export { AUTH_BASE_PATH, GOOGLE_PROVIDER_ID, type GoogleSettings } from "./better-auth.server";
export type { AuthServiceOptions };

/** The account services for one visitor. */
export interface Accounts {
  /** Who is signed in, logging out, the list of sessions. */
  sessions: Sessions;
  /** Sign-up, login, password change, a new password from a reset link. */
  credentials: Credentials;
  /** Reset links asked for, the email's confirmation, an email change. */
  emailLinks: EmailLinks;
  /** The account's overview, profile and deletion. */
  account: AccountSettings;
  /** Sign-in with Google (or the local demo provider). */
  google: GoogleSignIn;
  /** The visitor's role in the back office, and the password asked again for its sensitive changes. */
  backOffice: BackOfficeAccess;
  /** Served over https: cookies are Secure (and the session cookie __Secure-). */
  secureCookies: boolean;
}

export interface AuthService {
  /** Origins a login form may be redirected to (the identity provider), for the CSP's form-action. */
  formActionOrigins: string[];
  /** The services for this visitor (one request). */
  for(visitor: Visitor): Accounts;
}

export function createAuthService(options: AuthServiceOptions): AuthService {
  const core = createAuthCore(options);
  return {
    formActionOrigins: options.google ? [new URL(options.google.issuerUrl).origin] : [],
    for: (visitor) => ({
      sessions: sessionsFor(core, visitor),
      credentials: credentialsFor(core, visitor),
      emailLinks: emailLinksFor(core, visitor),
      account: accountSettingsFor(core, visitor),
      google: googleSignInFor(core, visitor),
      backOffice: backOfficeAccessFor(core, visitor),
      secureCookies: core.secureCookies,
    }),
  };
}

/** Copies every Set-Cookie of `from` onto `to`. */
export function appendSetCookies(to: Headers, from: Headers): Headers {
  for (const cookie of from.getSetCookie()) to.append("Set-Cookie", cookie);
  return to;
}
