import { and, desc, eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { products, reviews, users } from "~/db/schema";
import { type Actor, productName, recordChange } from "~/utils/audit-log.server";
import { z } from "~/utils/zod";
import { REVIEW_COLUMNS } from "./review-listing.server";

/**
 * Reviews in the back office (/admin/reviews, docs/decisions/0033): staff
 * and owners read every review, newest first, and hide one (with the reason,
 * kept in the audit log and on the review) or restore it. A hidden review
 * stops counting in its product's rating at once (drizzle/0015's trigger, in
 * the same transaction) and is no longer shown, but for to its author.
 */

const PER_PAGE = 25;

const REVIEW_FILTERS = ["all", "published", "hidden"] as const;

export const reviewListSchema = z.object({
  show: z.enum(REVIEW_FILTERS, "show is one of all, published, hidden.").default("all"),
  /** Keyset paging: the id of the last review of the page before (its time is read exactly from it). */
  after: z.coerce
    .number("after is the page's own link; open the list again.")
    .int("after is the page's own link; open the list again.")
    .min(1, "after is the page's own link; open the list again.")
    .max(Number.MAX_SAFE_INTEGER, "after is the page's own link; open the list again.")
    .optional(),
});

export const moderationSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("hide"),
      reviewId: z.coerce.number("Choose a review.").int().min(1).max(Number.MAX_SAFE_INTEGER),
      reason: z
        .string({ error: "Say why it is hidden: the audit log keeps it.", label: "The reason" })
        .trim()
        .min(3, "Say why it is hidden, in a few words: the audit log keeps it.")
        .max(300, "The reason must be at most 300 characters."),
    }),
    z.object({
      intent: z.literal("restore"),
      reviewId: z.coerce.number("Choose a review.").int().min(1).max(Number.MAX_SAFE_INTEGER),
    }),
  ],
  { error: "intent is one of hide, restore." },
);

export async function backOfficeReviews(db: Database, query: z.infer<typeof reviewListSchema>) {
  const filters: (SQL | undefined)[] = [
    query.show === "hidden" ? isNotNull(reviews.hiddenAt) : undefined,
    query.show === "published" ? isNull(reviews.hiddenAt) : undefined,
  ];
  if (query.after) {
    // Compared with the row's own time in the database, to the microsecond: no review is skipped.
    filters.push(
      sql`(${reviews.createdAt}, ${reviews.id}) < (select r.created_at, r.id from ${reviews} r where r.id = ${query.after})`,
    );
  }
  const rows = await db
    .select({
      ...REVIEW_COLUMNS,
      authorEmail: users.email,
      productId: products.id,
      productName: products.name,
      createdAt: reviews.createdAt,
      hiddenAt: reviews.hiddenAt,
      hiddenReason: reviews.hiddenReason,
      helpfulCount: reviews.helpfulCount,
    })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.userId))
    .innerJoin(products, eq(products.id, reviews.productId))
    .where(and(...filters))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(PER_PAGE + 1);
  const page = rows.slice(0, PER_PAGE);
  const last = page.at(-1);
  return {
    show: query.show,
    reviews: page.map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      hiddenAt: row.hiddenAt?.toISOString() ?? null,
    })),
    next: rows.length > PER_PAGE && last ? String(last.id) : null,
  };
}

export type Moderation =
  | { outcome: "done"; hidden: boolean }
  | { outcome: "unchanged" }
  | { outcome: "not-found" };

/** Hides or restores one review, with its audit entry, in one transaction; twice is a no-op. */
export function moderateReview(
  db: Database,
  actor: Actor,
  change: z.infer<typeof moderationSchema>,
): Promise<Moderation> {
  return db.transaction(async (tx) => {
    const [review] = await tx
      .select({
        id: reviews.id,
        productId: reviews.productId,
        hiddenAt: reviews.hiddenAt,
        reason: reviews.hiddenReason,
        // For the audit entry: which product's review it was, by name and SKU.
        productName: products.name,
        productSku: products.sku,
      })
      .from(reviews)
      .innerJoin(products, eq(products.id, reviews.productId))
      .where(eq(reviews.id, change.reviewId))
      .for("update", { of: reviews });
    if (!review) return { outcome: "not-found" };
    const hide = change.intent === "hide";
    if ((review.hiddenAt !== null) === hide) return { outcome: "unchanged" };
    await tx
      .update(reviews)
      .set(
        hide ? { hiddenAt: sql`now()`, hiddenReason: change.reason } : { hiddenAt: null, hiddenReason: null },
      )
      .where(eq(reviews.id, review.id));
    await recordChange(tx, actor, {
      action: hide ? "review.hidden" : "review.restored",
      subject: `review:${review.id}`,
      subjectName: `a review of ${productName({ name: review.productName, sku: review.productSku })}`,
      before: { product: review.productId, hidden: !hide, ...(hide ? {} : { reason: review.reason }) },
      after: { product: review.productId, hidden: hide, ...(hide ? { reason: change.reason } : {}) },
    });
    return { outcome: "done", hidden: hide };
  });
}
