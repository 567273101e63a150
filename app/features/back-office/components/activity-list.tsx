import {
  BackOfficeTable,
  tableCellClasses,
  tableHeadClasses,
} from "~/components/back-office/back-office-page";
import type { ActivityEntry } from "../activity.server";

/** "price: 12.5 → 9.99; name: Kettle → Steel kettle": what an entry changed, in one line per field. */
function changeLines(before: unknown, after: unknown): string[] {
  const was = (before ?? {}) as Record<string, unknown>;
  const now = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])];
  return keys.map((key) => `${key}: ${shown(was[key])} → ${shown(now[key])}`);
}

function shown(value: unknown): string {
  if (value === undefined || value === null) return "—";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

const WHEN = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

export function ActivityList({ entries }: { entries: ActivityEntry[] }) {
  if (entries.length === 0) {
    return <p className="text-slate-700">Nothing has been changed in the back office yet.</p>;
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
