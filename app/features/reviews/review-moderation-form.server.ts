import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Database } from "~/db/client.server";
import type { Actor } from "~/utils/audit-log.server";
import { readForm } from "~/utils/form-submission.server";
import {
  backOfficeReviews,
  moderateReview,
  moderationSchema,
  reviewListSchema,
} from "./review-moderation.server";

/** /admin/reviews?show=hidden&after=…: a bad parameter is a 400 naming it. */
export async function reviewModerationPage(db: Database, url: URL) {
  const query = reviewListSchema.safeParse({
    show: url.searchParams.get("show") ?? undefined,
    after: url.searchParams.get("after") ?? undefined,
  });
  if (!query.success) {
    const issue = query.error.issues[0];
    return { ok: false as const, problem: { [String(issue?.path[0] ?? "show")]: issue?.message ?? "" } };
  }
  return { ok: true as const, ...(await backOfficeReviews(db, query.data)) };
}

/**
 * A review hidden or restored from the list (POST /admin/reviews): the list
 * again with what was done (post/redirect/get), or the form's message (400
 * naming the field; 404 for a review that is not there).
 */
export async function reviewModerationAction(request: Request, db: Database, actor: Actor) {
  const submission = parseWithZod(await readForm(request), { schema: moderationSchema });
  if (submission.status !== "success") {
    return data(
      { reviewId: submission.payload.reviewId, result: submission.reply() },
      { status: 400, headers: { "Cache-Control": "no-store" } },
    );
  }
  const done = await moderateReview(db, actor, submission.value);
  if (done.outcome === "not-found") throw data(null, { status: 404 });
  const url = new URL(request.url);
  url.searchParams.set("done", submission.value.intent === "hide" ? "hidden" : "restored");
  throw redirect(`/admin/reviews?${url.searchParams}#review-${submission.value.reviewId}`, { status: 303 });
}
