import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect } from "./test";

export interface ApiProduct {
  id: number;
  name: string;
  price: number;
  bandName: string;
  category: string;
  creationDate: string;
}

/** A facet of the filter panel (Brand, Category): a group of checkboxes, one per value. */
export class FacetChoices {
  constructor(readonly group: Locator) {}

  /** The checkbox of one value (as the URL writes it). */
  option(value: string): Locator {
    return this.group.locator(`input[type="checkbox"][value="${value}"]`);
  }

  /** Ticks a value, as a shopper clicks it. */
  async choose(value: string) {
    await this.option(value).check();
  }

  async unchoose(value: string) {
    await this.option(value).uncheck();
  }

  /** Waits until exactly these values are ticked. */
  async expectChosen(values: string[]) {
    await expect
      .poll(() =>
        this.group
          .locator('input[type="checkbox"]:checked')
          .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value).sort()),
      )
      .toEqual([...values].sort());
  }
}

/** The shop page as a shopper uses it: its controls, cards and pagination. */
export class ShopPage {
  readonly main: Locator;
  readonly filters: Locator;
  /** The header's search form: on the shop page, the listing's search. */
  readonly searchForm: Locator;
  readonly search: Locator;
  readonly brand: FacetChoices;
  readonly category: FacetChoices;
  readonly price: Locator;
  readonly priceValue: Locator;
  readonly sort: Locator;
  readonly results: Locator;
  readonly cards: Locator;
  readonly summary: Locator;
  readonly pagination: Locator;
  readonly previous: Locator;
  readonly next: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole("main");
    this.filters = page.getByRole("search", { name: "Product filters" });
    this.searchForm = page.getByRole("search", { name: "Products" });
    // A combobox with JavaScript (its suggestions list), a plain search field without.
    this.search = this.searchForm
      .getByRole("combobox", { name: "Search" })
      .or(this.searchForm.getByRole("searchbox", { name: "Search" }));
    this.brand = new FacetChoices(this.filters.getByRole("group", { name: "Brand" }));
    this.category = new FacetChoices(this.filters.getByRole("group", { name: "Category" }));
    this.price = this.filters.getByRole("slider", { name: "Max price" });
    this.priceValue = this.filters.locator("[data-price-value]");
    this.sort = this.main.getByRole("combobox", { name: "Sort By Price" });
    this.results = this.main.locator("[aria-busy]");
    this.cards = this.main.getByRole("list", { name: "Products" }).getByRole("listitem");
    // The first of the results' announcements: "Showing 1–5 of 65 products".
    this.summary = this.main.locator("#results").getByRole("status").first();
    this.pagination = this.main.getByRole("navigation", { name: "Product pages" });
    this.previous = this.pagination.getByRole("link", { name: "Previous" });
    this.next = this.pagination.getByRole("link", { name: "Next" });
  }

  /** Opens the shop and waits until it is interactive (hydrated): a change made before that would be lost. */
  async goto(query = "") {
    await this.page.goto(query ? `/?${query}` : "/");
    await expect(this.page.locator("html[data-hydrated]")).toHaveCount(1);
    await this.waitUntilIdle();
  }

  /** Results are settled: no navigation pending. */
  async waitUntilIdle() {
    await expect(this.results).toHaveAttribute("aria-busy", "false");
  }

  /** Waits for the address to carry exactly these parameters (in this order), then for the results. */
  async expectQuery(query: string) {
    await expect(this.page).toHaveURL(
      (url) => url.pathname === "/" && url.search === (query ? `?${query}` : ""),
    );
    await this.waitUntilIdle();
  }

  cardNames(): Promise<string[]> {
    return this.cards.getByRole("heading", { level: 3 }).allTextContents();
  }

  /**
   * The cards show exactly these products, in this order, once the page has caught up: the router
   * writes the new address before React commits the page it belongs to, so a read right after
   * `expectQuery` may still see the cards before.
   */
  async expectCards(names: string[]) {
    await expect(this.cards.getByRole("heading", { level: 3 })).toHaveText(names);
  }

  pageLink(page: number): Locator {
    return this.pagination.getByRole("link", { name: `Page ${page}`, exact: true });
  }

  /** The cards must show exactly the API's page for the same query, in the same order. */
  async expectCardsToMatchApi(request: APIRequestContext, query: string) {
    const expected = (await apiProducts(request, query)).map((product) => product.name);
    await expect.poll(() => this.cardNames()).toEqual(expected);
    return expected;
  }
}

/** The JSON API's page of five for a shop query (same parameters, `size=5`). */
export async function apiProducts(request: APIRequestContext, query: string): Promise<ApiProduct[]> {
  const params = new URLSearchParams(query);
  params.set("size", "5");
  const response = await request.get(`/all-products?${params}`);
  expect(response.status()).toBe(200);
  return response.json();
}

/** The API's count for the same filters. */
export async function apiCount(request: APIRequestContext, query: string): Promise<number> {
  const params = new URLSearchParams(query);
  for (const name of ["page", "size", "sort"]) params.delete(name);
  const response = await request.get(`/counts?${params}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { count: number }).count;
}

/** The API's facets for the same filters: the count, and each brand and category with its label and count. */
export async function apiFacets(request: APIRequestContext, query: string) {
  const params = new URLSearchParams(query);
  for (const name of ["page", "size", "sort"]) params.delete(name);
  const response = await request.get(`/facets?${params}`);
  expect(response.status()).toBe(200);
  type Choice = { value: string; label: string; count: number };
  return (await response.json()) as { count: number; brands: Choice[]; categories: Choice[] };
}
