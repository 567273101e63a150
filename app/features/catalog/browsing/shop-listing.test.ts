import { describe, expect, it } from "vitest";
import type { CatalogQuery } from "../core/catalog-schema";
import { noResultsOffer } from "./components/catalog-results";
import {
  appliedFilterCount,
  resultSummary,
  type ShopListing,
  shopDescription,
  shopListingMeta,
  shopTitle,
} from "./shop-listing";

const LABELS = {
  brands: [
    { value: "blendMaster", label: "BlendMaster" },
    { value: "cycleFit", label: "CycleFit" },
  ],
  categories: [
    { value: "home appliances", label: "Home appliances" },
    { value: "fitness", label: "Fitness" },
  ],
};

const QUERY: CatalogQuery = { band: ["blendMaster"], search: "mixer", page: 2, size: 5 };

describe("the shop page's title", () => {
  it("names the whole shop when nothing narrows the listing", () => {
    expect(shopTitle({}, LABELS)).toBe("Shop electronics, fitness, home and outdoor gear | Backline");
    expect(shopTitle(undefined, null)).toBe("Shop electronics, fitness, home and outdoor gear | Backline");
  });

  it("names the brands and categories by their labels, then the page", () => {
    expect(shopTitle({ band: ["blendMaster"], category: ["home appliances"], page: 2 }, LABELS)).toBe(
      "BlendMaster Home appliances — page 2 | Backline",
    );
    expect(shopTitle({ band: ["blendMaster", "cycleFit"] }, LABELS)).toBe("BlendMaster, CycleFit | Backline");
    expect(shopTitle({ category: ["fitness"], page: 1 }, LABELS)).toBe("Fitness | Backline");
  });

  it("quotes the search after the listing's name", () => {
    expect(shopTitle({ search: "mixer" }, null)).toBe(
      "Shop electronics, fitness, home and outdoor gear — “mixer” | Backline",
    );
    expect(shopTitle(QUERY, LABELS)).toBe("BlendMaster — “mixer” — page 2 | Backline");
  });

  it("shows a value as it is when its label could not be read", () => {
    expect(shopTitle({ band: ["blendMaster"] }, null)).toBe("blendMaster | Backline");
  });
});

describe("the shop page's description", () => {
  it("lists the catalogue's categories and brands", () => {
    expect(shopDescription(LABELS)).toBe(
      "Shop Backline's catalogue of home appliances, fitness from BlendMaster, CycleFit.",
    );
  });

  it("says what the shop offers when the brands or categories are not known", () => {
    const general =
      "Shop Backline's catalogue: filter by brand, category and price, or search for what you need.";
    expect(shopDescription(null)).toBe(general);
    expect(shopDescription({ brands: LABELS.brands, categories: [] })).toBe(general);
  });
});

describe("the shop page's meta tags", () => {
  const uncountedFacets = {
    brands: LABELS.brands.map((brand) => ({ ...brand, count: null })),
    categories: LABELS.categories.map((category) => ({ ...category, count: null })),
    inStock: null,
  };

  it("give the title, description, preview and canonical link of the listing", () => {
    const listing: ShopListing = {
      status: "unavailable",
      query: QUERY,
      canonicalUrl: "https://shop.example.com/?band=blendMaster&search=mixer&page=2",
      facets: uncountedFacets,
    };
    expect(shopListingMeta(listing)).toEqual([
      { title: "BlendMaster — “mixer” — page 2 | Backline" },
      { name: "description", content: shopDescription(LABELS) },
      { property: "og:title", content: "BlendMaster — “mixer” — page 2 | Backline" },
      { property: "og:description", content: shopDescription(LABELS) },
      { property: "og:type", content: "website" },
      { property: "og:site_name", content: "Backline" },
      { property: "og:url", content: listing.canonicalUrl },
      { tagName: "link", rel: "canonical", href: listing.canonicalUrl },
    ]);
  });

  it("name the shop in general, with no canonical link, when there is no listing", () => {
    const tags = shopListingMeta(undefined);
    expect(tags).toContainEqual({ title: "Shop electronics, fitness, home and outdoor gear | Backline" });
    expect(tags).not.toContainEqual(expect.objectContaining({ rel: "canonical" }));
    expect(tags).not.toContainEqual(expect.objectContaining({ property: "og:url" }));
  });

  it("name the listing by its values when the browser could not reach the server", () => {
    const canonicalUrl = "http://localhost:3000/?band=blendMaster&page=3";
    const tags = shopListingMeta({
      status: "unavailable",
      query: { band: ["blendMaster"], page: 3, size: 5 },
      canonicalUrl,
    });
    expect(tags).toContainEqual({ title: "blendMaster — page 3 | Backline" });
    expect(tags).toContainEqual({ name: "description", content: shopDescription(null) });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: canonicalUrl });
  });
});

describe("the listing's status line", () => {
  it("summarises which products are on screen", () => {
    expect(resultSummary(64, 1, 5)).toBe("Showing 1–5 of 64 products");
    expect(resultSummary(64, 13, 5)).toBe("Showing 61–64 of 64 products");
    expect(resultSummary(1, 1, 5)).toBe("Showing 1 of 1 product");
    expect(resultSummary(0, 1, 5)).toBe("0 products");
    expect(resultSummary(64, 99, 5)).toBe("64 products");
  });

  it("tells the way out of no results", () => {
    expect(noResultsOffer({ search: "blender", count: 3 }, { text: "Remove “Outdoor”", count: 9 })).toBe(
      ". Did you mean “blender”? 3 products",
    );
    expect(noResultsOffer(null, { text: "Remove “Outdoor”", count: 9 })).toBe(
      ". Remove “Outdoor”: 9 products",
    );
    expect(noResultsOffer(null, null)).toBe("");
  });

  it("counts each brand, category, the price cap and the search as a filter, not the sort", () => {
    expect(appliedFilterCount({})).toBe(0);
    expect(
      appliedFilterCount({
        band: ["blendMaster", "cycleFit"],
        category: ["fitness"],
        range: 50,
        search: "mat",
      }),
    ).toBe(5);
  });
});
