import { addressKey } from "~/utils/client-address.server";
import { logger } from "~/utils/logger.server";
import { emailChangedNotice } from "../account-email.server";
import { parseVerificationClaim } from "../account-links.server";
import {
  type AuthCore,
  type RateLimited,
  rateLimited,
  type Unavailable,
  unavailable,
  type Visitor,
} from "../auth-core.server";
import {
  confirmationIdentifier,
  confirmEmail,
  forgetPendingLinks,
  isUniqueViolation,
} from "../auth-tables.server";
import type { SessionUser } from "../session-user";
import { confirmIdentity, countTokenUse, type IdentityRefused } from "./guards.server";
import { signedInSession } from "./sessions.server";

/**
 * The links the shop emails, asked for and used: a password reset (the new
 * password itself is credentials.server.ts's), the confirmation of the
 * account's email, and an email change. No answer says whether an email has
 * an account (docs/decisions/0024); the emails go out from the durable queue
 * after the answer (0025).
 */

type ConfirmResult =
  | { ok: true; userId: string; changed: boolean }
  | { ok: false; reason: "invalid-token" }
  | RateLimited
  | Unavailable;

export function emailLinksFor(core: AuthCore, visitor: Visitor) {
  const { limiter, tables, links } = core;
  const { request, address } = visitor;

  /**
   * Whether the request comes from the account's owner as far as the shop can
   * tell: a browser carrying the account's device cookie, or an address one of
   * its sessions was signed in from (IPv6 by its /64, as the limits count it).
   */
  const isOwnersClient = async (email: string): Promise<boolean> => {
    if (await core.deviceCookies.knownDevice(request, email)) return true;
    const key = addressKey(address);
    return (await tables.signInAddressesOf(email)).some((signedInFrom) => addressKey(signedInFrom) === key);
  };

  return {
    /**
     * Emails a password-reset link when `email` has an account; the answer is
     * the same when it has none (the email goes out after it, from the queue;
     * only the link's one small write differs: docs/decisions/0025).
     */
    async requestPasswordReset(email: string): Promise<{ ok: true } | RateLimited | Unavailable> {
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
        if (!decision.send && !(await isOwnersClient(email))) return { ok: true };
        // The link's token and its email are written together; the email goes
        // out from the queue, after the answer. An unknown email gets the same
        // answer, with nothing stored or sent.
        const account = await tables.accountOf(email);
        if (account) await links.emailPasswordReset(account);
        logger.info({ event: "password_reset.requested", address }, "password reset asked for");
        return { ok: true };
      } catch (error) {
        return unavailable(error, "password reset request");
      }
    },

    /** Emails the signed-in user a link that confirms their email address. */
    async sendEmailVerification(
      user: SessionUser,
    ): Promise<{ ok: true } | { ok: false; reason: "already-verified" } | RateLimited | Unavailable> {
      const decision = await limiter.emailLink(address, user.email);
      if (!decision.allowed) {
        return rateLimited(decision.retryAfterSeconds);
      }
      try {
        const verified = await tables.emailVerifiedOf(user.id);
        if (verified === null || verified) return { ok: false, reason: "already-verified" };
        // The shopper's own mailbox had its share this hour: they are told to wait.
        if (!decision.send) return rateLimited(60 * 60);
        await links.emailConfirmation(user);
        return { ok: true };
      } catch (error) {
        return unavailable(error, "email confirmation");
      }
    },

    /**
     * Marks the email of the link's account as confirmed (or, for an email
     * change, makes the new address its email), and uses the link up. Only the
     * account's own signed-in owner may: a link clicked by anyone else (a
     * victim whose address someone else registered) changes nothing.
     */
    async verifyEmail(token: string, signedInUserId: string): Promise<ConfirmResult> {
      const refused = await countTokenUse(core, visitor);
      if (refused) return refused;
      try {
        const identifier = confirmationIdentifier(token);
        const found = await tables.findLink(identifier);
        const pending = found ? parseVerificationClaim(found.value) : null;
        // Another account's link stays unused, for its owner.
        if (!pending || pending.userId !== signedInUserId) return { ok: false, reason: "invalid-token" };
        // Used up by the first request that presents it, even one that races another.
        const used = await tables.consumeLink(identifier);
        const claim = used ? parseVerificationClaim(used) : null;
        if (!claim) return { ok: false, reason: "invalid-token" };
        if (!(await applyConfirmation(core, claim))) return { ok: false, reason: "invalid-token" };
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

    /**
     * Emails the new address a link that makes it the account's email. The
     * answer is the same whether or not the address has an account already.
     */
    async requestEmailChange(input: {
      newEmail: string;
      password: string | undefined;
    }): Promise<{ ok: true } | IdentityRefused | Unavailable> {
      try {
        const signedIn = await signedInSession(core, request);
        if (!signedIn) return { ok: false, reason: "sign-in-again" };
        const refused = await confirmIdentity(core, visitor, signedIn, input.password);
        if (refused) return refused;
        const decision = await limiter.emailLink(address, input.newEmail);
        if (!decision.allowed) {
          return rateLimited(decision.retryAfterSeconds);
        }
        // An address that has an account already gets nothing, and neither the
        // answer nor its timing says so: its token is made all the same and
        // never sent (the change would fail at the link anyway).
        const taken =
          input.newEmail === signedIn.user.email || (await tables.accountOf(input.newEmail)) !== null;
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
  };
}

export type EmailLinks = ReturnType<typeof emailLinksFor>;

/**
 * The link confirms the address it was sent to: an account whose email has
 * changed since is not confirmed by it. A change's link makes its new
 * address the account's email, confirmed by this very click; in the same
 * transaction whatever was sent to the old address (a reset link, another
 * change) stops working, and the old address's notice is written.
 */
async function applyConfirmation(
  core: AuthCore,
  claim: { userId: string; email: string; newEmail?: string },
): Promise<boolean> {
  const { newEmail } = claim;
  return core.mail
    .transaction(async (tx, add) => {
      const confirmed = await confirmEmail(tx, {
        userId: claim.userId,
        sentTo: claim.email,
        confirmed: newEmail ?? claim.email,
      });
      if (!confirmed || !newEmail) return confirmed;
      await forgetPendingLinks(tx, claim.userId);
      await add(emailChangedNotice(claim.email, newEmail, core.baseUrl));
      return true;
    })
    .catch((error: unknown) => {
      // The new address got an account of its own meanwhile (the unique index).
      if (newEmail && isUniqueViolation(error)) return false;
      throw error;
    });
}
