import type { Locator, Page } from "@playwright/test";
import { apiCount, ShopPage } from "./support/shop-page";
import { expect, test } from "./support/test";

/** The element lies wholly inside the viewport's width: nothing clipped at either edge. */
async function expectWithinWidth(page: Page, element: Locator) {
  const box = await element.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, "the element is rendered").not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);
}

const filterSheetButton = (page: Page) => page.getByRole("button", { name: /^Filters/ });

test.describe("the shop page at 320 px (WCAG reflow)", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  for (const page of [1, 7, 13]) {
    test(`pagination keeps Previous and Next on screen (page ${page})`, async ({ page: browserPage }) => {
      const shop = new ShopPage(browserPage);
      await shop.goto(`page=${page}`);
      const last = Math.ceil((await apiCount(browserPage.request, "")) / 5);
      await expect(shop.pagination).toContainText(`Page ${page} of ${last}`);
      await expectWithinWidth(browserPage, shop.previous);
      await expectWithinWidth(browserPage, shop.next);
      await expectNoSidewaysScroll(browserPage);
    });
  }

  test("no results: 'Did you mean' and the way back fit, their labels wrapped", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto("search=blxndxr");
    const wayBack = shop.main.getByRole("link", { name: /^Remove the search/ });
    await expectWithinWidth(page, wayBack);
    await expectWithinWidth(page, shop.main.getByRole("link", { name: "Did you mean “blender”?" }));
    await expectNoSidewaysScroll(page);
  });
});

test.describe("the shop page on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the filters wait behind a Filters button, and the results come first", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await expect(shop.filters).toBeHidden();
    await expect(shop.cards.first()).toBeInViewport();
    await expectNoSidewaysScroll(page);
  });

  test("the sheet applies each filter behind it, stays open, and closes onto the results", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    const open = filterSheetButton(page);
    await expect(open).toHaveAttribute("aria-expanded", "false");
    await open.click();
    await expect(open).toHaveAttribute("aria-expanded", "true");
    await expect(shop.filters).toBeVisible();
    // Opening moves focus into the sheet, so the keyboard is where the eyes are.
    await expect(page.getByRole("button", { name: "Close filters" })).toBeFocused();

    await shop.brand.choose("blendMaster");
    await shop.expectQuery("band=blendMaster");
    await expect(shop.filters).toBeVisible();
    const count = await apiCount(request, "band=blendMaster");
    const show = page.getByRole("button", { name: `Show ${count} products` });
    await expect(show).toBeVisible();
    await show.click();
    await expect(shop.filters).toBeHidden();
    await expect(open).toHaveAccessibleName("Filters 1 applied");
    await expect(open).toBeFocused();
    await shop.expectCardsToMatchApi(request, "band=blendMaster");
  });

  test("Escape closes the sheet, and Tab never wanders into the page hidden behind it", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    const open = filterSheetButton(page);
    await open.click();
    await page.keyboard.press("Escape");
    await expect(shop.filters).toBeHidden();
    await expect(open).toBeFocused();

    await open.click();
    await expect(shop.filters).toBeVisible();
    // Tab through every control in the sheet and one step beyond: the sheet closes rather than hide focus.
    for (let step = 0; step < 30 && (await shop.filters.isVisible()); step += 1) {
      await page.keyboard.press("Tab");
    }
    await expect(shop.filters).toBeHidden();
    const focusedIsVisible = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return element !== null && element !== document.body && element.checkVisibility();
    });
    expect(focusedIsVisible).toBe(true);
  });

  test("a new page opens at its results, with focus on them, not at the top of the shop", async ({
    page,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.next.scrollIntoViewIfNeeded();
    await shop.next.click();
    await expect(page).toHaveURL(/\/\?page=2#results$/);
    await shop.waitUntilIdle();
    await expect(shop.summary).toHaveText(/Showing 6–10 of/);
    await expect(shop.summary).toBeInViewport();
    await expect(shop.cards.first()).toBeInViewport();
    await expect(page.locator("#results")).toBeFocused();
  });
});

test.describe("the shop page on a phone without JavaScript", () => {
  test.use({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });

  test("the Filters button still opens the sheet, and Apply filters sends it", async ({ page }) => {
    await page.goto("/");
    const shop = new ShopPage(page);
    await expect(shop.filters).toBeHidden();
    await filterSheetButton(page).click();
    await expect(shop.filters).toBeVisible();
    await shop.category.choose("outdoor");
    await shop.filters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/\/\?category=outdoor$/);
    await expect(shop.cards.first()).toBeVisible();
  });

  test("a page link opens the next page at its results", async ({ page }) => {
    await page.goto("/");
    const shop = new ShopPage(page);
    await shop.next.click();
    await expect(page).toHaveURL(/\/\?page=2#results$/);
    await expect(shop.summary).toBeInViewport();
  });
});
