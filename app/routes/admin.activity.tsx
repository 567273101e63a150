import { data, Link } from "react-router";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { buttonClasses } from "~/components/ui/button";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { activityPage } from "~/features/back-office/activity.server";
import { ACTIVITY_SEARCH_MAX_LENGTH, activityQuerySchema } from "~/features/back-office/activity-query";
import { ActivityList } from "~/features/back-office/components/activity-list";
import type { Route } from "./+types/admin.activity";

/**
 * `/admin/activity` (owners only): the audit log — who changed what, before
 * and after, when — each entry a sentence; `?search=` finds entries by a
 * product's name or SKU, an order's number or an email.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context, "owner");
  const url = new URL(request.url);
  const query = activityQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) {
    const issue = query.error.issues[0];
    const field = String(issue?.path[0] ?? "before");
    throw data(
      field === "search" && issue ? issue.message : `The activity page's "${field}" parameter is not valid.`,
      { status: 400 },
    );
  }
  const page = await activityPage(context.get(servicesContext).database.db, query.data);
  return { ...page, search: query.data.search ?? "" };
}

export default function Activity({ loaderData }: Route.ComponentProps) {
  const { entries, olderBefore, search } = loaderData;
  const olderHref = olderBefore
    ? `?${new URLSearchParams({ before: String(olderBefore), ...(search ? { search } : {}) })}`
    : null;
  return (
    <BackOfficePage
      title="Activity"
      intro="Every change made in the back office: who, what, before and after."
    >
      <search className="mb-6">
        <form method="get" className="flex flex-wrap items-end gap-3">
          <div className="min-w-0 flex-1 sm:max-w-md">
            <label htmlFor="activity-search" className="block text-sm font-semibold text-slate-800">
              Find changes
            </label>
            <input
              id="activity-search"
              name="search"
              type="search"
              defaultValue={search}
              maxLength={ACTIVITY_SEARCH_MAX_LENGTH}
              aria-describedby="activity-search-hint"
              className="mt-1.5 block h-11 w-full rounded-lg border border-slate-500 bg-white px-3 text-base"
            />
            <p id="activity-search-hint" className="mt-1.5 text-sm text-slate-700">
              A product's name or SKU, an order's number, or an email.
            </p>
          </div>
          <button type="submit" className={`${buttonClasses("secondary", "md")} mb-7`}>
            Find
          </button>
        </form>
      </search>
      <ActivityList entries={entries} search={search} />
      {olderHref ? (
        <p className="mt-6">
          <Link to={olderHref} className={buttonClasses("secondary", "md")}>
            Older changes
          </Link>
        </p>
      ) : null}
    </BackOfficePage>
  );
}
