import type { Page } from "@playwright/test";
import { animationsSettled, axeOf, expectNoAxeViolations, gotoInteractive } from "./support/page-checks";
import { apiCount, ShopPage } from "./support/shop-page";
import { expect, test } from "./support/test";

test.describe("search that finds what shoppers mean", () => {
  test("a typo finds what was meant, and the page says which spelling it used", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.search.fill("headphnes");
    await shop.search.press("Enter");
    await shop.expectQuery("search=headphnes");
    await shop.expectCards(["TeachPro Wireless Headphones"]);
    await expect(shop.main.locator("#results")).toContainText(
      "No product has “headphnes”: showing “headphones”.",
    );
  });

  test("'yoga mta' finds the yoga mat; 'phones' finds the headphones", async ({ page, request }) => {
    const shop = new ShopPage(page);
    await shop.goto("search=yoga+mta");
    await shop.expectCards(["CycleFit Yoga Mat Pro"]);
    expect(await apiCount(request, "search=yoga+mta")).toBe(1);
    await shop.goto("search=wireless+phones");
    await shop.expectCards(["TeachPro Wireless Headphones"]);
  });

  test("the matched words are marked in the names, as text", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto("search=blend");
    const firstName = shop.cards.first().getByRole("heading", { level: 3 });
    await expect(firstName.locator("mark").first()).toHaveText("Blend");
    // Marking changes nothing a shopper or a screen reader reads: the link is still the whole name.
    const name = await firstName.textContent();
    await expect(shop.cards.first().getByRole("link", { name: name ?? "" })).toBeVisible();
    // A search that came with the address asks for no suggestions: the shopper has typed nothing.
    const asked: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/suggestions") asked.push(request.url());
    });
    await page.clock.install();
    await shop.goto("search=phones");
    await expect(shop.cards.locator("mark", { hasText: /^phones$/ })).toHaveCount(1);
    // Past the search box's pause before it asks.
    await page.clock.runFor(1_000);
    await expect(shop.searchForm.getByRole("option")).toHaveCount(0);
    expect(asked).toEqual([]);
  });

  test("a search too far off offers 'Did you mean' with a working link", async ({ page, request }) => {
    const shop = new ShopPage(page);
    await shop.goto("search=blxndxr&sort=asc");
    await expect(shop.main.getByRole("heading", { name: "No products match" })).toBeVisible();
    const blenders = await apiCount(request, "search=blender");
    const meant = shop.main.getByRole("link", { name: "Did you mean “blender”?" });
    await expect(meant.locator("..")).toHaveText(`Did you mean “blender”? ${blenders} products`);
    // Announced with the count: focus stays where the shopper typed.
    await expect(shop.summary).toHaveText(`0 products. Did you mean “blender”? ${blenders} products`);
    await meant.click();
    await shop.expectQuery("search=blender&sort=asc");
    await shop.expectCardsToMatchApi(request, "search=blender&sort=asc");
  });
});

