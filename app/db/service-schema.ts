import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, varchar } from "drizzle-orm/pg-core";

// The shop's own machinery, beside its catalogue and orders: secrets it makes for itself, rate-limit
// counters shared by its processes, the demo identity provider's records and its outgoing email.
// Re-exported by schema.ts, where migrations are generated from.

/**
 * Secrets the shop generates for itself (the session secret on PostgreSQL,
 * the demo identity provider's keys): created once by whichever process
 * starts first and read by every other, so processes behind a load balancer
 * agree without any configuration. See docs/decisions/0010-many-processes.md.
 */
export const shopSecrets = pgTable("shop_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/**
 * Rate-limit counters shared by every process on one PostgreSQL when no Redis
 * is configured. The layout is rate-limiter-flexible's PostgreSQL store's own
 * (key, points, expire in epoch milliseconds), created here by a migration
 * instead of by the library at run time.
 */
export const rateLimits = pgTable("rate_limits", {
  key: varchar("key", { length: 255 }).primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});

/**
 * What the demo identity provider (DEMO_IDENTITY_PROVIDER=1) remembers between
 * requests: its sign-in sessions, interactions, codes and grants, so any
 * process behind a load balancer can continue a sign-in another one started.
 */
export const demoIdentityProviderRecords = pgTable(
  "demo_identity_provider_records",
  {
    /** `${model}:${id}`, e.g. `AuthorizationCode:abc…`. */
    key: text("key").primaryKey(),
    payload: jsonb("payload").notNull(),
    uid: text("uid"),
    grantId: text("grant_id"),
    userCode: text("user_code"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    index("demo_identity_provider_records_uid_idx").on(table.uid),
    index("demo_identity_provider_records_grant_id_idx").on(table.grantId),
    index("demo_identity_provider_records_expires_at_idx").on(table.expiresAt),
  ],
);

/**
 * The shop's outgoing email (docs/decisions/0025): a message is written here
 * in the transaction of what causes it, and sent from here by whichever
 * process claims it first (`locked_until`), tried again with growing waits
 * after a temporary failure, so that no crash, restart or SMTP outage loses
 * one (app/utils/mail-queue.server.ts). Its recipient and text — which hold
 * a link that works — are erased once it is sent, given up on or expired.
 */
export const mailQueue = pgTable(
  "mail_queue",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** What kind of message it is ("password-reset"): the log names it by this, never by its content. */
    kind: text("kind").notNull(),
    recipient: text("recipient"),
    subject: text("subject"),
    textBody: text("text_body"),
    htmlBody: text("html_body"),
    /** pending (to send), sent, failed (refused for good, or tried too often) or expired (its link had). */
    status: text("status").notNull().default("pending"),
    /** Tries so far, counted when a sender claims it. */
    attempts: integer("attempts").notNull().default(0),
    /** When it may be tried (again). */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** A sender is on it until then; a sender that died lets the next one take it after this. */
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
    /** When its link stops working: a message still waiting then is dropped, not sent. */
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    /** The last failure's code ("421", "ECONNREFUSED"), never the server's text (it quotes the recipient). */
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    // What the senders look for: pending messages, the soonest due first.
    index("mail_queue_pending_idx").on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    check("mail_queue_status_check", sql`${table.status} in ('pending', 'sent', 'failed', 'expired')`),
    check(
      "mail_queue_pending_has_message",
      sql`${table.status} <> 'pending' or (${table.recipient} is not null and ${table.textBody} is not null)`,
    ),
  ],
);
