import { Link } from "react-router";
import { CloseIcon } from "~/components/ui/icons";
import type { AppliedFilter } from "../applied-filters";

/**
 * The filters the listing applies, each a chip that removes just that one,
 * and "Clear all". Plain links: they work without JavaScript, and each lands
 * on the results (#results), where focus goes once they load.
 */
export function FilterChips({ applied, clearAllHref }: { applied: AppliedFilter[]; clearAllHref: string }) {
  if (applied.length === 0) return null;
  return (
    <div className="mt-4 flex flex-wrap items-center gap-2">
      <h3 className="sr-only">Applied filters</h3>
      <ul className="flex flex-wrap gap-2">
        {applied.map((filter) => (
          <li key={`${filter.kind}:${filter.label}`}>
            <Link
              to={`${filter.href}#results`}
              preventScrollReset
              className="inline-flex min-h-8 max-w-full items-center gap-1.5 rounded-full border border-indigo-300 bg-indigo-50 py-1 pr-2 pl-3 text-sm text-indigo-900 hover:border-indigo-600 hover:bg-indigo-100"
            >
              <span className="min-w-0 break-words">
                <span className="font-semibold">{filter.kind}:</span> {filter.label}
              </span>
              <CloseIcon className="size-4 shrink-0" />
              <span className="sr-only">, remove</span>
            </Link>
          </li>
        ))}
      </ul>
      <Link
        to={`${clearAllHref}#results`}
        preventScrollReset
        className="rounded-md px-1.5 py-1 text-sm font-semibold text-indigo-700 underline-offset-2 hover:bg-indigo-50 hover:underline"
      >
        Clear all
      </Link>
    </div>
  );
}
