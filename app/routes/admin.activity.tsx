import { data, Link } from "react-router";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { buttonClasses } from "~/components/ui/button";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { activityPage, activityQuerySchema } from "~/features/back-office/activity.server";
import { ActivityList } from "~/features/back-office/components/activity-list";
import type { Route } from "./+types/admin.activity";

/** `/admin/activity` (owners only): the audit log — who changed what, before and after, when. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context, "owner");
  const url = new URL(request.url);
  const query = activityQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) {
    const field = String(query.error.issues[0]?.path[0] ?? "before");
    throw data(`The activity page's "${field}" parameter is not valid.`, { status: 400 });
  }
  const page = await activityPage(context.get(servicesContext).database.db, query.data);
  return { ...page, subject: query.data.subject ?? "" };
}

export default function Activity({ loaderData }: Route.ComponentProps) {
  const { entries, olderBefore, subject } = loaderData;
  const olderHref = olderBefore
    ? `?${new URLSearchParams({ before: String(olderBefore), ...(subject ? { subject } : {}) })}`
    : null;
  return (
    <BackOfficePage
      title="Activity"
      intro="Every change made in the back office: who, what, before and after."
    >
      <form method="get" className="mb-6 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="activity-subject" className="block text-sm font-semibold text-slate-800">
            Only changes to
          </label>
          <input
            id="activity-subject"
            name="subject"
            defaultValue={subject}
            placeholder="product:42, order:, person:"
            className="mt-1.5 block h-11 w-64 max-w-full rounded-lg border border-slate-500 bg-white px-3 text-base"
          />
        </div>
        <button type="submit" className={buttonClasses("secondary", "md")}>
          Show
        </button>
      </form>
      <ActivityList entries={entries} subject={subject} />
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
