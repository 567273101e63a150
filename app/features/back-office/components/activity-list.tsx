import { Link } from "react-router";
import {
  BackOfficeTable,
  tableCellClasses,
  tableHeadClasses,
} from "~/components/back-office/back-office-page";
import { formatCents } from "~/utils/money";
import type { ActivityEntry } from "../activity.server";

/**
 * "price: $12.50 → $9.99", "name: Kettle → Steel kettle": what an entry
 * changed, a line per field, in the shop's words — money (the fields kept in
 * cents) as the shop writes it, lists joined.
 */
function changeLines(before: unknown, after: unknown): string[] {
  const was = (before ?? {}) as Record<string, unknown>;
  const now = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])];
  return keys.map((key) => `${fieldName(key)}: ${shown(key, was[key])} → ${shown(key, now[key])}`);
}

/** "priceCents" → "price", "standardShippingCents" → "standard shipping". */
function fieldName(key: string): string {
  return key
    .replace(/Cents$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

function shown(key: string, value: unknown): string {
  if (value === undefined || value === null) return "—";
  if (key.endsWith("Cents") && typeof value === "number") return formatCents(value);
  const text = Array.isArray(value)
    ? value.join("; ")
    : typeof value === "string"
      ? value
      : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

const WHEN = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

export function ActivityList({ entries, subject }: { entries: ActivityEntry[]; subject: string }) {
  if (entries.length === 0) {
    return subject ? (
      <p className="text-slate-700">
        No change to “{subject}” yet.{" "}
        <Link to="/admin/activity" className="font-semibold text-indigo-700 underline underline-offset-4">
          Show every change
        </Link>
        .
      </p>
    ) : (
      <p className="text-slate-700">Nothing has been changed in the back office yet.</p>
    );
  }
  return (
    <BackOfficeTable caption="Changes made in the back office, newest first">
      <thead className={tableHeadClasses}>
        <tr>
          <th scope="col" className="px-3 py-2">
            When (UTC)
          </th>
          <th scope="col" className="px-3 py-2">
            Who
          </th>
          <th scope="col" className="px-3 py-2">
            What
          </th>
          <th scope="col" className="px-3 py-2">
            Changed
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td className={`${tableCellClasses} whitespace-nowrap`}>
              <time dateTime={entry.at}>{WHEN.format(new Date(entry.at))}</time>
            </td>
            <td className={`${tableCellClasses} [overflow-wrap:anywhere]`}>{entry.who}</td>
            <td className={tableCellClasses}>
              <span className="font-semibold">{entry.action}</span>
              <br />
              <span className="[overflow-wrap:anywhere] text-slate-700">{entry.subject}</span>
            </td>
            <td className={tableCellClasses}>
              <ul className="space-y-0.5">
                {changeLines(entry.before, entry.after).map((line) => (
                  <li key={line} className="break-words">
                    {line}
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </tbody>
    </BackOfficeTable>
  );
}
