import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { useFocusWhenShown } from "~/components/forms/use-focus-when-shown";
import { buttonClasses } from "~/components/ui/button";
import type { reviewModerationPage } from "../review-moderation-form.server";

type ModerationPage = Awaited<ReturnType<typeof reviewModerationPage>>;
type Listed = Extract<ModerationPage, { ok: true }>["reviews"][number];

const FILTERS = [
  { value: "all", label: "All" },
  { value: "published", label: "Shown" },
  { value: "hidden", label: "Hidden" },
] as const;

/**
 * The back office's reviews: a filter (all, shown, hidden), each review as
 * a card (product, author, stars in words, text as plain text, its state in
 * words), Hide with a required reason or Restore, and the next page. Plain
 * forms and links, so it works without JavaScript; on a phone the cards
 * stack.
 */
export function ReviewModeration({
  page,
  done,
  answer,
}: {
  page: ModerationPage;
  done: string | null;
  answer: { reviewId?: unknown; result: SubmissionResult } | undefined;
}) {
  const message =
    done === "hidden" ? "The review is hidden." : done === "restored" ? "The review is shown again." : null;
  const messageRef = useFocusWhenShown<HTMLParagraphElement>(message);
  if (!page.ok) {
    return (
      <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-red-800">
        {Object.values(page.problem)[0]}{" "}
        <Link to="/admin/reviews" className="font-semibold underline">
          Show every review
        </Link>
      </p>
    );
  }
  return (
    <div className="space-y-5">
      {message ? (
        <p
          ref={messageRef}
          tabIndex={-1}
          role="status"
          className="rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 font-medium text-emerald-900"
        >
          {message}
        </p>
      ) : null}
      <nav aria-label="Which reviews" className="flex flex-wrap gap-2 text-sm">
        {FILTERS.map((filter) => (
          <Link
            key={filter.value}
            to={filter.value === "all" ? "/admin/reviews" : `/admin/reviews?show=${filter.value}`}
            aria-current={page.show === filter.value ? "page" : undefined}
            className={`rounded-full border px-3 py-1 font-semibold ${
              page.show === filter.value
                ? "border-indigo-700 bg-indigo-700 text-white"
                : "border-slate-500 text-slate-900 hover:underline"
            }`}
          >
            {filter.label}
          </Link>
        ))}
      </nav>
      {page.reviews.length === 0 ? (
        <p className="text-slate-800">No reviews to show here.</p>
      ) : (
        <ol className="space-y-4">
          {page.reviews.map((review) => (
            <ReviewCard
              key={review.id}
              review={review}
              answer={answer && Number(answer.reviewId) === review.id ? answer.result : undefined}
            />
          ))}
        </ol>
      )}
      {page.next ? (
        <Link
          to={`/admin/reviews?${new URLSearchParams({ ...(page.show === "all" ? {} : { show: page.show }), after: page.next })}`}
          className={buttonClasses("secondary")}
        >
          Older reviews
        </Link>
      ) : null}
    </div>
  );
}

function ReviewCard({ review, answer }: { review: Listed; answer: SubmissionResult | undefined }) {
  const error = answer?.error?.reason?.[0] ?? answer?.error?.[""]?.[0] ?? answer?.error?.reviewId?.[0];
  // With JavaScript the refusal comes without a page load: the field in error takes the focus then.
  const formRef = useFailedSubmission(answer);
  const reasonId = `reason-${review.id}`;
  return (
    <li id={`review-${review.id}`} className="rounded-lg border border-slate-300 bg-white p-4">
      <article aria-labelledby={`review-${review.id}-title`} className="space-y-2">
        <h2 id={`review-${review.id}-title`} className="font-bold break-words text-slate-900">
          {`${review.rating} out of 5 stars`}
          {review.title ? ` — ${review.title}` : ""}
        </h2>
        <p className="text-sm break-words text-slate-700">
          {"On "}
          <Link
            to={`/admin/products/${review.productId}`}
            className="font-semibold text-indigo-700 underline underline-offset-4"
          >
            {review.productName}
          </Link>
          {` by ${review.author} (${review.authorEmail}) · `}
          <time dateTime={review.createdAt}>{review.createdAt.slice(0, 10)}</time>
          {` · ${review.helpfulCount} found it helpful`}
        </p>
        {review.body ? <p className="break-words whitespace-pre-line text-slate-800">{review.body}</p> : null}
        <p className="text-sm font-semibold text-slate-900">
          {review.hiddenAt
            ? `Hidden: ${review.hiddenReason ?? "no reason given"}`
            : "Shown on the product's page"}
        </p>
        {review.hiddenAt ? (
          <Form method="post">
            <input type="hidden" name="intent" value="restore" />
            <input type="hidden" name="reviewId" value={review.id} />
            <button type="submit" className={buttonClasses("secondary", "sm")}>
              Show it again
            </button>
          </Form>
        ) : (
          <Form ref={formRef} method="post" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="hide" />
            <input type="hidden" name="reviewId" value={review.id} />
            <div className="min-w-0 flex-1">
              <label htmlFor={reasonId} className="block text-sm font-semibold text-slate-800">
                Why hide it (kept in the activity log)
              </label>
              <input
                id={reasonId}
                name="reason"
                required
                minLength={3}
                maxLength={300}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${reasonId}-error` : undefined}
                // biome-ignore lint/a11y/noAutofocus: the reason the server refused, focused without JavaScript too
                autoFocus={Boolean(error)}
                className={`mt-1 block h-9 w-full rounded-lg border bg-white px-3 text-sm text-slate-900 ${error ? "border-red-600" : "border-slate-500"}`}
              />
              {error ? (
                <p id={`${reasonId}-error`} className="mt-1 text-sm font-medium text-red-700">
                  {error}
                </p>
              ) : null}
            </div>
            <button type="submit" className={buttonClasses("danger", "sm")}>
              Hide<span className="sr-only">{` the review by ${review.author}`}</span>
            </button>
          </Form>
        )}
      </article>
    </li>
  );
}