test.describe("search suggestions as the shopper types", () => {
  test("a list of products, brands and categories follows the typing; arrows, Enter and Escape work it", async ({
    page,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    const box = shop.searchForm.getByRole("combobox", { name: "Search" });
    const list = shop.searchForm.getByRole("listbox", { name: "Suggestions" });
    await box.pressSequentially("camp", { delay: 40 });
    await expect(box).toHaveAttribute("aria-expanded", "true");
    // The listing follows the typing underneath; the list stays open over it.
    await shop.expectQuery("search=camp");
    await expect(box).toHaveAttribute("aria-expanded", "true");
    await expect(list.getByRole("group", { name: "Products" }).getByRole("option")).not.toHaveCount(0);
    await expect(
      list.getByRole("group", { name: "Brands" }).getByRole("option", { name: "CampSafe" }),
    ).toBeVisible();
    // Announced once the list is there.
    await expect(shop.searchForm.getByRole("status")).toContainText(/\d+ suggestions?/);

    // Down moves into the list; focus stays in the field, the active option is pointed at.
    await box.press("ArrowDown");
    const first = list.getByRole("option").first();
    await expect(first).toHaveAttribute("aria-selected", "true");
    await expect(box).toHaveAttribute("aria-activedescendant", (await first.getAttribute("id")) ?? "");
    await expect(box).toBeFocused();
    // Up from the first wraps to the last.
    await box.press("ArrowUp");
    await expect(list.getByRole("option").last()).toHaveAttribute("aria-selected", "true");

    // Escape closes the list and keeps the text.
    await box.press("Escape");
    await expect(box).toHaveAttribute("aria-expanded", "false");
    await expect(list).toBeHidden();
    await expect(box).toHaveValue("camp");

    // Down opens it again; Enter on a product opens that product's page.
    await box.press("ArrowDown");
    const productName = await first.textContent();
    await box.press("Enter");
    await expect(page).toHaveURL(/\/products\/\d+-[a-z0-9-]+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(productName ?? "");
  });

  test("a brand suggestion leads to the shop filtered by that brand", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.search.pressSequentially("cyclef", { delay: 40 });
    await shop.searchForm.getByRole("option", { name: "CycleFit", exact: true }).click();
    await shop.expectQuery("band=cycleFit");
    await shop.brand.expectChosen(["cycleFit"]);
  });

  test("Enter with no suggestion chosen still searches", async ({ page, request }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.search.pressSequentially("blend", { delay: 40 });
    await expect(shop.searchForm.getByRole("listbox", { name: "Suggestions" })).toBeVisible();
    // An option chosen, then more typed: the choice was for the older text, and is dropped.
    await shop.search.press("ArrowDown");
    await expect(shop.search).toHaveAttribute("aria-activedescendant", /option/);
    await shop.search.press("e");
    await expect(shop.search).not.toHaveAttribute("aria-activedescendant");
    await shop.search.press("Enter");
    await shop.expectQuery("search=blende");
    await shop.expectCardsToMatchApi(request, "search=blende");
  });

  test("in forced colours the active suggestion is told apart from the others", async ({ page }) => {
    await page.emulateMedia({ forcedColors: "active" });
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.search.pressSequentially("blend", { delay: 40 });
    const options = shop.searchForm.getByRole("option");
    await expect(options.first()).toBeVisible();
    await shop.search.press("ArrowDown");
    await expect(options.first()).toHaveAttribute("aria-selected", "true");
    // The option's colours change with a transition: read once it has run, as a reader sees them.
    await animationsSettled(page);
    const looks = await options.evaluateAll((elements) =>
      elements.map((element) => {
        const style = getComputedStyle(element);
        return `${style.backgroundColor} ${style.borderLeftWidth}`;
      }),
    );
    const [active, ...others] = looks;
    // Every border shows in forced colours: only the active option may have one, and its own background.
    expect(new Set(others).size).toBe(1);
    expect(others).not.toContain(active);
  });

  test("the open list has no accessibility violations", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.search.pressSequentially("blend", { delay: 40 });
    await expect(shop.searchForm.getByRole("listbox", { name: "Suggestions" })).toBeVisible();
    await shop.search.press("ArrowDown");
    await expect(shop.searchForm.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
    const results = await axeOf(page).include("form[role=search]").analyze();
    expect(results.violations).toEqual([]);
  });
});

test.describe("search without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the form searches with typos forgiven, matches marked and 'Did you mean'", async ({ page }) => {
    await page.goto("/");
    const box = page.getByRole("searchbox", { name: "Search" });
    await box.fill("blendr");
    await box.press("Enter");
    await expect(page).toHaveURL(/\?search=blendr$/);
    await expect(page.locator("#results")).toContainText(
      "No product has “blendr”: showing “blender” or “blend”.",
    );
    await expect(page.locator("#results mark").first()).toHaveText("Blender");
    await page.goto("/?search=blxndxr");
    await page.getByRole("link", { name: "Did you mean “blender”?" }).click();
    await expect(page).toHaveURL(/\?search=blender#results$/);
    await expect(page.getByRole("list", { name: "Products" }).getByRole("listitem")).not.toHaveCount(0);
  });
});

