import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { data } from "react-router";
import type { Database } from "~/db/client.server";
import { reviewHelpfulVotes, reviews, users } from "~/db/schema";
import { type ReviewOrder, reviewListQuerySchema } from "./review-schema";
import { eligibility, NOT_ALLOWED_WORDS } from "./review-writing.server";

/**
 * A product's reviews as its page shows them (docs/decisions/0033): ten at a
 * time, newest or most helpful first (partial indexes on published reviews
 * serve both), how many of each star, and for the signed-in shopper their
 * own review (hidden ones too: they see why it is not shown), whether they
 * may write one and why not, and which reviews they found helpful.
 */

const REVIEWS_PER_PAGE = 10;

/** What every list of reviews shows of one: its stars, words and author's name (joined from users). */
export const REVIEW_COLUMNS = {
  id: reviews.id,
  rating: reviews.rating,
  title: reviews.title,
  body: reviews.body,
  author: users.name,
};

export interface ShownReview {
  id: number;
  rating: number;
  title: string | null;
  body: string | null;
  author: string;
  createdAt: string;
  /** Changed after it was first posted. */
  edited: boolean;
  helpfulCount: number;
  /** The viewer marked it helpful already. */
  markedHelpful: boolean;
  mine: boolean;
}

export interface OwnReview {
  rating: number;
  title: string | null;
  body: string | null;
  /** Hidden by the shop: its author sees it and why; nobody else. */
  hidden: boolean;
}

export async function productReviews(
  db: Database,
  productId: number,
  viewerId: string | null,
  params: URLSearchParams,
) {
  const parsed = reviewListQuerySchema.safeParse({
    reviews: params.get("reviews") ?? undefined,
    reviewsPage: params.get("reviewsPage") ?? undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw data(
      { problem: { parameter: String(issue?.path[0] ?? "reviews"), message: issue?.message ?? "" } },
      { status: 400 },
    );
  }
  const query = parsed.data;
  const published = and(eq(reviews.productId, productId), isNull(reviews.hiddenAt));
  const [listed, stars, own, allowed] = await Promise.all([
    db
      .select({
        ...REVIEW_COLUMNS,
        userId: reviews.userId,
        createdAt: reviews.createdAt,
        updatedAt: reviews.updatedAt,
        helpfulCount: reviews.helpfulCount,
        markedHelpful: viewerId
          ? sql<boolean>`exists (select 1 from ${reviewHelpfulVotes}
              where ${reviewHelpfulVotes.reviewId} = ${reviews.id} and ${reviewHelpfulVotes.userId} = ${viewerId})`
          : sql<boolean>`false`,
      })
      .from(reviews)
      .innerJoin(users, eq(users.id, reviews.userId))
      .where(published)
      .orderBy(...orderOf(query.reviews))
      .limit(REVIEWS_PER_PAGE)
      .offset((query.reviewsPage - 1) * REVIEWS_PER_PAGE),
    db
      .select({ rating: reviews.rating, count: sql<number>`count(*)::int` })
      .from(reviews)
      .where(published)
      .groupBy(reviews.rating),
    viewerId
      ? db
          .select({
            rating: reviews.rating,
            title: reviews.title,
            body: reviews.body,
            hiddenAt: reviews.hiddenAt,
          })
          .from(reviews)
          .where(and(eq(reviews.productId, productId), eq(reviews.userId, viewerId)))
      : Promise.resolve([]),
    eligibility(db, viewerId, productId),
  ]);
  const distribution = [5, 4, 3, 2, 1].map((rating) => ({
    rating,
    count: Number(stars.find((row) => row.rating === rating)?.count ?? 0),
  }));
  const total = distribution.reduce((sum, row) => sum + row.count, 0);
  const mine = own[0];
  return {
    order: query.reviews,
    page: query.reviewsPage,
    totalPages: Math.max(1, Math.ceil(total / REVIEWS_PER_PAGE)),
    total,
    distribution,
    reviews: listed.map(
      (review): ShownReview => ({
        id: review.id,
        rating: review.rating,
        title: review.title,
        body: review.body,
        author: review.author,
        createdAt: review.createdAt.toISOString(),
        // A minute's grace: the same post's timestamps differ by a statement or two.
        edited: review.updatedAt.getTime() - review.createdAt.getTime() > 60_000,
        helpfulCount: review.helpfulCount,
        markedHelpful: Boolean(review.markedHelpful),
        mine: review.userId === viewerId,
      }),
    ),
    own: mine
      ? ({
          rating: mine.rating,
          title: mine.title,
          body: mine.body,
          hidden: mine.hiddenAt !== null,
        } as OwnReview)
      : null,
    signedIn: viewerId !== null,
    /** Why the viewer may not write a review, in words; null when they may (or have: `own`). */
    notAllowed: allowed.may ? null : NOT_ALLOWED_WORDS[allowed.why],
  };
}

export type ProductReviews = Awaited<ReturnType<typeof productReviews>>;

function orderOf(order: ReviewOrder) {
  return order === "helpful"
    ? [desc(reviews.helpfulCount), desc(reviews.createdAt), desc(reviews.id)]
    : [desc(reviews.createdAt), desc(reviews.id)];
}
