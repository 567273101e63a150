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
  /** The form again with `message` above it; what the shopper wrote stays unless `keep` is false. */
  const refused = (message: string, status: number, headers: HeadersInit = NO_STORE, keep = true) =>
    data(
      { review: submission.reply({ formErrors: [message], ...(keep ? { resetForm: false } : {}) }) },
      { status, headers },
    );
  const value = submission.value;
  if (!userId) {
    return refused(NOT_ALLOWED_WORDS["signed-out"], 401, NO_STORE, false);
  }
  try {
    return await act(value);
  } catch (error) {
    // Waiting on the catalogue's lock past the statement timeout (a large import writing), or a lock
    // cycle that came back on every try: nothing was written; the form may be sent again.
    if (failedWith(error, QUERY_CANCELED) || failedWith(error, DEADLOCK_DETECTED)) {
      return refused(
        "The shop's catalogue is being updated: your review was not saved. Send it again in a minute.",
        503,
        { ...NO_STORE, "Retry-After": "60" },
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
          return refused(NOT_ALLOWED_WORDS[saved.why], 403);
        }
        if (saved.outcome === "limited") {
          return refused(
            "You have posted 10 reviews today: post this one tomorrow. What you wrote is still here.",
            429,
            { ...NO_STORE, "Retry-After": "86400" },
          );
        }
        if (saved.outcome === "already") {
          return refused(
            "You have reviewed this product already (another tab, perhaps): your review is on this page again. Change it there.",
            409,
          );
        }
        throw back(saved.outcome);
      }
      case "delete": {
        const deleted = await deleteReview(db, author, productId);
        if (deleted === "hidden") {
          return refused(
            "The shop has hidden your review: it stays hidden and cannot be deleted. You can still change it.",
            403,
            NO_STORE,
            false,
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
