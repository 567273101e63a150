import type { ComponentProps } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BLENDER_CARD as PRODUCT } from "../../../../../tests/support/catalog-rows";
import { renderInShop } from "../../../../../tests/support/render-in-shop";
import type { CatalogFilterControls } from "../use-catalog-filters";
import { CatalogFilters, type FilterFacets, SortSelect } from "./catalog-filters";
import { CatalogUnavailable, CloseSpellings, NoProductsMatch, PageOutOfRange } from "./catalog-results";
import { FilterChips } from "./filter-chips";
import { HeaderSearch } from "./header-search";
import { PriceRangeSlider } from "./price-range-slider";
import { ProductCard } from "./product-card";
import { StarRating } from "./star-rating";

const FACETS: FilterFacets = {
  brands: [
    { value: "teachPro", label: "TeachPro", count: 12 },
    { value: "cycleFit", label: "CycleFit", count: 1 },
    { value: "campSafe", label: "CampSafe", count: 0 },
  ],
  categories: [
    { value: "fitness", label: "Fitness", count: 1_234 },
    { value: "outdoor", label: "Outdoor", count: 3 },
  ],
  inStock: 1_201,
};

/** Renders inside a router, as the shop page does (at `address`, by default the shop's). */
const renderInRouter = (element: React.ReactNode, address = "/") => renderInShop(element, address);

const noop = () => {};

/** The checkbox for one value of a facet, whatever order React writes its attributes in. */
function checkbox(html: string, name: string, value: string): string {
  const tag = html.match(new RegExp(`<input type="checkbox"[^>]*name="${name}"[^>]*value="${value}"[^>]*/>`));
  if (!tag) throw new Error(`no ${name}=${value} checkbox`);
  return tag[0];
}
function controls(values: Partial<CatalogFilterControls["values"]> = {}): CatalogFilterControls {
  return {
    values: { band: [], category: [], option: [], range: 0, inStock: false, search: "", sort: "", ...values },
    choose: noop,
    toggle: noop,
    slide: noop,
    type: noop,
    applyNow: noop,
    endRun: noop,
    leave: noop,
  };
}

/** The blender's card as the shop page draws it, with what the test changes. */
const renderCard = (changes: Partial<ComponentProps<typeof ProductCard>> = {}) =>
  renderInRouter(
    <ProductCard
      product={PRODUCT}
      href="/products/7-blendmaster-pro-900-blender"
      locale="en-US"
      fewLeftAt={5}
      {...changes}
    />,
  );

