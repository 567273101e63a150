import { logFailure, logger } from "~/utils/logger.server";
import {
  type AuthCore,
  errorCode,
  isRefusal,
  type RateLimited,
  rateLimited,
  toSessionUser,
  type Unavailable,
  unavailable,
  type Visitor,
} from "../auth-core.server";
import type { LoginInput, SignUpInput } from "../auth-schema";
import { resetIdentifier } from "../auth-tables.server";
import { isCommonPassword } from "../common-passwords.server";
import { hashPassword, needsRehash } from "../password-hasher.server";
import type { SessionUser } from "../session-user";
import { confirmIdentity, countTokenUse, type IdentityRefused } from "./guards.server";
import { currentSessionToken, endPreviousSession, signedInSession } from "./sessions.server";

/**
 * Passwords: signing up, logging in, changing the password, and setting a
 * new one from a reset link (the link itself is emailed by email-links.server.ts).
 * Every attempt is counted before the password is checked (rate-limit.server.ts);
 * every sign-in replaces the session the browser had.
 */

type SignedInResult = { ok: true; headers: Headers; user: SessionUser };

type SignUpResult = SignedInResult | { ok: false; reason: "email-taken" } | RateLimited | Unavailable;

type LogInResult = SignedInResult | { ok: false; reason: "invalid-credentials" } | RateLimited | Unavailable;

/** What a link from an email leads to: it works, or it is unknown, used or expired (one answer for all three). */
type TokenResult = { ok: true } | { ok: false; reason: "invalid-token" } | RateLimited | Unavailable;

type SignInEvent = "login.succeeded" | "login.failed" | "login.rate_limited" | "sign_up.rate_limited";

const SIGN_IN_MESSAGES: Record<SignInEvent, string> = {
  "login.succeeded": "sign-in succeeded",
  "login.failed": "sign-in failed",
  "login.rate_limited": "sign-in refused: too many attempts",
  "sign_up.rate_limited": "sign-up refused: too many attempts",
};

