import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Database } from "~/db/client.server";
import { DEADLOCK_DETECTED, failedWith, QUERY_CANCELED } from "~/db/errors.server";
import { readForm } from "~/utils/form-submission.server";
import { reviewFormSchema } from "./review-schema";
import { deleteReview, markHelpful, NOT_ALLOWED_WORDS, saveReview } from "./review-writing.server";

/**
 * The product page's review forms, sent (POST /products/<id>-<slug>):
 * parsed by the form's own schema, done by the writing services, answered
 * as a page is — the product page again on success, at its reviews, saying
 * what was done (post/redirect/get); the page with the form's messages
 * otherwise: 400 naming the field, 403 with why this shopper may not review
 * it (not signed in, not bought, not shipped yet).
 */
const NO_STORE = { "Cache-Control": "no-store" };

export async function reviewFormAction(
  request: Request,
  {
    db,
    userId,
    productId,
    productPath,
  }: { db: Database; userId: string | null; productId: number; productPath: string },
) {
  const submission = parseWithZod(await readForm(request), { schema: reviewFormSchema });
  if (submission.status !== "success") {
    return data({ review: submission.reply() }, { status: 400, headers: NO_STORE });
  }
  const back = (done: string) => {
    const url = new URL(request.url);
    url.searchParams.set("review", done);
    return redirect(`${productPath}?${url.searchParams}#reviews`, { status: 303 });
  };
  const value = submission.value;
  if (!userId) {
    return data(
      { review: submission.reply({ formErrors: [NOT_ALLOWED_WORDS["signed-out"]] }) },
      { status: 401, headers: NO_STORE },
    );
  }
  try {
    return await act(value);
  } catch (error) {
    // Waiting on the catalogue's lock past the statement timeout (a large import writing), or a lock
    // cycle that came back on every try: nothing was written; the form may be sent again.
    if (failedWith(error, QUERY_CANCELED) || failedWith(error, DEADLOCK_DETECTED)) {
      return data(
        {
          review: submission.reply({
            formErrors: [
              "The shop's catalogue is being updated: your review was not saved. Send it again in a minute.",
            ],
            resetForm: false,
          }),
        },
        { status: 503, headers: { ...NO_STORE, "Retry-After": "60" } },
      );
    }
    throw error;
  }

  async function act(value: Extract<typeof submission, { status: "success" }>["value"]) {
    const author = userId as string;
    switch (value.intent) {
      case "save": {
        const saved = await saveReview(db, author, productId, value, value.editing === "1");
        if (saved.outcome === "refused") {
          return data(
            { review: submission.reply({ formErrors: [NOT_ALLOWED_WORDS[saved.why]], resetForm: false }) },
            { status: 403, headers: NO_STORE },
          );
        }
        if (saved.outcome === "limited") {
          return data(
            {
              review: submission.reply({
                formErrors: [
                  "You have posted 10 reviews today: post this one tomorrow. What you wrote is still here.",
                ],
                resetForm: false,
              }),
            },
            { status: 429, headers: { ...NO_STORE, "Retry-After": "86400" } },
          );
        }
        if (saved.outcome === "already") {
          return data(
            {
              review: submission.reply({
                formErrors: [
                  "You have reviewed this product already (another tab, perhaps): your review is on this page again. Change it there.",
                ],
                resetForm: false,
              }),
            },
            { status: 409, headers: NO_STORE },
          );
        }
        throw back(saved.outcome);
      }
      case "delete": {
        const deleted = await deleteReview(db, author, productId);
        if (deleted === "hidden") {
          return data(
            {
              review: submission.reply({
                formErrors: [
                  "The shop has hidden your review: it stays hidden and cannot be deleted. You can still change it.",
                ],
              }),
            },
            { status: 403, headers: NO_STORE },
          );
        }
        // Deleted now or before (a second click): either way there is none.
        throw back("deleted");
      }
      case "helpful": {
        const marked = await markHelpful(db, author, productId, value.reviewId);
        // Counted once, now or before; never one's own; a review gone meanwhile is said so.
        throw back(marked === "not-found" ? "gone" : marked === "own" ? "own" : "helpful");
      }
    }
  }
}
