import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth-schema";
import { bytea } from "./column-types";
// Lazily, in `references`: schema.ts re-exports this module.
import { orders } from "./schema";

// The back office (docs/decisions/0029).

/**
 * What happened to an order after it was placed, and who did it: its
 * timeline. A status change is written in the transaction that makes it.
 */
export const orderEvents = pgTable(
  "order_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: bigint("order_id", { mode: "number" })
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    fromStatus: text("from_status").notNull(),
    toStatus: text("to_status").notNull(),
    /** Who made the change (null once their account is deleted; `actorName` stays). */
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name").notNull(),
    /** The tracking number of a shipment, the reason for a cancellation. */
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [index("order_events_order_idx").on(table.orderId, table.createdAt)],
);

/**
 * Every change made in the back office: who, what, the values before and
 * after, when. Written in the transaction of the change itself, so a change
 * without its entry (or an entry without its change) cannot happen. Owners
 * read it at /admin/activity.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** The actor's email when they acted: the entry still says who after their account is gone. */
    actorEmail: text("actor_email").notNull(),
    /** What was done, in the shop's words: "product.updated", "order.shipped", "person.role-changed". */
    action: text("action").notNull(),
    /** What it was done to: "product:42", "order:BL-7Q4K9", "settings". */
    subject: text("subject").notNull(),
    /**
     * What the subject was called when the change was made ("Steel kettle
     * (SKU KT-1)", "order BL-7Q4K9", "Ada (ada@example.com)"): an entry
     * reads the same after a rename or a deletion (docs/decisions/0029).
     */
    subjectName: text("subject_name").notNull().default(""),
    /** Every name the entry can be found by (the actor, the subject, the products it names): /admin/activity's search. */
    searchText: text("search_text").notNull().default(""),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    index("audit_log_created_at_idx").on(table.createdAt),
    index("audit_log_subject_idx").on(table.subject, table.createdAt),
  ],
);

/**
 * The settings an owner changes in the back office (shipping amounts, bank
 * details, the low-stock line): one row per setting, its value as JSON. A
 * setting with no row takes its default from the configuration (env).
 */
export const shopSettings = pgTable("shop_settings", {
  name: text("name").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/**
 * A catalogue file uploaded at /admin/products/import: kept from its dry run
 * to its confirmation (so what is confirmed is what was checked), and its
 * progress while it is written, which any process can report.
 */
export const catalogImports = pgTable("catalog_imports", {
  id: uuid("id").primaryKey().defaultRandom(),
  actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
  /** The file's name as uploaded, and its format (csv, json, shopify). */
  fileName: text("file_name").notNull(),
  format: text("format").notNull(),
  content: bytea("content").notNull(),
  /** checked (dry run shown), writing, done, failed. */
  status: text("status").notNull().default("checked"),
  /** The dry run: what will be added, changed, removed, and the bad lines. */
  plan: jsonb("plan"),
  progressDone: integer("progress_done").notNull().default(0),
  progressTotal: integer("progress_total").notNull().default(0),
  result: jsonb("result"),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});
