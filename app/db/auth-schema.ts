import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Accounts, as Better Auth expects them (app/features/auth/auth.server.ts maps
 * its models user/session/account/verification onto these tables). The JS
 * property names are Better Auth's field names; the SQL names follow the shop's
 * snake_case. Emails are stored lower-cased by Better Auth, so the unique
 * index on `email` is what makes fifty simultaneous sign-ups create one account.
 */
const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique("users_email_unique"),
    emailVerified: boolean("email_verified").notNull().default(false),
    /** Profile photo URL (http or https), or null. */
    image: text("image"),
    /**
     * Who may enter the back office (docs/decisions/0029): every account is a
     * shopper; an owner makes others staff or owner. The shop's own column,
     * which Better Auth never reads or writes.
     */
    role: text("role").notNull().default("shopper"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check("users_role_check", sql`${table.role} in ('shopper', 'staff', 'owner')`),
    // The back office's people page lists those who are not shoppers.
    index("users_role_idx").on(table.role).where(sql`${table.role} <> 'shopper'`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    /** The session cookie's value (signed in the cookie); revoking a session deletes its row. */
    token: text("token").notNull().unique("sessions_token_unique"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

/** A way to sign in: `credential` (password hash) or an identity provider's subject. */
export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    providerId: text("provider_id").notNull(),
    accountId: text("account_id").notNull(),
    /** Argon2id PHC string for `credential` accounts (app/features/auth/password-hasher.server.ts). */
    password: text("password"),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true, mode: "date" }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true, mode: "date" }),
    scope: text("scope"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index("accounts_user_id_idx").on(table.userId),
    uniqueIndex("accounts_provider_account_unique").on(table.providerId, table.accountId),
  ],
);

/** Short-lived values such as OAuth `state` (with its PKCE verifier and nonce). */
export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

export type UserRow = typeof users.$inferSelect;
