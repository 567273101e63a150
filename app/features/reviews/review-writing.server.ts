import { and, count, eq, gte, sql } from "drizzle-orm";
import { hasSaleStatus } from "~/commerce/sales";
import type { Database, Transaction } from "~/db/client.server";
import { retryingLockCycles } from "~/db/errors.server";
import { orderEvents, orderLines, orders, reviewHelpfulVotes, reviewPosts, reviews } from "~/db/schema";

/**
 * Who may review a product, and the reviews' writes (docs/decisions/0033):
 * a signed-in shopper whose order with the product has been shipped reviews
 * it once (a second review is an edit of the first), edits or deletes their
 * own, marks another's helpful once; at most 10 reviews posted a day. Each
 * write is one statement or one transaction; the product's rating follows
 * in the same transaction (drizzle/0015's trigger).
 */

/** Why the product page offers no review form, in the words it shows. */
export type NotAllowed = "signed-out" | "not-bought" | "not-shipped";

export type Eligibility = { may: true } | { may: false; why: NotAllowed };

export const NOT_ALLOWED_WORDS: Readonly<Record<NotAllowed, string>> = {
  "signed-out": "Sign in to review this product: reviews come from shoppers who bought it.",
  "not-bought":
    "Only shoppers who bought this product can review it, so every review comes from a verified buyer.",
  "not-shipped": "You can review this product once your order of it has been shipped.",
};

/** Reviews one shopper may post in a day (deleting one does not give it back). */
const REVIEWS_PER_DAY = 10;

/** Whether `userId` may review `productId`: bought it, and an order of it has left the shop. */
export async function eligibility(
  db: Database | Transaction,
  userId: string | null,
  productId: number,
): Promise<Eligibility> {
  if (!userId) return { may: false, why: "signed-out" };
  const [bought] = await db
    .select({
      shipped: sql<boolean>`bool_or(exists (
        select 1 from ${orderEvents}
        where ${orderEvents.orderId} = ${orders.id} and ${orderEvents.toStatus} = 'shipped'))`,
    })
    .from(orders)
    .innerJoin(orderLines, eq(orderLines.orderId, orders.id))
    // A cancelled order that never left the shop (or an unpaid card order) bought nothing.
    .where(
      and(
        eq(orders.userId, userId),
        eq(orderLines.productId, productId),
        sql`(${hasSaleStatus(orders.status)} or exists (
          select 1 from ${orderEvents}
          where ${orderEvents.orderId} = ${orders.id} and ${orderEvents.toStatus} = 'shipped'))`,
      ),
    );
  if (bought?.shipped === null || bought?.shipped === undefined) return { may: false, why: "not-bought" };
  return bought.shipped ? { may: true } : { may: false, why: "not-shipped" };
}

export interface ReviewInput {
  rating: number;
  title?: string;
  body?: string;
}

export type ReviewSaving =
  | { outcome: "created" | "updated" }
  | { outcome: "refused"; why: NotAllowed }
  /** A new review from a shopper who has one (another tab): theirs is not overwritten. */
  | { outcome: "already" }
  | { outcome: "limited" };

/** The advisory locks' class for the daily limit: one key space of the shop's own, apart from its fixed keys. */
const REVIEW_POSTS_LOCK_CLASS = 4_207_026;

/**
 * Writes the shopper's review of the product: a new one (counted against
 * the day's ten), or their existing one changed. Under a per-shopper
 * advisory lock, so ten posts at once never become eleven.
 */
export function saveReview(
  db: Database,
  userId: string | null,
  productId: number,
  input: ReviewInput,
  /** The form changed the shopper's review (it showed one); otherwise it is a new one. */
  editing = false,
): Promise<ReviewSaving> {
  return retryingLockCycles(() => db.transaction((tx) => saveIn(tx, userId, productId, input, editing)));
}