test.describe("the search in the header of every page", () => {
  const searchButton = (page: Page) => page.getByRole("button", { name: "Search", exact: true });
  /** Every field on the page named "Search", whatever its role. */
  const searchFields = (page: Page) =>
    page.getByRole("combobox", { name: "Search" }).or(page.getByRole("searchbox", { name: "Search" }));

  test("from another page it suggests as the shopper types, and Enter searches the shop", async ({
    page,
    request,
  }) => {
    await gotoInteractive(page, "/about");
    const shop = new ShopPage(page);
    await expect(searchFields(page)).toHaveCount(1);
    await shop.search.pressSequentially("camp", { delay: 40 });
    const list = shop.searchForm.getByRole("listbox", { name: "Suggestions" });
    await expect(
      list.getByRole("group", { name: "Brands" }).getByRole("option", { name: "CampSafe" }),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    await shop.search.press("Enter");
    await shop.expectQuery("search=camp");
    await shop.expectCardsToMatchApi(request, "search=camp");
    await expect(shop.search).toHaveValue("camp");
  });

  test("is reached with the keyboard from the top of the page", async ({ page }) => {
    await gotoInteractive(page, "/contact");
    const shop = new ShopPage(page);
    for (
      let step = 0;
      step < 8 && !(await shop.search.evaluate((field) => field === document.activeElement));
      step++
    )
      await page.keyboard.press("Tab");
    await expect(shop.search).toBeFocused();
  });

  test("on the shop page it is the listing's one search: it keeps the filters and follows the address", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto("band=blendMaster");
    // One field named Search on the page: the filter panel has none of its own.
    await expect(searchFields(page)).toHaveCount(1);
    await expect(shop.filters.getByRole("searchbox").or(shop.filters.getByRole("combobox"))).toHaveCount(0);
    await shop.search.pressSequentially("pro", { delay: 60 });
    await shop.expectQuery("band=blendMaster&search=pro");
    await shop.expectCardsToMatchApi(request, "band=blendMaster&search=pro");
    await shop.brand.expectChosen(["blendMaster"]);
    // Reset filters empties it; Back brings it back.
    await shop.filters.getByRole("link", { name: "Reset filters" }).click();
    await shop.expectQuery("");
    await expect(shop.search).toHaveValue("");
    await page.goBack();
    await shop.expectQuery("band=blendMaster&search=pro");
    await expect(shop.search).toHaveValue("pro");
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("it waits behind a Search button; Escape closes it; Enter searches and closes it", async ({
      page,
      request,
    }) => {
      await gotoInteractive(page, "/about");
      const shop = new ShopPage(page);
      await expect(shop.search).toBeHidden();
      const open = searchButton(page);
      await expect(open).toHaveAttribute("aria-expanded", "false");
      await open.click();
      await expect(open).toHaveAttribute("aria-expanded", "true");
      await expect(shop.search).toBeFocused();
      await expectNoAxeViolations(page);
      await page.keyboard.press("Escape");
      await expect(shop.search).toBeHidden();
      await expect(open).toBeFocused();

      await open.click();
      await shop.search.pressSequentially("tent", { delay: 40 });
      await expect(shop.searchForm.getByRole("option").first()).toBeVisible();
      // The first Escape closes the suggestions and keeps the text; the second closes the search.
      await page.keyboard.press("Escape");
      await expect(shop.searchForm.getByRole("listbox")).toBeHidden();
      await expect(shop.search).toHaveValue("tent");
      await expect(shop.search).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(shop.search).toBeHidden();
      await open.click();
      await expect(shop.search).toHaveValue("tent");
      // Focus moves into the field once the search has opened: Enter before that goes to the button.
      await expect(shop.search).toBeFocused();
      await page.keyboard.press("Enter");
      await shop.expectQuery("search=tent");
      await shop.expectCardsToMatchApi(request, "search=tent");
      await expect(shop.search).toBeHidden();
      await expect(shop.cards.first()).toBeInViewport();
    });

    test("on the shop page the listing follows the typing behind it", async ({ page, request }) => {
      const shop = new ShopPage(page);
      await shop.goto("category=outdoor");
      await searchButton(page).click();
      await shop.search.pressSequentially("lantern", { delay: 60 });
      await shop.expectQuery("category=outdoor&search=lantern");
      await expect(shop.search).toBeVisible();
      await shop.expectCardsToMatchApi(request, "category=outdoor&search=lantern");
    });

    test("it reflows at 320 px", async ({ page }) => {
      await page.setViewportSize({ width: 320, height: 640 });
      await gotoInteractive(page, "/about");
      await searchButton(page).click();
      const field = new ShopPage(page).search;
      await expect(field).toBeVisible();
      const box = await field.boundingBox();
      expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 320).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    });
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("on a phone the Search button still opens it, and it sends a plain GET to the shop", async ({
      page,
    }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/about");
      await searchButton(page).click();
      const box = page.getByRole("searchbox", { name: "Search" });
      await box.fill("lantern");
      await box.press("Enter");
      await expect(page).toHaveURL(/\/\?search=lantern$/);
      await expect(page.getByRole("list", { name: "Products" }).getByRole("listitem")).not.toHaveCount(0);
    });

    test("on the shop page a search keeps the filters and the order", async ({ page }) => {
      await page.goto("/?category=outdoor&sort=asc");
      const box = page.getByRole("searchbox", { name: "Search" });
      await box.fill("lantern");
      await box.press("Enter");
      await expect(page).toHaveURL(/\/\?category=outdoor&search=lantern&sort=asc$/);
      // And the filters keep the search.
      await page.getByRole("checkbox", { name: /CampSafe/ }).check();
      await page.getByRole("button", { name: "Apply filters" }).click();
      await expect(page).toHaveURL(/\/\?band=campSafe&category=outdoor&search=lantern&sort=asc$/);
    });
  });
});
