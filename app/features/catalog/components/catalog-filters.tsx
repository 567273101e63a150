import { useId } from "react";
import { Form, Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { ResetIcon, SearchIcon } from "~/components/ui/icons";
import { SelectField } from "~/components/ui/select-field";
import { BRANDS, CATEGORIES, SEARCH_MAX_LENGTH, SORTS, type SortValue } from "../catalog-vocabulary";
import type { CatalogFilterControls } from "../use-catalog-filters";
import { PriceRangeSlider } from "./price-range-slider";

/** The filter form's id: the sort control sits above the grid, outside the form, and joins it by id. */
const CATALOG_FILTERS_FORM_ID = "catalog-filters";

const BRAND_OPTIONS = [{ value: "", label: "All brands" }, ...BRANDS];
const CATEGORY_OPTIONS = [{ value: "", label: "All categories" }, ...CATEGORIES];
const SORT_OPTIONS = [{ value: "", label: "Recommended" }, ...SORTS];

/**
 * Search, brand, category and price. A plain GET form: without JavaScript
 * the "Apply filters" button submits it and the server renders the result;
 * with JavaScript every change applies by itself and there is no button.
 */
export function CatalogFilters({
  filters,
  headerEnd,
  footer,
}: {
  filters: CatalogFilterControls;
  /** After "Reset filters" in the panel's header (the sheet's close button on phones). */
  headerEnd?: React.ReactNode;
  /** Below the controls (the sheet's "Show 14 products" on phones). */
  footer?: React.ReactNode;
}) {
  const searchId = useId();
  const { values } = filters;
  return (
    <Form
      id={CATALOG_FILTERS_FORM_ID}
      method="get"
      action="/"
      role="search"
      aria-label="Product filters"
      preventScrollReset
      onSubmit={(event) => {
        event.preventDefault();
        filters.applyNow();
      }}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex items-center gap-3">
        <h2 className="mr-auto text-base font-bold text-slate-900">Filters</h2>
        <Link
          to="/"
          preventScrollReset
          className="inline-flex items-center gap-1.5 rounded-md px-1.5 py-1 text-sm font-semibold text-indigo-700 hover:bg-indigo-50 hover:text-indigo-800"
        >
          <ResetIcon className="size-4" />
          Reset filters
        </Link>
        {headerEnd}
      </div>

      <div className="mt-4 grid grid-cols-1 gap-x-3 gap-y-5 sm:grid-cols-2 md:grid-cols-4 lg:grid-cols-1">
        <div className="flex flex-col gap-1.5 sm:col-span-2 lg:col-span-1">
          <label htmlFor={searchId} className="text-sm font-semibold text-slate-800">
            Search
          </label>
          <div className="relative">
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" />
            <input
              id={searchId}
              type="search"
              name="search"
              value={values.search}
              placeholder="Search Category"
              maxLength={SEARCH_MAX_LENGTH}
              autoComplete="off"
              enterKeyHint="search"
              onChange={(event) => filters.type(event.currentTarget.value)}
              onBlur={filters.endRun}
              className="h-11 w-full rounded-lg border border-slate-500 bg-white pr-3 pl-9 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 hover:border-slate-700 focus:border-indigo-600"
            />
          </div>
        </div>

        <SelectField
          label="Brand"
          name="band"
          value={values.band}
          options={BRAND_OPTIONS}
          onChange={(band, how) => filters.choose("band", band, how)}
          onBlur={filters.endRun}
        />
        <SelectField
          label="Category"
          name="category"
          value={values.category}
          options={CATEGORY_OPTIONS}
          onChange={(category, how) => filters.choose("category", category, how)}
          onBlur={filters.endRun}
        />

        <div className="sm:col-span-2 md:col-span-4 lg:col-span-1">
          <PriceRangeSlider name="range" value={values.range} onChange={filters.slide} />
        </div>
      </div>

      {/* Without JavaScript the filters apply with this button. A browser running
          JavaScript never renders <noscript>, so the button is not there to hide
          after hydration and nothing shifts. */}
      <noscript>
        <button type="submit" className={buttonClasses("primary", "md", "mt-5 w-full")}>
          Apply filters
        </button>
      </noscript>
      {footer}
    </Form>
  );
}

/** "Sort By Price", above the grid; part of the filter form through the `form` attribute. */
export function SortSelect({ filters }: { filters: CatalogFilterControls }) {
  return (
    <SelectField
      label="Sort By Price"
      name="sort"
      form={CATALOG_FILTERS_FORM_ID}
      value={filters.values.sort}
      options={SORT_OPTIONS}
      onChange={(sort, how) => filters.choose("sort", sort as SortValue | "", how)}
      onBlur={filters.endRun}
      inline
    />
  );
}