describe("ProductCard", () => {
  it("says From the lowest price when variants differ, and strikes through the cheapest one's was price", () => {
    const html = renderCard({
      product: { ...PRODUCT, price: 24.99, priceMax: 29.99, compareAtPrice: 29.99 },
    });
    expect(html).toContain("From $24.99");
    expect(html).toMatch(/<s [^>]*><span class="sr-only">Was <\/span>\$29.99<\/s>/);
    expect(renderCard()).not.toContain("<s ");
  });

  it("shows picture, date added, name, brand label, category, price and rating", () => {
    const html = renderCard();
    expect(html).toContain('alt="BlendMaster Pro 900 Blender"');
    expect(html).toContain('width="800"');
    expect(html).toContain('height="600"');
    expect(html).toContain('<time dateTime="2025-03-04T23:30:00.000Z">Mar 4, 2025</time>');
    expect(html).toContain("BlendMaster<");
    expect(html).toContain("Home appliances");
    expect(html).toContain("$89.99");
    expect(html).toContain("Rated 4.5 out of 5");
  });

  it.each([
    [{ currency: "EUR", locale: "de-DE" }, 12.5, "12,50\u00a0€"],
    [{ currency: "JPY", locale: "ja-JP" }, 1250, "￥1,250"],
  ])("writes a %o shop's price its own way", (money, price, written) => {
    const card = (
      <ProductCard product={{ ...PRODUCT, price }} href="/products/7-x" locale="en-US" fewLeftAt={5} />
    );
    expect(renderInShop(card, "/", money)).toContain(written);
  });

  it("leads to the product's page through one link, its name", () => {
    const html = renderCard({ href: "/products/7-blendmaster-pro-900-blender?band=blendMaster" });
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(html).toMatch(
      /<h3[^>]*><a[^>]*href="\/products\/7-blendmaster-pro-900-blender\?band=blendMaster"[^>]*>BlendMaster Pro 900 Blender<\/a><\/h3>/,
    );
  });

  it("marks the search's matches in the name, as text: markup in a name stays characters", () => {
    const searchWords = [{ typed: "blend", alike: [], corrected: false }];
    const html = renderInRouter(
      <ProductCard
        product={{ ...PRODUCT, name: "<b>Blend</b>Master Blender" }}
        href="/products/7"
        locale="en-US"
        fewLeftAt={5}
        searchWords={searchWords}
      />,
    );
    expect(html).toContain("&lt;b&gt;<mark");
    expect(html).toMatch(/<mark[^>]*>Blend<\/mark>&lt;\/b&gt;Master <mark[^>]*>Blend<\/mark>er/);
    expect(html).not.toContain("<b>");
  });

  it("says 'No reviews yet' for a product nobody has rated, never 0.0", () => {
    const html = renderCard({ product: { ...PRODUCT, ratings: 0 }, href: "/products/7-x" });
    expect(html).toContain("No reviews yet");
    expect(html).not.toMatch(/>0\.0<|Rated 0/);
  });

  it("writes the date added in the shopper's locale", () => {
    const html = renderCard({ locale: "de-DE" });
    expect(html).toContain('<time dateTime="2025-03-04T23:30:00.000Z">04.03.2025</time>');
  });

  it("loads its picture lazily unless it is in the first row", () => {
    expect(renderCard()).toContain('loading="lazy"');
    const eager = renderCard({ eager: true, priority: true });
    expect(eager).toContain('loading="eager"');
    expect(eager).toMatch(/fetchPriority="high"|fetchpriority="high"/);
  });

  it("says its stock in words, with an icon beside them", () => {
    const card = (stock: number, fewLeftAt = 5) =>
      renderCard({ product: { ...PRODUCT, stock }, href: "/products/7-x", fewLeftAt });
    expect(card(14)).toMatch(/<svg[^>]*aria-hidden="true"[^>]*>.*?<\/svg>In stock</s);
    expect(card(3)).toContain("Only 3 left");
    expect(card(0)).toContain("Sold out");
    expect(card(0)).not.toContain("In stock");
    // The owner's line, not a fixed 5: from 2 units down.
    expect(card(3, 2)).toContain("In stock");
    expect(card(2, 2)).toContain("Only 2 left");
    expect(card(14, 20)).toContain("Only 14 left");
  });

  it("puts the route's action at the bottom of the card, above the link that covers it", () => {
    const html = renderInRouter(
      <ProductCard
        product={PRODUCT}
        href="/products/7-x"
        locale="en-US"
        fewLeftAt={5}
        action={<button type="button">Add to cart</button>}
      />,
    );
    expect(html).toMatch(/Only|In stock/);
    expect(html).toMatch(
      /<div class="relative z-10[^"]*"><button type="button">Add to cart<\/button><\/div><\/article>/,
    );
    expect(html).toContain("row-span-5");
  });
});

describe("StarRating", () => {
  it("fills the stars to the nearest half and says the number and how many reviews made it", () => {
    const html = renderToString(<StarRating rating={3.74} count={3} />);
    expect(html).toContain("Rated 3.7 out of 5 from 3 reviews");
    expect(html).toContain("width:70%");
    expect(html).toContain("3.7 (3)");
  });

  it("says 'No reviews yet' for a rating no buyer's review backs (an imported one)", () => {
    const html = renderToString(<StarRating rating={4.5} count={0} />);
    expect(html).toContain("No reviews yet");
    expect(html).not.toContain("Rated");
  });
});

