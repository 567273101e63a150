import { data } from "react-router";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { pageMeta } from "~/components/layout/page-meta";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { ReviewModeration } from "~/features/reviews/components/review-moderation";
import {
  reviewModerationAction,
  reviewModerationPage,
} from "~/features/reviews/review-moderation-form.server";
import type { Route } from "./+types/admin.reviews";

/**
 * /admin/reviews: every review, newest first (all, published or hidden);
 * staff and owners hide one with the reason (kept in the audit log) or
 * restore it. A hidden review stops counting in its product's rating.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const url = new URL(request.url);
  const page = await reviewModerationPage(context.get(servicesContext).database.db, url);
  return data(
    { page, done: url.searchParams.get("done") },
    { status: page.ok ? 200 : 400, headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const { actor } = await backOfficeVisitorOf(request, context);
  return reviewModerationAction(request, context.get(servicesContext).database.db, actor);
}

export function meta() {
  return pageMeta({
    title: "Reviews | Back office | Backline",
    description: "The shop's reviews.",
    noindex: true,
  });
}

export default function AdminReviews({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <BackOfficePage
      title="Reviews"
      intro="Reviews from verified buyers, newest first. A hidden review stops counting."
    >
      <ReviewModeration page={loaderData.page} done={loaderData.done} answer={actionData} />
    </BackOfficePage>
  );
}
