import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "./auth-schema";
// Lazily, in `references`: schema.ts re-exports this module.
import { products } from "./schema";

// Reviews from verified buyers (docs/decisions/0033).

/**
 * A shopper's review of a product they bought and received: one per shopper
 * and product. Hidden by staff, it stays (its author still sees it) but no
 * longer counts. drizzle/0015's trigger keeps each product's `rating_sum`,
 * `rating_count` and `ratings` (the mean) in step with its published
 * reviews, by increments, in the transaction of every change — a cascade
 * from a deleted account included.
 */
export const reviews = pgTable(
  "reviews",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** Deleting an account deletes its reviews. */
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rating: smallint("rating").notNull(),
    title: text("title"),
    body: text("body"),
    /** Shoppers who marked it helpful (review_helpful_votes), counted for "Most helpful". */
    helpfulCount: integer("helpful_count").notNull().default(0),
    /** Hidden by staff or an owner: no longer shown nor counted. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true, mode: "date" }),
    hiddenReason: text("hidden_reason"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("reviews_product_user_idx").on(table.productId, table.userId),
    // A product's page: its published reviews, newest or most helpful first, ten at a time.
    index("reviews_product_newest_idx")
      .on(table.productId, table.createdAt.desc(), table.id.desc())
      .where(sql`${table.hiddenAt} is null`),
    index("reviews_product_helpful_idx")
      .on(table.productId, table.helpfulCount.desc(), table.createdAt.desc(), table.id.desc())
      .where(sql`${table.hiddenAt} is null`),
    // A shopper's reviews of the last day (the daily limit), and the back office's newest first.
    index("reviews_user_created_idx").on(table.userId, table.createdAt),
    index("reviews_created_idx").on(table.createdAt.desc(), table.id.desc()),
    check("reviews_rating_check", sql`${table.rating} between 1 and 5`),
    check("reviews_title_check", sql`char_length(${table.title}) <= 120`),
    check("reviews_body_check", sql`char_length(${table.body}) <= 5000`),
  ],
);

/** A signed-in shopper found a review helpful: once each (the primary key). */
export const reviewHelpfulVotes = pgTable(
  "review_helpful_votes",
  {
    reviewId: bigint("review_id", { mode: "number" })
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.reviewId, table.userId] })],
);

/**
 * Each review a shopper posted, kept when the review is deleted: the daily
 * limit (10) counts posts, so deleting and posting again does not reset it.
 * Rows older than a day serve nothing and are removed as new ones come.
 */
export const reviewPosts = pgTable(
  "review_posts",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    postedAt: timestamp("posted_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [index("review_posts_user_idx").on(table.userId, table.postedAt)],
);
