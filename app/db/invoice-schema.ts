import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
// Lazily, in `references`: schema.ts re-exports this module.
import { orders } from "./schema";

// Invoices and credit notes with gapless numbers (issue 35, docs/decisions/0049).

/**
 * The last number each series gave in a year: the row a new document's
 * number is taken from, by an update in the transaction that issues it. The
 * row stays locked until that transaction ends, so the next document waits
 * and takes the next number; a transaction that fails gives its number back
 * with its rollback. Hence no gap and no repeat, however many at once.
 */
export const documentCounters = pgTable(
  "document_counters",
  {
    /** "invoice" or "credit-note": each its own sequence. */
    series: text("series").notNull(),
    year: integer("year").notNull(),
    last: integer("last").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.series, table.year] }),
    check("document_counters_series_check", sql`${table.series} in ('invoice', 'credit-note')`),
    check("document_counters_last_check", sql`${table.last} >= 1`),
  ],
);

/**
 * An order's invoice (issued once it is paid) or the credit note that cancels
 * it (issued when an invoiced order is cancelled or refunded): at most one of
 * each per order, numbered `2026-000001` and `CN-2026-000001`.
 */
export const orderDocuments = pgTable(
  "order_documents",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: bigint("order_id", { mode: "number" })
      .notNull()
      // Restrict: an invoice issued stays, whatever happens to the order.
      .references(() => orders.id, { onDelete: "restrict" }),
    series: text("series").notNull(),
    year: integer("year").notNull(),
    /** Its place in the year's series: 1, 2, 3, … with none missing. */
    sequence: integer("sequence").notNull(),
    /** What the document shows: "2026-000042", or "CN-2026-000007" for a credit note. */
    number: text("number").notNull(),
    /** A credit note's invoice: the number it cancels. */
    creditsNumber: text("credits_number"),
    issuedAt: timestamp("issued_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("order_documents_order_series_idx").on(table.orderId, table.series),
    uniqueIndex("order_documents_number_idx").on(table.series, table.year, table.sequence),
    check("order_documents_series_check", sql`${table.series} in ('invoice', 'credit-note')`),
    check(
      "order_documents_credits_check",
      sql`(${table.series} = 'credit-note') = (${table.creditsNumber} is not null)`,
    ),
  ],
);
