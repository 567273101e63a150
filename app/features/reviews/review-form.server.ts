import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Database } from "~/db/client.server";
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
  switch (value.intent) {
    case "save": {
      const saved = await saveReview(db, userId, productId, value);
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
      throw back(saved.outcome);
    }
    case "delete":
      await deleteReview(db, userId, productId);
      throw back("deleted");
    case "helpful": {
      const marked = await markHelpful(db, userId, productId, value.reviewId);
      if (marked === "not-found") throw data(null, { status: 404 });
      // Marked now or before (a second click): either way it counts once.
      throw back("helpful");
    }
  }
}