export function credentialsFor(core: AuthCore, visitor: Visitor) {
  const { auth, limiter, tables, deviceCookies } = core;
  const { request, address } = visitor;

  /**
   * Sign-in events for the operator: account id and client address, never
   * the email. An unknown email is logged as accountId null.
   */
  const logSignIn = async (
    event: SignInEvent,
    details: { email: string; accountId?: string; retryAfterSeconds?: number },
  ) => {
    const accountId =
      details.accountId ?? (await tables.accountOf(details.email).catch(() => null))?.id ?? null;
    const fields = { event, accountId, address, retryAfterSeconds: details.retryAfterSeconds };
    if (event === "login.succeeded") logger.info(fields, SIGN_IN_MESSAGES[event]);
    else logger.warn(fields, SIGN_IN_MESSAGES[event]);
  };

  /**
   * After a successful login, a password hashed with weaker parameters than
   * today's (an account from before they were raised) is hashed again: the
   * login is the only moment the shop has the password. Best effort: the
   * login stands even if this fails.
   */
  const upgradePasswordHash = async (userId: string, password: string) => {
    try {
      if (await tables.rehashPassword(userId, needsRehash, () => hashPassword(password))) {
        logger.info({ event: "password.rehashed", accountId: userId }, "password hash upgraded");
      }
    } catch (error) {
      logFailure(error, "password hash upgrade failed");
    }
  };

  return {
    async signUp(input: SignUpInput): Promise<SignUpResult> {
      const decision = await limiter.signUp(address, input.email);
      if (!decision.allowed) {
        await logSignIn("sign_up.rate_limited", { ...decision, email: input.email });
        return rateLimited(decision.retryAfterSeconds);
      }
      try {
        const previous = await currentSessionToken(core, request);
        const { headers, response } = await core.asVisitor(visitor, () =>
          auth().api.signUpEmail({
            body: { name: input.name, email: input.email, password: input.password, image: input.photo },
            headers: request.headers,
            returnHeaders: true,
          }),
        );
        await endPreviousSession(core, previous);
        // The browser an account was created in is one of its owner's devices.
        headers.append("Set-Cookie", await deviceCookies.remember(request, input.email));
        // The account works at once; the confirmation only matters for joining a Google identity.
        await core.links
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
        if (code === "FAILED_TO_CREATE_USER" && (await tables.accountOf(input.email).catch(() => null))) {
          return { ok: false, reason: "email-taken" };
        }
        return unavailable(error, "sign-up");
      }
    },

    async logIn(input: LoginInput): Promise<LogInResult> {
      // Counted before the password is checked: simultaneous guesses cannot
      // all get through while the first ones are still being hashed.
      const knownDevice = await deviceCookies.knownDevice(request, input.email);
      const attempt = await limiter.login(address, input.email, knownDevice);
      if (!attempt.allowed) {
        await logSignIn("login.rate_limited", { ...attempt, email: input.email });
        return rateLimited(attempt.retryAfterSeconds);
      }
      try {
        const previous = await currentSessionToken(core, request);
        const { headers, response } = await core.asVisitor(visitor, () =>
          auth().api.signInEmail({
            body: { email: input.email, password: input.password },
            headers: request.headers,
            returnHeaders: true,
          }),
        );
        await attempt.succeeded();
        await endPreviousSession(core, previous);
        await upgradePasswordHash(response.user.id, input.password);
        headers.append("Set-Cookie", await deviceCookies.remember(request, input.email));
        await logSignIn("login.succeeded", { email: input.email, accountId: response.user.id });
        return { ok: true, headers, user: toSessionUser(response.user) };
      } catch (error) {
        // Unknown email, wrong password, an account without a password: one answer.
        if (isRefusal(error)) {
          await logSignIn("login.failed", { email: input.email });
          return { ok: false, reason: "invalid-credentials" };
        }
        return unavailable(error, "login");
      }
    },

    /** A new password, the current one required; every other session ends. */
    async changePassword(input: {
      currentPassword: string;
      newPassword: string;
    }): Promise<
      { ok: true; headers: Headers } | { ok: false; reason: "no-password" } | IdentityRefused | Unavailable
    > {
      try {
        const signedIn = await signedInSession(core, request);
        if (!signedIn) return { ok: false, reason: "sign-in-again" };
        // An account made with Google has no password to change.
        if (!(await tables.passwordHashOf(signedIn.user.id))) return { ok: false, reason: "no-password" };
        const refused = await confirmIdentity(core, visitor, signedIn, input.currentPassword);
        if (refused) return refused;
        // Better Auth starts a new session for this browser (the others end): it records this address.
        const { headers } = await core.asVisitor(visitor, () =>
          auth().api.changePassword({
            body: {
              currentPassword: input.currentPassword,
              newPassword: input.newPassword,
              revokeOtherSessions: true,
            },
            headers: request.headers,
            returnHeaders: true,
          }),
        );
        await tables.forgetPendingLinks(signedIn.user.id);
        logger.info(
          { event: "password.changed", accountId: signedIn.user.id, address },
          "password changed; other sessions ended",
        );
        return { ok: true, headers };
      } catch (error) {
        return unavailable(error, "password change");
      }
    },

    /** Whether the shop refuses `password` as too common (asked when a new-password field is left); counted per address. */
    async checkCommonPassword(password: string): Promise<{ ok: true; tooCommon: boolean } | RateLimited> {
      const decision = await limiter.passwordCheck(address);
      if (!decision.allowed) return rateLimited(decision.retryAfterSeconds);
      return { ok: true, tooCommon: isCommonPassword(password) };
    },

    /** Whether a password-reset link still works (the page shows its form, or says it has expired). */
    async checkResetToken(token: string): Promise<TokenResult> {
      const refused = await countTokenUse(core, visitor);
      if (refused) return refused;
      try {
        const found = await tables.findLink(resetIdentifier(token));
        return found && found.expiresAt > new Date() ? { ok: true } : { ok: false, reason: "invalid-token" };
      } catch (error) {
        return unavailable(error, "password reset link check");
      }
    },

    /** Sets the new password, uses the link up and ends every session of the account. */
    async resetPassword(token: string, password: string): Promise<TokenResult> {
      const refused = await countTokenUse(core, visitor);
      if (refused) return refused;
      try {
        await auth().api.resetPassword({ body: { token, newPassword: password } });
        logger.info({ event: "password_reset.completed", address }, "password reset; every session ended");
        return { ok: true };
      } catch (error) {
        if (isRefusal(error)) return { ok: false, reason: "invalid-token" };
        return unavailable(error, "password reset");
      }
    },
  };
}

export type Credentials = ReturnType<typeof credentialsFor>;
