import { createHash, randomUUID } from "node:crypto";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { and, desc, eq, gt, like, ne, or } from "drizzle-orm";
import ipaddr from "ipaddr.js";
import type { Database, Transaction } from "~/db/client.server";
import { failedWith, UNIQUE_VIOLATION } from "~/db/errors.server";
import { accounts, orders, sessions, users, verifications } from "~/db/schema";
import { escapeLike } from "~/utils/sql-like";
import { withAbsoluteSessionLifetime } from "./session-lifetime.server";

/** What a deleted account's orders keep in place of the person (an order's address must have every part). */
const DELETED_EMAIL = "deleted-account@invalid";
const DELETED_ADDRESS = { name: "Deleted account", line1: "—", city: "—", postalCode: "—", country: "—" };

/**
 * Better Auth's tables (users, sessions, accounts, verifications;
 * app/db/auth-schema.ts): the adapter Better Auth reads and writes them
 * through, and every read or write the shop makes of them itself. What the
 * shop assumes about Better Auth's storage — how it names its models, how it
 * hashes an identifier, how its reset tokens and session addresses look — is
 * written here and nowhere else, so an upgrade of the library is checked in
 * this one module (and by its tests: the link tests fail at once if a look-up
 * finds nothing).
 */
export type { Transaction };

/**
 * The database as Better Auth uses it: its Drizzle adapter on the shop's
 * tables, every session it reads ending at the absolute lifetime
 * (session-lifetime.server.ts).
 */
export function betterAuthDatabase(db: Database) {
  return withAbsoluteSessionLifetime(
    drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
      // A sign-up writes the user and its password in one transaction: a
      // failure part-way (the database killed, a full disk) leaves no user
      // without a password behind, so the email can sign up again.
      transaction: true,
    }),
  );
}

/** The verifications table's key of a reset token: Better Auth's own, which its resetPassword looks up. */
export const resetIdentifier = (token: string) => `reset-password:${token}`;
/** The verifications table's key of a confirmation token. */
export const confirmationIdentifier = (token: string) => `verify-email:${token}`;

/**
 * An identifier as Better Auth stores it with `verification.storeIdentifier:
 * "hashed"`: SHA-256, base64url without padding. A copy of the database then
 * holds no token that works.
 */
function storedIdentifier(identifier: string): string {
  return createHash("sha256").update(identifier).digest("base64url");
}