describe("PriceRangeSlider", () => {
  it.each([
    [0, "any", "Any price"],
    [45, "green", "Up to $45"],
    [50, "yellow", "Up to $50"],
    [145, "yellow", "Up to $145"],
    [150, "red", "Up to $150"],
  ])("at %i shows tone %s and the words %s", (value, tone, words) => {
    const html = renderInRouter(<PriceRangeSlider name="range" value={value} onChange={noop} />);
    expect(html).toContain(`data-tone="${tone}"`);
    expect(html).toContain(`>${words}</span>`);
    expect(html).toContain(`aria-valuetext="${words}"`);
    expect(html).toMatch(/min="0" max="200" step="5"/);
  });

  it("writes a euro shop's cap its own way", () => {
    const html = renderInShop(<PriceRangeSlider name="range" value={150} onChange={noop} />, "/", {
      currency: "EUR",
      locale: "de-DE",
    });
    expect(html).toContain("Up to 150\u00a0€");
  });
});

describe("CatalogFilters", () => {
  it("lists each option's values as option=Name:Value checkboxes, and a chosen option the facets do not name", () => {
    const html = renderInRouter(
      <CatalogFilters
        filters={controls({ option: ["Fit:Slim", "Size:M"] })}
        facets={{
          ...FACETS,
          options: [
            {
              name: "Size",
              choices: [
                { value: "Size:S", label: "S", count: 2 },
                { value: "Size:M", label: "M", count: 5 },
              ],
            },
          ],
        }}
      />,
    );
    expect(html).toContain("<legend");
    expect(html).toMatch(/<legend[^>]*>Size<\/legend>/);
    expect(checkbox(html, "option", "Size:M")).toContain('checked=""');
    expect(checkbox(html, "option", "Size:S")).not.toContain('checked=""');
    // An old link's option: listed under its own name, chosen, so it can be unticked.
    expect(html).toMatch(/<legend[^>]*>Fit<\/legend>/);
    expect(checkbox(html, "option", "Fit:Slim")).toContain('checked=""');
    expect(html).toMatch(/>Slim<\/span>/);
  });

  it("is a GET form to / with the specification's field names and current values", () => {
    const html = renderInRouter(
      <>
        <CatalogFilters
          filters={controls({ band: ["cycleFit"], category: ["fitness"], range: 100, search: "mat" })}
          facets={FACETS}
        />
        <SortSelect filters={controls({ sort: "date-added" })} />
      </>,
    );
    expect(html).toMatch(/<form[^>]*method="get"[^>]*action="\/"|<form[^>]*action="\/"[^>]*method="get"/);
    expect(html).toContain('name="band"');
    expect(html).toContain('name="category"');
    expect(html).toContain('name="range"');
    // The search is the header's box; the form carries the listing's along.
    expect(html).toContain('<input type="hidden" name="search" value="mat"/>');
    expect(html).not.toContain("Search Category");
    expect(html).toContain('value="100"');
    expect(checkbox(html, "band", "cycleFit")).toContain('checked=""');
    expect(checkbox(html, "category", "fitness")).toContain('checked=""');
    expect(checkbox(html, "band", "teachPro")).not.toContain("checked");
    // The sort sits outside the form and joins it by id.
    expect(html).toMatch(/name="sort" form="catalog-filters"/);
    expect(html).toMatch(/<option value="date-added" selected="">Date Added<\/option>/);
    expect(html).toContain(">High to Low<");
    expect(html).toContain(">Low to High<");
    // The submit button for browsers without JavaScript.
    expect(html).toMatch(/<noscript>.*Apply filters.*<\/noscript>/s);
    expect(html).toContain("Reset filters");
  });

  it("offers the catalogue's brands and categories in fieldsets, each with its label and count", () => {
    const html = renderInRouter(<CatalogFilters filters={controls()} facets={FACETS} />);
    expect(html).toMatch(/<fieldset[^>]*><legend[^>]*>Brand<\/legend>/);
    expect(html).toMatch(/<fieldset[^>]*><legend[^>]*>Category<\/legend>/);
    expect(html).toMatch(
      /value="teachPro"\/><span[^>]*>TeachPro<\/span><span[^>]*>12<span class="sr-only"> products<\/span>/,
    );
    expect(html).toMatch(/>CycleFit<\/span><span[^>]*>1<span class="sr-only"> product<\/span>/);
    expect(html).toMatch(/>CampSafe<\/span><span[^>]*>0<span class="sr-only"> products</);
    expect(html).toContain(">1,234<");
  });

  it("offers “In stock only” as a labelled checkbox with its count, ticked from the address", () => {
    const html = renderInRouter(<CatalogFilters filters={controls()} facets={FACETS} />);
    expect(html).toMatch(/<legend[^>]*>Availability<\/legend><label[^>]*><input[^>]*name="inStock"[^>]*\/>/);
    expect(checkbox(html, "inStock", "1")).not.toContain("checked");
    expect(html).toMatch(/>In stock only<\/span><span[^>]*>1,201<span class="sr-only"> products<\/span>/);
    const ticked = renderInRouter(<CatalogFilters filters={controls({ inStock: true })} facets={FACETS} />);
    expect(checkbox(ticked, "inStock", "1")).toContain('checked=""');
  });

  it("lists a chosen value the catalogue does not know, so it can be unticked", () => {
    const html = renderInRouter(<CatalogFilters filters={controls({ band: ["acme"] })} facets={FACETS} />);
    expect(checkbox(html, "band", "acme")).toContain('checked=""');
    expect(html).toMatch(/value="acme"\/><span[^>]*>acme<\/span><span[^>]*>0</);
  });

  it("with the last known facets (the catalogue cannot be read now) lists every choice by its label, without counts", () => {
    const lastKnown: FilterFacets = {
      brands: FACETS.brands.map((choice) => ({ ...choice, count: null })),
      categories: FACETS.categories.map((choice) => ({ ...choice, count: null })),
      inStock: null,
    };
    const html = renderInRouter(
      <CatalogFilters filters={controls({ category: ["outdoor", "gone"] })} facets={lastKnown} />,
    );
    expect(checkbox(html, "band", "cycleFit")).not.toContain("checked");
    expect(checkbox(html, "category", "outdoor")).toContain('checked=""');
    expect(html).toMatch(/value="outdoor"\/><span[^>]*>Outdoor<\/span><\/label>/);
    expect(html).toMatch(/value="campSafe"\/><span[^>]*>CampSafe<\/span><\/label>/);
    // A value the last read did not have is still listed, to untick; no count claims 0.
    expect(html).toMatch(/value="gone"\/><span[^>]*>gone<\/span><\/label>/);
    expect(html).not.toMatch(/ products?<\/span>/);
  });

  it("without facets (never read) keeps what is chosen, without counts", () => {
    const html = renderInRouter(
      <CatalogFilters filters={controls({ category: ["outdoor"] })} facets={null} />,
    );
    expect(checkbox(html, "category", "outdoor")).toContain('checked=""');
    expect(html).toMatch(/value="outdoor"\/><span[^>]*>outdoor<\/span><\/label>/);
  });
});

