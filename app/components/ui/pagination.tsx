import { Link } from "react-router";
import { ChevronLeftIcon, ChevronRightIcon } from "./icons";
import { pageList } from "./page-list";

interface PaginationProps {
  page: number;
  totalPages: number;
  /** The address of a page: pagination is links, so it works without JavaScript and can be crawled. */
  hrefFor(page: number): string;
  /** Names the navigation landmark, e.g. "Product pages". */
  label: string;
}

const ITEM =
  "inline-flex h-9 min-w-9 items-center justify-center rounded-lg px-2 text-sm font-semibold tabular-nums sm:h-10 sm:min-w-10 sm:px-3";
const IDLE = "text-slate-700 hover:bg-slate-100 hover:text-slate-900";
const CURRENT = "bg-indigo-600 text-white shadow-sm";
const EDGE = "gap-1 border border-slate-500 bg-white text-slate-800 shadow-sm";

/**
 * Previous, the numbered pages (shortened with ellipses) and Next. The ends
 * are disabled rather than hidden, so the bar never changes shape. On a
 * phone the numbers give way to "Page 3 of 13": seven numbered buttons do not
 * fit in 320 px, and Previous and Next must never be pushed off the edge.
 */
export function Pagination({ page, totalPages, hrefFor, label }: PaginationProps) {
  if (totalPages <= 1) return null;
  const items = pageList(page, totalPages);
  return (
    <nav aria-label={label} className="flex justify-center">
      <ul className="flex flex-wrap items-center justify-center gap-1 sm:gap-1.5">
        <li>
          <EdgeLink direction="previous" href={page > 1 ? hrefFor(page - 1) : undefined} />
        </li>
        {items.map((item) =>
          item.type === "ellipsis" ? (
            <li
              key={`ellipsis-${item.key}`}
              aria-hidden="true"
              className={`${ITEM} text-slate-500 max-sm:hidden`}
            >
              …
            </li>
          ) : (
            <li key={item.page} className="max-sm:hidden">
              {item.page === page ? (
                <Link
                  to={hrefFor(item.page)}
                  aria-current="page"
                  aria-label={`Page ${item.page}`}
                  className={`${ITEM} ${CURRENT}`}
                >
                  {item.page}
                </Link>
              ) : (
                <Link to={hrefFor(item.page)} aria-label={`Page ${item.page}`} className={`${ITEM} ${IDLE}`}>
                  {item.page}
                </Link>
              )}
            </li>
          ),
        )}
        <li className="px-2 text-sm font-semibold text-slate-800 tabular-nums sm:hidden">
          {`Page ${page.toLocaleString("en-US")} of ${totalPages.toLocaleString("en-US")}`}
        </li>
        <li>
          <EdgeLink direction="next" href={page < totalPages ? hrefFor(page + 1) : undefined} />
        </li>
      </ul>
    </nav>
  );
}

function EdgeLink({ direction, href }: { direction: "previous" | "next"; href: string | undefined }) {
  const text = direction === "previous" ? "Previous" : "Next";
  const content = (
    <>
      {direction === "previous" ? <ChevronLeftIcon className="size-4" /> : null}
      <span className="sr-only sm:not-sr-only">{text}</span>
      {direction === "next" ? <ChevronRightIcon className="size-4" /> : null}
    </>
  );
  if (!href) {
    // A disabled link: no href, so it is not focusable and goes nowhere, and
    // aria-disabled tells assistive technology (and tests) why.
    return (
      // biome-ignore lint/a11y/useValidAnchor: a link without a target is the standard "disabled link"
      <a role="link" aria-disabled="true" className={`${ITEM} ${EDGE} cursor-not-allowed opacity-45`}>
        {content}
      </a>
    );
  }
  return (
    <Link
      to={href}
      rel={direction === "previous" ? "prev" : "next"}
      className={`${ITEM} ${EDGE} hover:bg-slate-50`}
    >
      {content}
    </Link>
  );
}
