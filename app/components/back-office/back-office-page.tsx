import type { ReactNode } from "react";
import { Link } from "react-router";
import type { CurrencyCode } from "~/commerce/money";
import { useAmountFormat } from "~/commerce/use-money";

/**
 * A back-office page's frame: its heading (the page's one h1, where focus
 * lands after a navigation), a line on what it is for, and its actions.
 */
export function BackOfficePage({
  title,
  intro,
  actions,
  children,
}: {
  title: string;
  intro?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="min-w-0 flex-1">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-extrabold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
          {intro ? <p className="mt-1 text-slate-700">{intro}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      <div className="mt-6">{children}</div>
    </div>
  );
}

/** A table of the back office: scrolls sideways inside its frame on a phone, never the page. */
export function BackOfficeTable({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <section
      className="relative overflow-x-auto rounded-lg border border-slate-300"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable)
      tabIndex={0}
      aria-label={caption}
    >
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </section>
  );
}

export const tableHeadClasses = "bg-slate-100 text-xs font-bold tracking-wide text-slate-700 uppercase";
export const tableCellClasses = "border-t border-slate-200 px-3 py-2 align-top";

/** A back-office table's column heads; a numeric column (a total) is aligned right, as its cells. */
export function TableHead({ columns }: { columns: { label: string; numeric?: boolean }[] }) {
  return (
    <thead className={tableHeadClasses}>
      <tr>
        {columns.map(({ label, numeric }) => (
          <th key={label} scope="col" className={numeric ? "px-3 py-2 text-right" : "px-3 py-2"}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** An order's number as the first cell of a back-office row: the link to its page. */
export function OrderNumberCell({ number }: { number: string }) {
  return (
    <td className={tableCellClasses}>
      <Link
        to={`/admin/orders/${number}`}
        className="font-semibold whitespace-nowrap text-indigo-700 underline underline-offset-4"
      >
        {number}
      </Link>
    </td>
  );
}

/** An order's total as a back-office row's right-aligned cell, in the order's own currency. */
export function OrderTotalCell({ totalCents, currency }: { totalCents: number; currency: CurrencyCode }) {
  const formatAmount = useAmountFormat();
  return (
    <td className={`${tableCellClasses} text-right tabular-nums`}>{formatAmount(totalCents, currency)}</td>
  );
}