describe("HeaderSearch", () => {
  it("is a GET search form to the shop with the specification's placeholder, and no hidden filters elsewhere", () => {
    const html = renderInRouter(<HeaderSearch />, "/about");
    expect(html).toMatch(/<form[^>]*method="get"[^>]*action="\/"|<form[^>]*action="\/"[^>]*method="get"/);
    expect(html).toContain('role="search"');
    expect(html).toContain('aria-label="Products"');
    expect(html).toMatch(/<input[^>]*type="search"[^>]*name="search"[^>]*value=""/);
    expect(html).toContain('placeholder="Search Category"');
    expect(html).not.toContain('type="hidden"');
  });

  it("on the shop page shows the listing's search, and keeps its filters and order when it is sent", () => {
    const html = renderInRouter(
      <HeaderSearch />,
      "/?band=campSafe&band=cycleFit&category=outdoor&range=150&search=tent&sort=asc&page=3",
    );
    expect(html).toMatch(/<input[^>]*type="search"[^>]*name="search"[^>]*value="tent"/);
    for (const [name, value] of [
      ["band", "campSafe"],
      ["band", "cycleFit"],
      ["category", "outdoor"],
      ["range", "150"],
      ["sort", "asc"],
    ])
      expect(html).toContain(`<input type="hidden" name="${name}" value="${value}"/>`);
    // A new search starts at page 1.
    expect(html).not.toContain('name="page"');
  });
});

