import { describe, expect, it } from "vitest";
import type { ShopMoney } from "~/commerce/money";
import { appliedFilters, wayBackLink, withoutFiltersHref } from "./applied-filters";
import type { CatalogFormValues } from "./catalog-url";

const LABELS = {
  brands: [
    { value: "cycleFit", label: "CycleFit" },
    { value: "campSafe", label: "CampSafe" },
  ],
  categories: [{ value: "outdoor", label: "Outdoor" }],
};

const VALUES: CatalogFormValues = {
  band: ["campSafe", "cycleFit"],
  category: ["outdoor"],
  option: [],
  range: 50,
  inStock: true,
  search: " tent ",
  sort: "asc",
};

const USD: ShopMoney = { currency: "USD", locale: "en-US" };

describe("appliedFilters", () => {
  it("makes one chip per value, each linking to the listing without just that one, sort kept", () => {
    expect(appliedFilters(VALUES, LABELS, USD)).toEqual([
      {
        kind: "Search",
        label: "“tent”",
        href: "/?band=campSafe&band=cycleFit&category=outdoor&range=50&inStock=1&sort=asc",
      },
      {
        kind: "Brand",
        label: "CampSafe",
        href: "/?band=cycleFit&category=outdoor&range=50&inStock=1&search=tent&sort=asc",
      },
      {
        kind: "Brand",
        label: "CycleFit",
        href: "/?band=campSafe&category=outdoor&range=50&inStock=1&search=tent&sort=asc",
      },
      {
        kind: "Category",
        label: "Outdoor",
        href: "/?band=campSafe&band=cycleFit&range=50&inStock=1&search=tent&sort=asc",
      },
      {
        kind: "Price",
        label: "Up to $50",
        href: "/?band=campSafe&band=cycleFit&category=outdoor&inStock=1&search=tent&sort=asc",
      },
      {
        kind: "Stock",
        label: "In stock only",
        href: "/?band=campSafe&band=cycleFit&category=outdoor&range=50&search=tent&sort=asc",
      },
    ]);
  });

  it("makes no chip for the sort or for filters that filter nothing", () => {
    expect(
      appliedFilters(
        { band: [], category: [], option: [], range: 0, inStock: false, search: "  ", sort: "dsc" },
        LABELS,
        USD,
      ),
    ).toEqual([]);
  });

  it("labels a value the catalogue does not know by the value itself", () => {
    expect(appliedFilters({ ...VALUES, band: ["acme"] }, LABELS, USD)[1]).toMatchObject({
      kind: "Brand",
      label: "acme",
    });
  });

  it("clears every filter and keeps the sort", () => {
    expect(withoutFiltersHref(VALUES)).toBe("/?sort=asc");
  });
});

describe("wayBackLink", () => {
  it("names what it removes and links to the listing without it", () => {
    expect(wayBackLink({ drop: "category", count: 14 }, VALUES, LABELS, USD)).toEqual({
      text: "Remove “Outdoor”",
      href: "/?band=campSafe&band=cycleFit&range=50&inStock=1&search=tent&sort=asc",
    });
    expect(wayBackLink({ drop: "band", count: 3 }, VALUES, LABELS, USD).text).toBe(
      "Remove “CampSafe” and “CycleFit”",
    );
    expect(wayBackLink({ drop: "range", count: 3 }, VALUES, LABELS, USD).text).toBe("Remove “Up to $50”");
    expect(wayBackLink({ drop: "inStock", count: 3 }, VALUES, LABELS, USD)).toEqual({
      text: "Remove “In stock only”",
      href: "/?band=campSafe&band=cycleFit&category=outdoor&range=50&search=tent&sort=asc",
    });
    expect(wayBackLink({ drop: "search", count: 3 }, VALUES, LABELS, USD)).toEqual({
      text: "Remove the search “tent”",
      href: "/?band=campSafe&band=cycleFit&category=outdoor&range=50&inStock=1&sort=asc",
    });
  });
});
