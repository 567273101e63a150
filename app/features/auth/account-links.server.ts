import { randomBytes } from "node:crypto";
import type { MailMessage } from "~/utils/mail.server";
import type { MailQueue, QueuedMessage } from "~/utils/mail-queue.server";
import { z } from "~/utils/zod";
import { emailChangeMessage, emailVerificationMessage, passwordResetMessage } from "./account-email.server";
import { confirmationIdentifier, resetIdentifier, storeLinkToken } from "./auth-tables.server";

/**
 * The links the shop emails — a password reset, an email confirmation, an
 * email change — made so that a link and its email exist together or not at
 * all: the token (kept as a hash in `verifications`) and the message (in the
 * mail queue, mail-queue.server.ts) are written in one transaction, so a
 * crash can lose neither one without the other (docs/decisions/0024, 0025).
 *
 * Better Auth consumes these rows: a reset's with its own `resetPassword`
 * (value: the account's id), a confirmation's through its internal adapter
 * (value: the claim below); how they are stored is auth-tables.server.ts's.
 */
const DAY = 60 * 60 * 24;
/** How long the link of a password-reset email works. */
const PASSWORD_RESET_LIFETIME_SECONDS = 30 * 60;
/** How long the link of an email-confirmation (or email-change) email works. */
const EMAIL_VERIFICATION_LIFETIME_SECONDS = DAY;

/** A new token (32 random bytes, base64url: 43 characters, what a link's token may be). */
const newToken = () => randomBytes(32).toString("base64url");

const verificationClaimSchema = z.object({
  userId: z.string().min(1),
  email: z.string().min(1),
  /** Set on an email change's link: the address that becomes the account's. */
  newEmail: z.string().min(1).optional(),
});

/** What a confirmation token stands for: the account and the email it was sent to (and, for a change, the new one). */
export function parseVerificationClaim(value: string) {
  try {
    const parsed = verificationClaimSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function createAccountLinks(options: { mail: MailQueue; baseUrl: string }) {
  const { mail, baseUrl } = options;
  return {
    /** A password-reset link for the account, and its email to the account's address. */
    async emailPasswordReset(user: { id: string; email: string }) {
      const token = newToken();
      const url = `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
      await mail.transaction(async (tx, add) => {
        await storeLinkToken(tx, resetIdentifier(token), user.id, PASSWORD_RESET_LIFETIME_SECONDS);
        await add(
          expiring(
            passwordResetMessage(user, url, PASSWORD_RESET_LIFETIME_SECONDS),
            PASSWORD_RESET_LIFETIME_SECONDS,
          ),
        );
      });
    },

    /**
     * A confirmation link, emailed to the account's address — or, for an
     * email change, to the new address. `send: false` stores the token and
     * emails nothing (an address that has an account already: the same work,
     * so the timing tells nobody).
     */
    async emailConfirmation(
      user: { id: string; name: string; email: string },
      newEmail?: string,
      { send = true }: { send?: boolean } = {},
    ) {
      const token = newToken();
      const url = `${baseUrl}/verify-email?token=${encodeURIComponent(token)}`;
      const claim = JSON.stringify({ userId: user.id, email: user.email, newEmail });
      await mail.transaction(async (tx, add) => {
        await storeLinkToken(tx, confirmationIdentifier(token), claim, EMAIL_VERIFICATION_LIFETIME_SECONDS);
        if (!send) return;
        const message = newEmail
          ? emailChangeMessage({ email: newEmail }, url, EMAIL_VERIFICATION_LIFETIME_SECONDS)
          : emailVerificationMessage(user, url, EMAIL_VERIFICATION_LIFETIME_SECONDS);
        await add(expiring(message, EMAIL_VERIFICATION_LIFETIME_SECONDS));
      });
    },
  };
}

/** A message that is pointless once its link has expired: the queue drops it then rather than send it. */
function expiring(message: MailMessage, lifetimeSeconds: number): QueuedMessage {
  return { ...message, expiresAt: new Date(Date.now() + lifetimeSeconds * 1000) };
}

export type AccountLinks = ReturnType<typeof createAccountLinks>;
