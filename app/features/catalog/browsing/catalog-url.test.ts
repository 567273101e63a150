import { describe, expect, it } from "vitest";
import { parseCatalogQuery } from "../core/catalog-schema";
import {
  type CatalogFormValues,
  canonicalShopUrl,
  formValuesFromQuery,
  parseProductSegment,
  productHref,
  productSlug,
  shopHref,
  shopListingFromAddress,
  shopPageHref,
  shopReturnHref,
  withoutEmptyParameters,
} from "./catalog-url";

const EMPTY_FORM_VALUES: CatalogFormValues = {
  band: [],
  category: [],
  option: [],
  range: 0,
  inStock: false,
  search: "",
  sort: "",
};

function parse(search: string) {
  const result = parseCatalogQuery(new URLSearchParams(search));
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe("shop URLs", () => {
  it("writes every filter, the sort and the page in one fixed order", () => {
    expect(
      shopHref({
        sort: "asc",
        page: 2,
        search: "mixer",
        range: 100,
        category: ["fitness"],
        band: ["blendMaster"],
      }),
    ).toBe("/?band=blendMaster&category=fitness&range=100&search=mixer&sort=asc&page=2");
  });

  it("writes several brands and categories as repeated parameters, in one order whatever the order chosen", () => {
    const href = "/?band=campSafe&band=cycleFit&category=fitness&category=outdoor";
    expect(shopHref({ band: ["cycleFit", "campSafe"], category: ["outdoor", "fitness"] })).toBe(href);
    expect(shopHref({ band: ["campSafe", "cycleFit"], category: ["fitness", "outdoor"] })).toBe(href);
    const query = parse("band=cycleFit&band=campSafe&category=outdoor&category=fitness&band=cycleFit");
    expect(query.band).toEqual(["campSafe", "cycleFit"]);
    expect(shopPageHref(query, 1)).toBe(href);
  });

  it("writes “in stock only” as inStock=1 after the price, and reads it back", () => {
    const href = "/?band=blendMaster&range=100&inStock=1&search=mixer";
    expect(shopHref({ band: ["blendMaster"], range: 100, inStock: true, search: "mixer" })).toBe(href);
    expect(parse("inStock=1&band=blendMaster&search=mixer&range=100")).toMatchObject({ inStock: true });
    expect(shopPageHref(parse("inStock=1&band=blendMaster&search=mixer&range=100"), 1)).toBe(href);
    expect(shopListingFromAddress(new URLSearchParams("inStock=1")).inStock).toBe(true);
    expect(shopListingFromAddress(new URLSearchParams("inStock=maybe"))).not.toHaveProperty("inStock");
    expect(shopHref({ ...EMPTY_FORM_VALUES, inStock: false })).toBe("/");
    expect(withoutEmptyParameters(new URLSearchParams("inStock=&band=x"))?.toString()).toBe("band=x");
  });

  it("leaves out what filters nothing: empty values, range 0 and page 1", () => {
    expect(shopHref(EMPTY_FORM_VALUES)).toBe("/");
    expect(shopHref({ ...EMPTY_FORM_VALUES, search: "   ", page: 1 })).toBe("/");
  });

  it("trims the search and encodes it", () => {
    expect(shopHref({ search: "  home goods & more " })).toBe("/?search=home+goods+%26+more");
    expect(shopHref({ category: ["home appliances"] })).toBe("/?category=home+appliances");
  });

  it("round-trips through the shared query parser", () => {
    const href = "/?band=cycleFit&category=home+goods&range=45&search=yoga+mat&sort=date-added&page=3";
    const query = parse(href.slice(2));
    expect(shopPageHref(query, query.page)).toBe(href);
    expect(shopHref({ ...formValuesFromQuery(query), page: query.page })).toBe(href);
  });

  it("keeps filters and sort but changes the page", () => {
    const query = parse("search=blend&sort=dsc&page=4");
    expect(shopPageHref(query, 1)).toBe("/?search=blend&sort=dsc");
    expect(shopPageHref(query, 5)).toBe("/?search=blend&sort=dsc&page=5");
  });
});

describe("withoutEmptyParameters", () => {
  it("drops the empty fields a form without JavaScript sends", () => {
    const tidy = withoutEmptyParameters(new URLSearchParams("band=&category=fitness&range=0&search=&sort="));
    expect(tidy?.toString()).toBe("category=fitness");
  });

  it("returns null when there is nothing to drop", () => {
    expect(withoutEmptyParameters(new URLSearchParams("category=fitness&range=50"))).toBeNull();
    expect(withoutEmptyParameters(new URLSearchParams(""))).toBeNull();
  });

  it("leaves parameters it does not own alone", () => {
    expect(withoutEmptyParameters(new URLSearchParams("utm_source=&sort="))?.toString()).toBe("utm_source=");
  });
});

describe("canonicalShopUrl", () => {
  it("drops brands or categories chosen several at once: combinations are not listings of their own", () => {
    expect(
      canonicalShopUrl("https://backline.shop", parse("band=artistry&band=campSafe&category=outdoor")),
    ).toBe("https://backline.shop/?category=outdoor");
  });

  it("keeps brand and category, drops search, price, sort and page", () => {
    const query = parse("band=artistry&category=home+goods&search=mat&range=50&sort=asc&page=3");
    expect(canonicalShopUrl("https://backline.shop", query)).toBe(
      "https://backline.shop/?band=artistry&category=home+goods",
    );
    expect(canonicalShopUrl("http://localhost:3000", parse("page=2"))).toBe("http://localhost:3000/");
  });
});

describe("shopListingFromAddress", () => {
  it("reads the listing an address asks for, to show its filters again", () => {
    expect(
      shopListingFromAddress(
        new URLSearchParams(
          "band=artistry&category=outdoor&band=campSafe&range=50&search=+mat+&sort=asc&page=3",
        ),
      ),
    ).toEqual({
      band: ["artistry", "campSafe"],
      category: ["outdoor"],
      range: 50,
      search: "mat",
      sort: "asc",
      page: 3,
      size: 5,
    });
  });

  it("shows a value the server would refuse as not set, never as something else", () => {
    expect(shopListingFromAddress(new URLSearchParams("sort=sideways&page=abc&range=-5&search=%20"))).toEqual(
      {
        page: 1,
        size: 5,
      },
    );
  });
});

describe("product addresses", () => {
  it("slugs a name: lower case, accents dropped, only letters, digits and single dashes", () => {
    expect(productSlug("BlendMaster Pro 900 Blender")).toBe("blendmaster-pro-900-blender");
    expect(productSlug("  Crème brûlée — Torch & Set!! ")).toBe("creme-brulee-torch-set");
    expect(productSlug("💥💥")).toBe("product");
    expect(productSlug("x".repeat(200))).toHaveLength(80);
  });

  it("carries the listing the shopper came from, in the shop's own order", () => {
    expect(productHref({ id: 12, name: "CycleFit Yoga Mat" })).toBe("/products/12-cyclefit-yoga-mat");
    expect(
      productHref({ id: 12, name: "CycleFit Yoga Mat" }, { band: ["cycleFit"], page: 3, sort: "asc" }),
    ).toBe("/products/12-cyclefit-yoga-mat?band=cycleFit&sort=asc&page=3");
  });

  it("leads back to the listing the shopper came from, on its page", () => {
    const listing = new URL(
      productHref({ id: 12, name: "CycleFit Yoga Mat" }, { band: ["cycleFit"], page: 3, sort: "asc" }),
      "http://shop.test",
    );
    expect(shopReturnHref(listing.searchParams)).toBe("/?band=cycleFit&sort=asc&page=3");
    expect(shopReturnHref(new URLSearchParams())).toBe("/");
    // Read leniently: what the shop would refuse is left out of the link, not refused.
    expect(shopReturnHref(new URLSearchParams("band=cycleFit&sort=sideways&page=abc"))).toBe(
      "/?band=cycleFit",
    );
  });

  it("reads the id and slug of an address's last segment, and nothing else", () => {
    expect(parseProductSegment("12-cyclefit-yoga-mat")).toEqual({ id: 12, slug: "cyclefit-yoga-mat" });
    expect(parseProductSegment("12")).toEqual({ id: 12, slug: "" });
    for (const bad of ["", "abc", "0-x", "-12", "012-x", "99999999999-x", "12x"]) {
      expect(parseProductSegment(bad), bad).toBeNull();
    }
  });
});
