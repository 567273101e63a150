import { Link } from "react-router";
import type { ActivityEntry } from "../activity.server";

const WHEN = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

const LINK = "font-semibold text-indigo-700 underline underline-offset-4 hover:text-indigo-900";

/**
 * The log as a list of sentences, newest first, each with when it happened
 * and a link to what it changed while that still exists. A list, not a
 * table: a sentence wraps on a phone where a table's columns would scroll.
 */
export function ActivityList({ entries, search }: { entries: ActivityEntry[]; search: string }) {
  if (entries.length === 0) {
    return search ? (
      <p className="text-slate-700">
        No change names “{search}”.{" "}
        <Link to="/admin/activity" className={LINK}>
          Show every change
        </Link>
        .
      </p>
    ) : (
      <p className="text-slate-700">Nothing has been changed in the back office yet.</p>
    );
  }
  return (
    <ol
      aria-label="Changes, newest first"
      className="divide-y divide-slate-200 rounded-lg border border-slate-300 bg-white"
    >
      {entries.map((entry) => (
        <li key={entry.id} className="px-4 py-3">
          <p id={`change-${entry.id}`} className="[overflow-wrap:anywhere] text-slate-900">
            {entry.sentence}
          </p>
          <p className="mt-1 flex flex-wrap gap-x-4 text-sm text-slate-700">
            <time dateTime={entry.at}>{WHEN.format(new Date(entry.at))} UTC</time>
            {entry.href ? (
              <Link to={entry.href} aria-describedby={`change-${entry.id}`} className={LINK}>
                {entry.href.startsWith("/admin/orders/") ? "Open the order" : "Open the product"}
              </Link>
            ) : null}
          </p>
        </li>
      ))}
    </ol>
  );
}
