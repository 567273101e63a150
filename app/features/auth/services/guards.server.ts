import { logger } from "~/utils/logger.server";
import type { AuthCore, RateLimited, Visitor } from "../auth-core.server";
import { rateLimited } from "../auth-core.server";
import { verifyPassword } from "../password-hasher.server";
import type { SignedIn } from "./sessions.server";

/** How recent a sign-in must be to stand in for the password (accounts without one: Google only). */
const RECENT_SIGN_IN_SECONDS = 10 * 60;

/** Who asks for a sensitive change proves it is them: the password, or (no password) a sign-in of the last minutes. */
export type IdentityRefused =
  | { ok: false; reason: "wrong-password" }
  | { ok: false; reason: "sign-in-again" }
  | RateLimited;

/**
 * A sensitive change (password, email, deletion) needs a recent proof of
 * identity: the password, counted like a login attempt before it is
 * checked; an account without a password needs a sign-in of the last ten
 * minutes. Null when the proof holds.
 */
export async function confirmIdentity(
  core: AuthCore,
  visitor: Visitor,
  signedIn: SignedIn,
  password: string | undefined,
): Promise<IdentityRefused | null> {
  const hash = await core.tables.passwordHashOf(signedIn.user.id);
  if (!hash) {
    const age = (Date.now() - new Date(signedIn.session.createdAt).getTime()) / 1000;
    return age <= RECENT_SIGN_IN_SECONDS ? null : { ok: false, reason: "sign-in-again" };
  }
  const knownDevice = await core.deviceCookies.knownDevice(visitor.request, signedIn.user.email);
  const attempt = await core.limiter.login(visitor.address, signedIn.user.email, knownDevice);
  if (!attempt.allowed) {
    return rateLimited(attempt.retryAfterSeconds);
  }
  if (!password || !(await verifyPassword(hash, password))) {
    logger.warn(
      { event: "identity.refused", accountId: signedIn.user.id, address: visitor.address },
      "password re-entry failed",
    );
    return { ok: false, reason: "wrong-password" };
  }
  await attempt.succeeded();
  return null;
}

/** Counts the use of a link's token from this visitor; refused, the token is not looked up at all. */
export async function countTokenUse(core: AuthCore, visitor: Visitor): Promise<RateLimited | null> {
  const decision = await core.limiter.emailToken(visitor.address);
  if (decision.allowed) return null;
  logger.warn(
    { event: "email_token.rate_limited", address: visitor.address },
    "email link refused: too many attempts",
  );
  return rateLimited(decision.retryAfterSeconds);
}
