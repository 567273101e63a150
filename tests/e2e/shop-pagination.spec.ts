import { apiCount, ShopPage } from "./support/shop-page";
import { expect, test } from "./support/test";

test.describe("shop page pagination", () => {
  test("Previous is disabled on the first page; Next and the numbers move through the pages", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await expect(shop.previous).toBeDisabled();
    await expect(shop.previous).not.toHaveAttribute("href");
    await expect(shop.next).toBeEnabled();
    await expect(shop.pageLink(1)).toHaveAttribute("aria-current", "page");

    await shop.next.click();
    await shop.expectQuery("page=2");
    await shop.expectCardsToMatchApi(request, "page=2");
    await expect(shop.pageLink(2)).toHaveAttribute("aria-current", "page");
    await expect(shop.pageLink(1)).not.toHaveAttribute("aria-current");
    await expect(shop.previous).toBeEnabled();
    const count = await apiCount(request, "");
    await expect(shop.summary).toHaveText(`Showing 6–10 of ${count} products`);

    await shop.pageLink(3).click();
    await shop.expectQuery("page=3");
    await shop.expectCardsToMatchApi(request, "page=3");
    await shop.previous.click();
    await shop.expectQuery("page=2");
  });

  test("the current page is highlighted, not only marked", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto("page=2");
    const background = (link: ReturnType<ShopPage["pageLink"]>) =>
      link.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await background(shop.pageLink(2))).not.toBe(await background(shop.pageLink(3)));
  });

  test("Next is disabled on the last page and a long page list is shortened with ellipses", async ({
    page,
    request,
  }) => {
    const count = await apiCount(request, "");
    const last = Math.ceil(count / 5);
    // The demo catalogue has 13 pages: enough for the list to need ellipses.
    expect(last).toBeGreaterThanOrEqual(8);
    const shop = new ShopPage(page);
    await shop.goto(`page=${last}`);
    await shop.expectCardsToMatchApi(request, `page=${last}`);
    await expect(shop.next).toBeDisabled();
    await expect(shop.previous).toBeEnabled();
    await expect(shop.pageLink(last)).toHaveAttribute("aria-current", "page");
    const bar = (await shop.pagination.locator("li:visible").allTextContents()).map((text) => text.trim());
    expect(bar.slice(1, -1)).toEqual(["1", "…", ...[4, 3, 2, 1, 0].map((back) => String(last - back))]);

    await shop.goto("page=5");
    const middle = (await shop.pagination.locator("li:visible").allTextContents()).map((text) => text.trim());
    expect(middle.slice(1, -1)).toEqual(["1", "…", "4", "5", "6", "…", String(last)]);
  });

  test("changing a filter goes back to page 1", async ({ page, request }) => {
    const shop = new ShopPage(page);
    await shop.goto("page=3");
    await expect(shop.pageLink(3)).toHaveAttribute("aria-current", "page");
    await shop.category.choose("fitness");
    await shop.expectQuery("category=fitness");
    await expect(shop.pageLink(1)).toHaveAttribute("aria-current", "page");
    await shop.expectCardsToMatchApi(request, "category=fitness");

    await shop.pageLink(2).click();
    await shop.expectQuery("category=fitness&page=2");
    await shop.sort.selectOption("asc");
    await shop.expectQuery("category=fitness&sort=asc");
    await shop.pageLink(2).click();
    await shop.expectQuery("category=fitness&sort=asc&page=2");
    await shop.search.fill("mat");
    await shop.search.press("Enter");
    await shop.expectQuery("category=fitness&search=mat&sort=asc");
  });

  test.describe("past the end", () => {
    // The browser reports the page's own 404 in the console.
    test.use({ allowedConsoleErrors: [/status of 404/] });

    test("a page past the end answers 404 and shows the empty state with a link to page 1 of the same filters", async ({
      page,
      request,
    }) => {
      const shop = new ShopPage(page);
      const answer = await page.goto("/?category=outdoor&page=99");
      expect(answer?.status()).toBe(404);
      await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
      // The JSON API keeps its specified answer: an empty page, 200.
      const api = await request.get("/all-products?category=outdoor&page=99");
      expect(api.status()).toBe(200);
      expect(await api.json()).toEqual([]);
      const count = await apiCount(request, "category=outdoor");
      // The listing has products, only not this many pages: the page must not claim that nothing matches.
      await expect(shop.main.getByRole("heading", { name: "Page 99 is past the end" })).toBeVisible();
      await expect(shop.summary).toHaveText(`${count} products`);
      await expect(shop.main).not.toContainText("No products match");
      await expect(shop.main).toContainText("There is no page 99");
      await shop.main.getByRole("link", { name: "Go to page 1" }).click();
      await shop.expectQuery("category=outdoor");
      await shop.expectCardsToMatchApi(request, "category=outdoor");
    });
  });

  test("no products on page 1 is a listing (200), with its empty state", async ({ page }) => {
    const answer = await page.goto("/?band=cycleFit&category=home+goods");
    expect(answer?.status()).toBe(200);
    await expect(new ShopPage(page).main.getByRole("heading", { name: "No products match" })).toBeVisible();
  });
});