/** Stores a link's token (as Better Auth would, hashed), in the transaction that queues its email. */
export async function storeLinkToken(
  tx: Transaction,
  identifier: string,
  value: string,
  lifetimeSeconds: number,
) {
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

/**
 * Ends every link an account has pending (password resets, confirmations,
 * email changes): after a new password, a changed email or a deletion,
 * nothing sent before may still act on the account. A reset's value is the
 * account's id (Better Auth's format); a confirmation's value is the shop's
 * claim, which starts with it (account-links.server.ts).
 */
export async function forgetPendingLinks(db: Database | Transaction, userId: string) {
  const escaped = escapeLike(userId);
  await db
    .delete(verifications)
    .where(or(eq(verifications.value, userId), like(verifications.value, `{"userId":"${escaped}",%`)));
}

/**
 * A confirmed email: the account's email becomes `confirmed` (the address
 * the link was sent to, or an email change's new one) — only while the
 * account's email is still `sentTo`. False when nothing matched.
 */
export async function confirmEmail(
  tx: Transaction,
  change: { userId: string; sentTo: string; confirmed: string },
): Promise<boolean> {
  const updated = await tx
    .update(users)
    .set({ email: change.confirmed, emailVerified: true, updatedAt: new Date() })
    .where(and(eq(users.id, change.userId), eq(users.email, change.sentTo)))
    .returning({ id: users.id });
  return updated.length > 0;
}

/** Whether a write failed on a unique index (an email that got an account meanwhile). */
export const isUniqueViolation = (error: unknown): boolean => failedWith(error, UNIQUE_VIOLATION);

/**
 * How a session row records its client's address: as Better Auth recorded
 * one it read from a header before the shop handed it the address itself —
 * IPv4 as is (an IPv4-mapped IPv6 address as its IPv4), IPv6 by its /64
 * network written out in full. Null for anything that is not an address.
 */
export function sessionAddress(address: string | undefined): string | null {
  const bare = address?.trim() ?? "";
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return bare;
  if (bare.includes("%") || !ipaddr.IPv6.isValid(bare)) return null;
  const parsed = ipaddr.IPv6.parse(bare);
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${bare}/64`);
  return network.parts.map((part) => part.toString(16).padStart(4, "0")).join(":");
}

/** The few things the shop asks Better Auth's own adapter: the links it looks up and uses up. */
interface VerificationStore {
  findVerificationValue(identifier: string): Promise<{ value: string; expiresAt: Date } | null>;
  consumeVerificationValue(identifier: string): Promise<{ value: string } | null>;
}

export function createAuthTables(db: Database, verificationStore: () => Promise<VerificationStore>) {
  const credentialOf = async (userId: string) => {
    const [credential] = await db
      .select({ id: accounts.id, password: accounts.password })
      .from(accounts)
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
      .limit(1);
    return credential ?? null;
  };

  return {
    async accountOf(email: string): Promise<{ id: string; email: string } | null> {
      const [row] = await db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(eq(users.email, email))
        .limit(1);
      return row ?? null;
    },

    /** Whether the account's email is confirmed; null when there is no such account. */
    async emailVerifiedOf(userId: string): Promise<boolean | null> {
      const [row] = await db
        .select({ verified: users.emailVerified })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return row ? row.verified : null;
    },

    /** The password's hash; null for an account without one (made with Google). */
    async passwordHashOf(userId: string): Promise<string | null> {
      return (await credentialOf(userId))?.password ?? null;
    },

    /** Replaces the password's hash when `shouldReplace` says so; true when it did. */
    async rehashPassword(
      userId: string,
      shouldReplace: (hash: string) => boolean,
      newHash: () => Promise<string>,
    ): Promise<boolean> {
      const credential = await credentialOf(userId);
      if (!credential?.password || !shouldReplace(credential.password)) return false;
      await db
        .update(accounts)
        .set({ password: await newHash(), updatedAt: new Date() })
        .where(eq(accounts.id, credential.id));
      return true;
    },

    /** Ends the session with this token (a browser's previous one, on a new sign-in). */
    async endSessionByToken(token: string) {
      await db.delete(sessions).where(eq(sessions.token, token));
    },

    /** The addresses the account's sessions were signed in from. */
    async signInAddressesOf(email: string): Promise<string[]> {
      const rows = await db
        .select({ address: sessions.ipAddress })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(eq(users.email, email));
      return rows.flatMap((row) => (row.address === null ? [] : [row.address]));
    },

    /** The account's sessions not yet expired, the most recently active first. */
    async liveSessionsOf(userId: string, now: Date) {
      return db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
        .orderBy(desc(sessions.updatedAt));
    },

    /** Ends one session of the account; false when it has none by this id. */
    async endSessionOf(userId: string, sessionId: string): Promise<boolean> {
      const ended = await db
        .delete(sessions)
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
        .returning({ id: sessions.id });
      return ended.length > 0;
    },

    /** Ends every session of the account but `keptSessionId`; how many ended. */
    async endSessionsBut(userId: string, keptSessionId: string): Promise<number> {
      const ended = await db
        .delete(sessions)
        .where(and(eq(sessions.userId, userId), ne(sessions.id, keptSessionId)))
        .returning({ id: sessions.id });
      return ended.length;
    },

    /**
     * Deletes the account: sessions, password, Google link and carts go with
     * the user row (ON DELETE CASCADE); pending links (which hold the email)
     * go too. Its orders stay for the shop's books, with placeholders for the
     * person's name, email and address (docs/decisions/0039), in the same
     * transaction.
     */
    async deleteAccount(userId: string) {
      await forgetPendingLinks(db, userId);
      await db.transaction(async (tx) => {
        await tx
          .update(orders)
          .set({ email: DELETED_EMAIL, shippingAddress: DELETED_ADDRESS })
          .where(eq(orders.userId, userId));
        await tx.delete(users).where(eq(users.id, userId));
      });
    },

    forgetPendingLinks: (userId: string) => forgetPendingLinks(db, userId),

    /** A link as stored (until it is used up or replaced), expired or not; null when unknown. */
    async findLink(identifier: string): Promise<{ value: string; expiresAt: Date } | null> {
      return (await verificationStore()).findVerificationValue(identifier);
    },

    /** Uses a link up: its value for the first request that presents it, null for any other. */
    async consumeLink(identifier: string): Promise<string | null> {
      return (await (await verificationStore()).consumeVerificationValue(identifier))?.value ?? null;
    },
  };
}

export type AuthTables = ReturnType<typeof createAuthTables>;