describe("result states", () => {
  it("an unreadable catalogue shows an inline error with a Retry button for the same address", () => {
    const html = renderInRouter(<CatalogUnavailable retryHref="/?band=artistry&page=2" />);
    expect(html).toContain("We couldn&#x27;t load the products");
    expect(html).toMatch(/<button type="submit"[^>]*>Retry<\/button>/);
    expect(html).toContain('<input type="hidden" name="band" value="artistry"/>');
    expect(html).toContain('<input type="hidden" name="page" value="2"/>');
  });

  it("no match offers to reset the filters", () => {
    const html = renderInRouter(<NoProductsMatch wayBack={null} />);
    expect(html).toContain("No products match");
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>.*Reset filters<\/a>/s);
  });

  it("no match offers first the one change that brings products back, with its count", () => {
    const html = renderInRouter(
      <NoProductsMatch wayBack={{ text: "Remove “Outdoor”", href: "/?band=cycleFit", count: 14 }} />,
    );
    expect(html).toMatch(/href="\/\?band=cycleFit#results"[^>]*>Remove “Outdoor”: 14 products<\/a>/);
    expect(html).toContain("Reset filters");
  });

  it("no match offers 'Did you mean' with the respelled search's link and count", () => {
    const html = renderInRouter(
      <NoProductsMatch
        wayBack={null}
        didYouMean={{ search: "blender", href: "/?search=blender", count: 3 }}
      />,
    );
    expect(html).toMatch(
      /<a[^>]*href="\/\?search=blender#results"[^>]*>Did you mean “blender”\?<\/a> 3 products/,
    );
  });

  it("a search answered by close spellings says which", () => {
    const html = renderInRouter(
      <CloseSpellings
        words={[
          { typed: "yoga", alike: [], corrected: false },
          { typed: "mta", alike: ["mat", "max"], corrected: true },
        ]}
      />,
    );
    expect(html).toContain("No product has “mta”: showing “mat” or “max”.");
    // Nothing respelled: the status region stays, empty, so a later note is announced.
    expect(
      renderInRouter(<CloseSpellings words={[{ typed: "yoga", alike: [], corrected: false }]} />),
    ).toMatch(/^<p role="status" class="sr-only"><\/p>$/);
  });

  it("a page past the end links to page 1 of the same filters", () => {
    const html = renderInRouter(
      <PageOutOfRange page={40} totalPages={3} firstPageHref="/?category=outdoor" />,
    );
    expect(html).toContain("Page 40 is past the end");
    expect(html).not.toContain("No products match");
    expect(html).toContain("There is no page 40: these filters fill 3 pages.");
    expect(html).toMatch(/href="\/\?category=outdoor"[^>]*>Go to page 1</);
  });
});

describe("FilterChips", () => {
  it("shows each applied filter as a link that removes it, and Clear all", () => {
    const html = renderInRouter(
      <FilterChips
        applied={[
          { kind: "Brand", label: "CycleFit", href: "/?category=fitness" },
          { kind: "Category", label: "Fitness", href: "/?band=cycleFit" },
          { kind: "Stock", label: "In stock only", href: "/?band=cycleFit&category=fitness" },
        ]}
        clearAllHref="/?sort=asc"
      />,
    );
    expect(html).toMatch(/href="\/\?category=fitness#results"[^>]*>.*Brand.*:.*CycleFit.*, remove.*<\/a>/s);
    expect(html).toMatch(/href="\/\?sort=asc#results"[^>]*>Clear all<\/a>/);
    expect(html).toMatch(
      /href="\/\?band=cycleFit&amp;category=fitness#results"[^>]*>.*Stock.*:.*In stock only/s,
    );
  });

  it("shows nothing when no filter applies", () => {
    expect(renderInRouter(<FilterChips applied={[]} clearAllHref="/" />)).toBe("");
  });
});
