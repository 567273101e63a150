import { useId, useSyncExternalStore } from "react";
import { buttonClasses } from "~/components/ui/button";
import { CloseIcon, FiltersIcon } from "~/components/ui/icons";
import { usePopover } from "~/components/ui/popover";
import { useHydrated } from "~/utils/hydrated";
import { productCount } from "../../core/catalog-format";

/**
 * From this width (Tailwind's `lg`) the filters sit beside the results; below
 * it they open as a sheet: at 768 px (a tablet upright) the whole panel above
 * the results pushed every product below the fold.
 */
const IN_PAGE_FROM = "(width >= 64rem)";

export type FilterSheetControls = ReturnType<typeof useFilterSheet>;

/**
 * On a phone or a tablet the filters would push the results a screen down,
 * and every new page would land on them: there they wait behind a "Filters"
 * button, in a sheet over the page — a modal dialog named by its heading,
 * the page behind inert while it is open — on the browser's popover, so it
 * opens without JavaScript too. The results stay where they are, and refresh
 * behind the sheet as each filter applies. From 1024 px the same panel is
 * simply part of the page, and no dialog.
 */
export function useFilterSheet() {
  const popover = usePopover({
    keepOpenOnNavigation: true,
    coversPage: true,
    closeWhenMatches: IN_PAGE_FROM,
  });
  return { ...popover, headingId: useId(), isSheet: useIsSheet() };
}

/** The panel is a sheet at this width: known in the browser only (the server's HTML claims no dialog). */
function useIsSheet(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const media = window.matchMedia(IN_PAGE_FROM);
      media.addEventListener("change", onChange);
      return () => media.removeEventListener("change", onChange);
    },
    () => !window.matchMedia(IN_PAGE_FROM).matches,
    () => false,
  );
}

/** The button that opens the sheet, below 1024 px only; it says how many filters are on. */
export function FilterSheetButton({ sheet, applied }: { sheet: FilterSheetControls; applied: number }) {
  return (
    <button {...sheet.trigger} className={buttonClasses("secondary", "md", "lg:hidden")}>
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

/** The panel itself: a sheet from the right below 1024 px, an ordinary block from there. */
export function FilterSheet({ sheet, children }: { sheet: FilterSheetControls; children: React.ReactNode }) {
  return (
    <div
      {...sheet.panel}
      {...(sheet.isSheet ? { role: "dialog", "aria-modal": true, "aria-labelledby": sheet.headingId } : {})}
      className={[
        // Phones and tablets: a sheet over the page, scrolling on its own.
        "fixed inset-y-0 right-0 left-auto m-0 h-full max-h-none w-full max-w-sm overflow-y-auto border-0 bg-slate-50 p-3 shadow-xl backdrop:bg-slate-900/50",
        // From 1024 px: part of the page, whatever the popover's own styles say.
        "lg:static lg:block lg:h-auto lg:w-auto lg:max-w-none lg:overflow-visible lg:bg-transparent lg:p-0 lg:shadow-none",
      ].join(" ")}
    >
      {children}
    </div>
  );
}

/** Closes the sheet (below 1024 px only). */
export function CloseFilterSheet({ sheet }: { sheet: FilterSheetControls }) {
  return (
    <button
      {...sheet.close}
      data-autofocus
      className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 lg:hidden"
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
    <button {...sheet.close} className={buttonClasses("primary", "md", "mt-5 w-full lg:hidden")}>
      {count === null ? "Show results" : `Show ${productCount(count)}`}
    </button>
  );
}
