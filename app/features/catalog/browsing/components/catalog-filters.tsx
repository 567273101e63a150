import { Form, Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { ResetIcon } from "~/components/ui/icons";
import { SelectField } from "~/components/ui/select-field";
import { type FacetChoice, SORTS, type SortValue } from "../../core/catalog-vocabulary";
import { readOptionChoice } from "../../core/option-choices";
import { IN_STOCK_ONLY } from "../applied-filters";
import type { CatalogFilterControls } from "../use-catalog-filters";
import { PriceRangeSlider } from "./price-range-slider";

/** The filter form's id: the sort control sits above the grid, outside the form, and joins it by id. */
const CATALOG_FILTERS_FORM_ID = "catalog-filters";

const SORT_OPTIONS = [{ value: "", label: "Recommended" }, ...SORTS];

/** A brand or a category in the panel: its count is null while the catalogue cannot count. */
type PanelChoice = Omit<FacetChoice, "count"> & { count: number | null };

/**
 * The listing's brands and categories, each with what choosing it would show;
 * without counts while the catalogue cannot be read (the ones last read), null
 * when they were never read.
 */
export interface FilterFacets {
  brands: PanelChoice[];
  categories: PanelChoice[];
  /** How many "In stock only" would show; null while the catalogue cannot count. */
  inStock: number | null;
  /** Each option's values (Size, Colour), as `option` takes them (`Size:M`), labelled by the value. */
  options?: OptionGroup[];
}

export interface OptionGroup {
  name: string;
  choices: PanelChoice[];
}

/** The option groups to list: the facets', and one for each option chosen that they do not name (an old link). */
function optionGroupsListed(facets: FilterFacets | null, chosen: readonly string[]): OptionGroup[] {
  const groups = facets?.options ?? [];
  const names = new Set(groups.map((group) => group.name));
  const others = [...new Set(chosen.map((choice) => readOptionChoice(choice)?.name ?? ""))].filter(
    (name) => name !== "" && !names.has(name),
  );
  return [...groups, ...others.map((name) => ({ name, choices: [] }))];
}

/**
 * Brand, category, price and stock. A plain GET form: without JavaScript the "Apply
 * filters" button submits it and the server renders the result; with
 * JavaScript every change applies by itself and there is no button. The
 * listing's search is the header's search box (shop-search.ts); the form
 * carries it along.
 */
export function CatalogFilters({
  filters,
  facets,
  headingId,
  headerEnd,
  footer,
}: {
  filters: CatalogFilterControls;
  /** The id of the panel's heading ("Filters"), which names the sheet it sits in. */
  headingId?: string;
  /** The choices; without them (never read) only what is chosen is listed, without counts. */
  facets: FilterFacets | null;
  /** After "Reset filters" in the panel's header (the sheet's close button on phones). */
  headerEnd?: React.ReactNode;
  /** Below the controls (the sheet's "Show 14 products" on phones). */
  footer?: React.ReactNode;
}) {
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
        <h2 id={headingId} className="mr-auto text-base font-bold text-slate-900">
          Filters
        </h2>
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

      {/* One column: in the sheet (at most 24rem wide) and beside the results alike. */}
      <div className="mt-4 grid grid-cols-1 gap-y-5">
        <FacetChoices
          legend="Brand"
          name="band"
          choices={facets?.brands ?? null}
          chosen={values.band}
          onToggle={(band, chosen) => filters.toggle("band", band, chosen)}
        />
        <FacetChoices
          legend="Category"
          name="category"
          choices={facets?.categories ?? null}
          chosen={values.category}
          onToggle={(category, chosen) => filters.toggle("category", category, chosen)}
        />
        {optionGroupsListed(facets, values.option).map((group) => (
          <FacetChoices
            key={group.name}
            legend={group.name}
            name="option"
            choices={group.choices}
            chosen={values.option.filter((choice) => readOptionChoice(choice)?.name === group.name)}
            labelOf={(choice) => readOptionChoice(choice)?.value ?? choice}
            onToggle={(option, chosen) => filters.toggle("option", option, chosen)}
          />
        ))}

        <div>
          <PriceRangeSlider name="range" value={values.range} onChange={filters.slide} />
        </div>

        <fieldset className="min-w-0">
          <legend className="text-sm font-semibold text-slate-800">Availability</legend>
          <label className="mt-1.5 flex min-h-10 cursor-pointer items-center gap-2.5 rounded-md px-1.5 text-sm text-slate-800 hover:bg-slate-100">
            <input
              type="checkbox"
              name="inStock"
              value="1"
              checked={values.inStock}
              onChange={(event) => filters.choose("inStock", event.currentTarget.checked)}
              className="size-4 shrink-0 accent-indigo-600"
            />
            <span className="min-w-0 flex-1 break-words">{IN_STOCK_ONLY}</span>
            <ChoiceCount count={facets?.inStock ?? null} />
          </label>
        </fieldset>
      </div>
      {/* The search as the listing shows it: "Apply filters" keeps it (the header's box changes it),
          after the price, as the shop's addresses write it. */}
      {values.search ? <input type="hidden" name="search" value={values.search} /> : null}

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

/** A long list scrolls inside the panel rather than pushing the price slider out of sight. */
const SCROLL_FROM_CHOICES = 8;

/**
 * A facet's choices as checkboxes, several at once (products with any of
 * them), each with the number of products it would show given the other
 * filters. Every choice stays listed, zero or not, so nothing moves under the
 * pointer as counts change; a chosen value the catalogue does not know (an
 * old link) is listed too, so it can be unticked.
 */
function FacetChoices({
  legend,
  name,
  choices,
  chosen,
  labelOf = (value) => value,
  onToggle,
}: {
  legend: string;
  name: string;
  choices: PanelChoice[] | null;
  chosen: string[];
  /** A chosen value's label when the choices do not list it. */
  labelOf?: (value: string) => string;
  onToggle: (value: string, chosen: boolean) => void;
}) {
  const known = choices ?? [];
  const counted = known.some((choice) => choice.count !== null);
  const listed: PanelChoice[] = [
    ...known,
    ...chosen
      .filter((value) => !known.some((choice) => choice.value === value))
      .map((value) => ({ value, label: labelOf(value), count: counted ? 0 : null })),
  ];
  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-semibold text-slate-800">{legend}</legend>
      <ul
        className={`mt-1.5 flex flex-col ${listed.length > SCROLL_FROM_CHOICES ? "max-h-72 overflow-y-auto pr-1" : ""}`}
      >
        {listed.map((choice) => (
          <li key={choice.value}>
            <label className="flex min-h-10 cursor-pointer items-center gap-2.5 rounded-md px-1.5 text-sm text-slate-800 hover:bg-slate-100">
              <input
                type="checkbox"
                name={name}
                value={choice.value}
                checked={chosen.includes(choice.value)}
                onChange={(event) => onToggle(choice.value, event.currentTarget.checked)}
                className="size-4 shrink-0 accent-indigo-600"
              />
              <span className="min-w-0 flex-1 break-words">{choice.label}</span>
              <ChoiceCount count={choice.count} />
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** How many products a choice would show, after its label; nothing while the catalogue cannot count. */
function ChoiceCount({ count }: { count: number | null }) {
  if (count === null) return null;
  return (
    <span className="text-xs text-slate-600 tabular-nums">
      {count.toLocaleString("en-US")}
      <span className="sr-only">{count === 1 ? " product" : " products"}</span>
    </span>
  );
}

/**
 * "Sort By Price", above the grid; part of the filter form through the `form` attribute.
 * Without JavaScript its own button sends that form, filters and all: "Apply filters"
 * is at the foot of the panel, and in the closed sheet on a phone. With JavaScript a
 * change applies by itself and the <noscript> button is never rendered.
 */
export function SortSelect({ filters }: { filters: CatalogFilterControls }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
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
      <noscript>
        <button type="submit" form={CATALOG_FILTERS_FORM_ID} className={buttonClasses("secondary", "md")}>
          Sort
        </button>
      </noscript>
    </div>
  );
}
