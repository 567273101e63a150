import { buttonClasses } from "~/components/ui/button";
import { CloseIcon, FiltersIcon } from "~/components/ui/icons";
import { usePopover } from "~/components/ui/popover";
import { useHydrated } from "~/utils/hydrated";
import { productCount } from "../catalog-format";

/** From this width the filters sit beside (or above) the results; below it they open as a sheet. */
const IN_PAGE_FROM = "(width >= 48rem)";

export type FilterSheetControls = ReturnType<typeof useFilterSheet>;

/**
 * On a phone the filters would push the results a screen down, and every new
 * page would land on them: there they wait behind a "Filters" button, in a
 * sheet over the page (the browser's popover, so it opens without JavaScript
 * too). The results stay where they are, and refresh behind the sheet as
 * each filter applies. From 768 px the same panel is simply part of the page.
 */
export function useFilterSheet() {
  return usePopover({ keepOpenOnNavigation: true, coversPage: true, closeWhenMatches: IN_PAGE_FROM });
}

/** The button that opens the sheet, phones only; it says how many filters are on. */
export function FilterSheetButton({ sheet, applied }: { sheet: FilterSheetControls; applied: number }) {
  return (
    <button {...sheet.trigger} className={buttonClasses("secondary", "md", "md:hidden")}>
      <FiltersIcon className="size-4" />
      Filters
      {applied > 0 ? (
        <span className="rounded-full bg-indigo-600 px-2 py-0.5 text-xs font-bold text-white tabular-nums">
          {applied}
          <span className="sr-only"> applied</span>
        </span>
      ) : null}
    </button>
  );
}

/** The panel itself: a sheet from the right on phones, an ordinary block from 768 px. */
export function FilterSheet({ sheet, children }: { sheet: FilterSheetControls; children: React.ReactNode }) {
  return (
    <div
      {...sheet.panel}
      className={[
        // Phones: a sheet over the page, scrolling on its own.
        "fixed inset-y-0 right-0 left-auto m-0 h-full max-h-none w-full max-w-sm overflow-y-auto border-0 bg-slate-50 p-3 shadow-xl backdrop:bg-slate-900/50",
        // From 768 px: part of the page, whatever the popover's own styles say.
        "md:static md:block md:h-auto md:w-auto md:max-w-none md:overflow-visible md:bg-transparent md:p-0 md:shadow-none",
      ].join(" ")}
    >
      {children}
    </div>
  );
}

/** Closes the sheet (phones only). */
export function CloseFilterSheet({ sheet }: { sheet: FilterSheetControls }) {
  return (
    <button
      {...sheet.close}
      data-autofocus
      className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 md:hidden"
    >
      <CloseIcon className="size-5" />
      <span className="sr-only">Close filters</span>
    </button>
  );
}

/**
 * "Show 14 products": closes the sheet onto the results it has been updating.
 * It needs JavaScript to know the count as filters change, so it appears
 * after hydration; without JavaScript the form's "Apply filters" does the job.
 */
export function ShowResultsButton({ sheet, count }: { sheet: FilterSheetControls; count: number | null }) {
  if (!useHydrated()) return null;
  return (
    <button {...sheet.close} className={buttonClasses("primary", "md", "mt-5 w-full md:hidden")}>
      {count === null ? "Show results" : `Show ${productCount(count)}`}
    </button>
  );
}