async function saveIn(
  tx: Transaction,
  userId: string | null,
  productId: number,
  input: ReviewInput,
  editing: boolean,
): Promise<ReviewSaving> {
  {
    const allowed = await eligibility(tx, userId, productId);
    if (!allowed.may) return { outcome: "refused", why: allowed.why };
    const author = userId as string;
    const fields = { rating: input.rating, title: input.title ?? null, body: input.body ?? null };
    const mine = and(eq(reviews.productId, productId), eq(reviews.userId, author));
    if (!editing) {
      const [existing] = await tx.select({ id: reviews.id }).from(reviews).where(mine);
      if (existing) return { outcome: "already" };
    }
    const updated = await tx
      .update(reviews)
      .set({ ...fields, updatedAt: sql`now()` })
      .where(mine)
      .returning({ id: reviews.id });
    if (updated.length > 0) return { outcome: "updated" };

    await tx.execute(sql`select pg_advisory_xact_lock(${REVIEW_POSTS_LOCK_CLASS}, hashtext(${author}))`);
    const [posted] = await tx
      .select({ count: count() })
      .from(reviewPosts)
      .where(and(eq(reviewPosts.userId, author), gte(reviewPosts.postedAt, sql`now() - interval '1 day'`)));
    if (Number(posted?.count ?? 0) >= REVIEWS_PER_DAY) return { outcome: "limited" };
    const created = await tx
      .insert(reviews)
      .values({ productId, userId: author, ...fields })
      // Two tabs posting at once: the second finds the first's row and changes it instead.
      .onConflictDoUpdate({
        target: [reviews.productId, reviews.userId],
        set: { ...fields, updatedAt: sql`now()` },
      })
      .returning({ created: sql<boolean>`xmax = 0` });
    if (!created[0]?.created) return { outcome: "already" };
    await tx.insert(reviewPosts).values({ userId: author });
    // What a day no longer needs: this shopper's older posts.
    await tx
      .delete(reviewPosts)
      .where(and(eq(reviewPosts.userId, author), sql`${reviewPosts.postedAt} < now() - interval '1 day'`));
    return { outcome: "created" };
  }
}

export type ReviewDeletion = "deleted" | "none" | "hidden";

/**
 * Deletes the shopper's own review of the product. A review the shop hid
 * stays (its author may still change it): deleting it and posting again
 * would undo the shop's decision. Deleting the account deletes it too.
 */
export function deleteReview(db: Database, userId: string, productId: number): Promise<ReviewDeletion> {
  return retryingLockCycles(async () => {
    const mine = and(eq(reviews.productId, productId), eq(reviews.userId, userId));
    const [review] = await db.select({ hiddenAt: reviews.hiddenAt }).from(reviews).where(mine);
    if (!review) return "none";
    if (review.hiddenAt) return "hidden";
    const deleted = await db
      .delete(reviews)
      .where(and(mine, sql`${reviews.hiddenAt} is null`))
      .returning({ id: reviews.id });
    return deleted.length > 0 ? "deleted" : "hidden";
  });
}

export type HelpfulMarking = "marked" | "already" | "own" | "not-found";

/**
 * A signed-in shopper finds a published review of this product helpful:
 * counted once per shopper (the vote's primary key), never their own.
 */
export function markHelpful(
  db: Database,
  userId: string,
  productId: number,
  reviewId: number,
): Promise<HelpfulMarking> {
  return db.transaction(async (tx) => {
    // The review's row is held until the vote is in: it cannot be deleted in between.
    const [review] = await tx
      .select({ userId: reviews.userId })
      .from(reviews)
      .where(
        and(eq(reviews.id, reviewId), eq(reviews.productId, productId), sql`${reviews.hiddenAt} is null`),
      )
      .for("share");
    if (!review) return "not-found";
    if (review.userId === userId) return "own";
    const voted = await tx
      .insert(reviewHelpfulVotes)
      .values({ reviewId, userId })
      .onConflictDoNothing()
      .returning({ reviewId: reviewHelpfulVotes.reviewId });
    if (voted.length === 0) return "already";
    await tx
      .update(reviews)
      .set({ helpfulCount: sql`${reviews.helpfulCount} + 1` })
      .where(eq(reviews.id, reviewId));
    return "marked";
  });
}
