import { createHash, randomBytes, randomUUID } from "node:crypto";
import { eq, like, or } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { verifications } from "~/db/schema";
import type { MailMessage } from "~/utils/mail.server";
import type { MailQueue, QueuedMessage } from "~/utils/mail-queue.server";
import { z } from "~/utils/zod";
import { emailChangeMessage, emailVerificationMessage, passwordResetMessage } from "./account-email.server";

/**
 * The links the shop emails — a password reset, an email confirmation, an
 * email change — made so that a link and its email exist together or not at
 * all: the token (kept as a hash in `verifications`) and the message (in the
 * mail queue, mail-queue.server.ts) are written in one transaction, so a
 * crash can lose neither one without the other (docs/decisions/0024, 0025).
 *
 * Better Auth consumes these rows: a reset's with its own `resetPassword`
 * (value: the account's id), a confirmation's through its internal adapter
 * (value: the claim below), both looking a token up by the same hash.
 */
const DAY = 60 * 60 * 24;
/** How long the link of a password-reset email works. */
const PASSWORD_RESET_LIFETIME_SECONDS = 30 * 60;
/** How long the link of an email-confirmation (or email-change) email works. */
const EMAIL_VERIFICATION_LIFETIME_SECONDS = DAY;

/** The verifications table's key of a reset token: Better Auth's own, which its resetPassword looks up. */
export const resetIdentifier = (token: string) => `reset-password:${token}`;
/** The verifications table's key of a confirmation token. */
export const confirmationIdentifier = (token: string) => `verify-email:${token}`;

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * An identifier as Better Auth stores it with `verification.storeIdentifier:
 * "hashed"`: SHA-256, base64url without padding. A copy of the database then
 * holds no token that works. (The link tests would fail at once if Better
 * Auth ever hashed otherwise: its look-ups would find nothing.)
 */
function storedIdentifier(identifier: string): string {
  return createHash("sha256").update(identifier).digest("base64url");
}

/** A new token (32 random bytes, base64url: 43 characters, what a link's token may be). */
const newToken = () => randomBytes(32).toString("base64url");

async function storeToken(tx: Transaction, identifier: string, value: string, lifetimeSeconds: number) {
  const now = new Date();
  await tx.insert(verifications).values({
    id: randomUUID(),
    identifier: storedIdentifier(identifier),
    value,
    expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000),
    createdAt: now,
    updatedAt: now,
  });
}

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

/**
 * Ends every link an account has pending (password resets, confirmations,
 * email changes): after a new password, a changed email or a deletion,
 * nothing sent before may still act on the account. A reset's value is the
 * account's id; a confirmation's value starts with it.
 */
export async function forgetPendingLinks(db: Database | Transaction, userId: string) {
  const escaped = userId.replace(/[\\%_]/g, (character) => `\\${character}`);
  await db
    .delete(verifications)
    .where(or(eq(verifications.value, userId), like(verifications.value, `{"userId":"${escaped}",%`)));
}

export function createAccountLinks(options: { mail: MailQueue; baseUrl: string }) {
  const { mail, baseUrl } = options;
  return {
    /** A password-reset link for the account, and its email to the account's address. */
    async emailPasswordReset(user: { id: string; email: string }) {
      const token = newToken();
      const url = `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
      await mail.transaction(async (tx, add) => {
        await storeToken(tx, resetIdentifier(token), user.id, PASSWORD_RESET_LIFETIME_SECONDS);
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
        await storeToken(tx, confirmationIdentifier(token), claim, EMAIL_VERIFICATION_LIFETIME_SECONDS);
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
