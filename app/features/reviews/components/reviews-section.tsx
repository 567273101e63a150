import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { useFocusWhenShown } from "~/components/forms/use-focus-when-shown";
import { buttonClasses } from "~/components/ui/button";
import { StarIcon } from "~/components/ui/icons";
import { useShopperLocale } from "~/utils/locale";
import type { ProductReviews, ShownReview } from "../review-listing.server";
import { ReviewForm } from "./review-form";

/** What the last review form did, in words (the address's `?review=`). */
const DONE_WORDS: Readonly<Record<string, string>> = {
  created: "Thank you: your review is posted.",
  updated: "Your review is saved.",
  deleted: "Your review is deleted.",
  helpful: "Thank you for saying it helped.",
  own: "Your own review cannot be marked helpful.",
  gone: "That review is no longer shown.",
};

/**
 * A product's reviews on its page (docs/decisions/0033): the mean and how
 * many of each star (as text and bars, the bars only repeating the
 * numbers), the reviews newest or most helpful first, ten at a time, each
 * with its author's name and "Verified buyer", its text as plain text; the
 * shopper's form — or why there is none. Works without JavaScript: every
 * action is a plain form, the order and the pages are links.
 */
export function ReviewsSection({
  reviews,
  rating,
  productPath,
  done,
  answer,
}: {
  reviews: ProductReviews;
  rating: { mean: number; count: number };
  /** The product's page, for the order and page links. */
  productPath: string;
  /** The address's `?review=`: what the last form did. */
  done: string | null;
  answer: SubmissionResult | undefined;
}) {
  const message = done ? DONE_WORDS[done] : undefined;
  const messageRef = useFocusWhenShown<HTMLParagraphElement>(message ?? null);
  const link = (changes: Record<string, string>) => {
    const params = new URLSearchParams({
      reviews: reviews.order,
      reviewsPage: String(reviews.page),
      ...changes,
    });
    return `${productPath}?${params}#reviews`;
  };
  return (
    <section id="reviews" aria-labelledby="reviews-heading" className="mt-16 scroll-mt-24">
      <h2 id="reviews-heading" className="text-xl font-bold text-slate-900">
        Reviews
      </h2>
      {message ? (
        <p
          ref={messageRef}
          tabIndex={-1}
          role="status"
          className="mt-4 rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 font-medium text-emerald-900"
        >
          {message}
        </p>
      ) : null}
      <div className="mt-6 grid gap-10 lg:grid-cols-3">
        <div className="space-y-6">
          <Summary rating={rating} distribution={reviews.distribution} />
          <Panel title={reviews.own ? "Your review" : "Write a review"}>
            {reviews.own?.hidden ? (
              <p className="mb-4 rounded-lg border border-amber-400 bg-amber-50 px-3 py-2 text-amber-950">
                The shop has hidden your review: it is not shown to others and does not count in the rating.
              </p>
            ) : null}
            {reviews.own ? (
              <p className="mb-4 text-sm text-slate-700">
                You have reviewed this product: change or delete your review.
              </p>
            ) : null}
            {reviews.notAllowed && !reviews.own ? (
              <p className="text-slate-800">
                {reviews.notAllowed}{" "}
                {!reviews.signedIn ? (
                  <Link
                    to={`/login?redirectTo=${encodeURIComponent(`${productPath}#reviews`)}`}
                    className="font-semibold text-indigo-700 underline underline-offset-4"
                  >
                    Sign in
                  </Link>
                ) : null}
              </p>
            ) : (
              // A new form once the review is deleted (or posted): its fields start from what the page says.
              <ReviewForm key={reviews.own ? "change" : "write"} own={reviews.own} answer={answer} />
            )}
          </Panel>
        </div>
        <div className="lg:col-span-2">
          {reviews.total === 0 ? (
            <p className="text-slate-800">No reviews yet.</p>
          ) : (
            <>
              <nav aria-label="Order of the reviews" className="flex flex-wrap items-center gap-3 text-sm">
                <span className="text-slate-700">Show:</span>
                {(["newest", "helpful"] as const).map((order) => (
                  <Link
                    key={order}
                    to={link({ reviews: order, reviewsPage: "1" })}
                    aria-current={reviews.order === order ? "true" : undefined}
                    preventScrollReset
                    className={`rounded-full border px-3 py-1 font-semibold ${
                      reviews.order === order
                        ? "border-indigo-700 bg-indigo-700 text-white"
                        : "border-slate-500 text-slate-900 underline-offset-4 hover:underline"
                    }`}
                  >
                    {order === "newest" ? "Newest first" : "Most helpful first"}
                  </Link>
                ))}
              </nav>
              {reviews.reviews.length === 0 ? (
                <p className="mt-4 text-slate-800">
                  No reviews on this page.{" "}
                  <Link
                    to={link({ reviewsPage: "1" })}
                    className="font-semibold text-indigo-700 underline underline-offset-4"
                  >
                    See the first ones
                  </Link>
                </p>
              ) : null}
              <ol className="mt-4 divide-y divide-slate-200">
                {reviews.reviews.map((review) => (
                  <ReviewItem key={review.id} review={review} signedIn={reviews.signedIn} />
                ))}
              </ol>
              {reviews.totalPages > 1 ? (
                <nav
                  aria-label="Pages of reviews"
                  className="mt-6 flex flex-wrap items-center justify-between gap-3"
                >
                  {reviews.page > 1 ? (
                    <Link
                      to={link({ reviewsPage: String(reviews.page - 1) })}
                      preventScrollReset
                      className={buttonClasses("secondary")}
                    >
                      Previous reviews
                    </Link>
                  ) : (
                    <span />
                  )}
                  <span className="text-sm text-slate-700">{`Page ${reviews.page} of ${reviews.totalPages}`}</span>
                  {reviews.page < reviews.totalPages ? (
                    <Link
                      to={link({ reviewsPage: String(reviews.page + 1) })}
                      preventScrollReset
                      className={buttonClasses("secondary")}
                    >
                      More reviews
                    </Link>
                  ) : (
                    <span />
                  )}
                </nav>
              ) : null}
            </>
          )}
        </div>
      </div>
    </section>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-xl border border-slate-300 bg-white p-5">
      <h3 className="text-lg font-bold text-slate-900">{title}</h3>
      <div className="mt-3">{children}</div>
    </div>
  );
}

/** The mean and each star's count: in words for everyone, bars that repeat them for the eye. */
function Summary({
  rating,
  distribution,
}: {
  rating: { mean: number; count: number };
  distribution: ProductReviews["distribution"];
}) {
  if (rating.count === 0) return null;
  const most = Math.max(...distribution.map((row) => row.count), 1);
  return (
    <div>
      <p className="text-lg font-semibold text-slate-900">
        {`${rating.mean.toFixed(1)} out of 5 from ${rating.count} ${rating.count === 1 ? "review" : "reviews"}`}
      </p>
      <table className="mt-3 w-full text-sm">
        <caption className="sr-only">How many reviews gave each number of stars</caption>
        <tbody>
          {distribution.map((row) => (
            <tr key={row.rating}>
              <th
                scope="row"
                className="w-16 py-1 pr-2 text-left font-medium whitespace-nowrap text-slate-800"
              >
                {`${row.rating} ${row.rating === 1 ? "star" : "stars"}`}
              </th>
              <td className="py-1" aria-hidden="true">
                <div className="h-2.5 w-full rounded-full border border-slate-400 bg-slate-100">
                  <div
                    className="h-full rounded-full bg-amber-500"
                    style={{ width: `${(row.count / most) * 100}%` }}
                  />
                </div>
              </td>
              <td className="w-10 py-1 pl-2 text-right text-slate-800 tabular-nums">{row.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ReviewItem({ review, signedIn }: { review: ShownReview; signedIn: boolean }) {
  const locale = useShopperLocale();
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(review.createdAt),
  );
  return (
    <li className="py-5">
      <article aria-labelledby={`review-${review.id}`}>
        <p className="flex items-center gap-2">
          <span aria-hidden="true" className="flex text-amber-500">
            {[1, 2, 3, 4, 5].map((place) => (
              <StarIcon key={place} className={`size-4 ${place <= review.rating ? "" : "text-slate-300"}`} />
            ))}
          </span>
          <span className="text-sm font-semibold text-slate-900">{`${review.rating} out of 5 stars`}</span>
        </p>
        <h3 id={`review-${review.id}`} className="mt-2 font-bold break-words text-slate-900">
          {review.title ?? `${review.rating} stars from ${review.author}`}
        </h3>
        <p className="mt-1 text-sm text-slate-700">
          <span className="font-semibold text-slate-900">{review.author}</span>
          {" · "}
          <span className="font-semibold text-emerald-800">
            <span aria-hidden="true">✓ </span>Verified buyer
          </span>
          {" · "}
          <time dateTime={review.createdAt}>{date}</time>
          {review.edited ? " · edited" : ""}
        </p>
        {review.body ? (
          // Plain text: React escapes it, and nothing turns an address in it into a link.
          <p className="mt-2 break-words whitespace-pre-line text-slate-800">{review.body}</p>
        ) : null}
        <div className="mt-3 flex flex-wrap items-center gap-3 text-sm text-slate-700">
          <span>{`${review.helpfulCount} ${review.helpfulCount === 1 ? "person" : "people"} found this helpful`}</span>
          {signedIn && !review.mine && !review.markedHelpful ? (
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="helpful" />
              <input type="hidden" name="reviewId" value={review.id} />
              <button type="submit" className={buttonClasses("secondary", "sm")}>
                Helpful
                <span className="sr-only">{`: ${review.title ?? `the review by ${review.author}`}`}</span>
              </button>
            </Form>
          ) : null}
          {review.markedHelpful ? (
            <span className="font-medium text-slate-800">You found this helpful.</span>
          ) : null}
          {review.mine ? <span className="font-medium text-slate-800">Your review.</span> : null}
        </div>
      </article>
    </li>
  );
}
