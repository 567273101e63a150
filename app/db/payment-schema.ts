import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
// Lazily, in `references`: schema.ts re-exports this module.
import { orders } from "./schema";

// Card payments (docs/decisions/0032).

/**
 * One Stripe Checkout session opened for a card order, and what became of
 * its payment. An order has one per attempt: the first when it is placed,
 * another only once the one before has expired or failed (paying again). A
 * webhook changes a row at most once per state, under the order's row lock;
 * a payment that arrives for an order no longer waiting for it (cancelled
 * meanwhile, or paid through another session) is kept and flagged
 * `needs_refund`, never taken as the order's.
 */
export const cardPayments = pgTable(
  "card_payments",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** Restrict: an order is never deleted, and its payments are its books. */
    orderId: bigint("order_id", { mode: "number" })
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** 1 for the session opened when the order was placed, 2 for the first pay-again, … */
    attempt: integer("attempt").notNull(),
    /** Stripe's `cs_…`. */
    checkoutSessionId: text("checkout_session_id").notNull().unique(),
    /** Where the shopper pays while the session is open: Stripe's page. */
    checkoutUrl: text("checkout_url"),
    /** open, paid, expired, failed, refunded. */
    status: text("status").notNull().default("open"),
    /** What the session asks for, in the currency's smallest unit: the order's total. */
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    /** Stripe's `pi_…`, known once paid: what a refund names. */
    paymentIntentId: text("payment_intent_id"),
    paidAt: timestamp("paid_at", { withTimezone: true, mode: "date" }),
    /** Paid for an order that no longer wanted it (cancelled, or paid twice): the owner refunds it. */
    needsRefund: boolean("needs_refund").notNull().default(false),
    /** Stripe's `re_…`. */
    refundId: text("refund_id"),
    refundedAt: timestamp("refunded_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("card_payments_order_attempt_idx").on(table.orderId, table.attempt),
    // The sweeper's "sessions left open for orders no longer waiting": few, looked for every minute.
    index("card_payments_open_idx").on(table.orderId).where(sql`${table.status} = 'open'`),
    // The dashboard's and the order list's "payments to refund": few, and read often.
    index("card_payments_needs_refund_idx").on(table.orderId).where(sql`${table.needsRefund}`),
    check(
      "card_payments_status_check",
      sql`${table.status} in ('open', 'paid', 'expired', 'failed', 'refunded')`,
    ),
    check("card_payments_amount_check", sql`${table.amountCents} > 0`),
  ],
);

/**
 * What the local stand-in for Stripe (DEMO_PAYMENT_PROVIDER=1) remembers:
 * its Checkout sessions (`session:cs_…`), which session a payment belongs to
 * (`payment:pi_…`) and the answers it gave to idempotency keys
 * (`idempotency:<key>`). In the database, so a session opened through one
 * process can be paid through another, as with Stripe itself.
 */
export const demoPaymentProviderRecords = pgTable("demo_payment_provider_records", {
  key: text("key").primaryKey(),
  payload: jsonb("payload").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});
