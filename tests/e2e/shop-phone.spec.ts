import type { Locator, Page } from "@playwright/test";
import { toasts } from "./support/accounts";
import { gotoInteractive } from "./support/page-checks";
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
const filterSheet = (page: Page) => page.getByRole("dialog", { name: "Filters" });

/** The sheet is open as a modal dialog: named by its heading, focus inside, the page behind inert. */
async function expectModalSheet(page: Page) {
  const sheet = filterSheet(page);
  await expect(sheet).toBeVisible();
  await expect(sheet).toHaveAttribute("aria-modal", "true");
  await expect(page.getByRole("button", { name: "Close filters" })).toBeFocused();
  // Everything but the sheet is out of reach: the navbar, the results, the footer.
  const reachable = await page.evaluate(() =>
    ["header a", "#results a", "footer a", "select"].filter((selector) => {
      const element = document.querySelector(selector);
      return element && !element.closest("[inert]");
    }),
  );
  expect(reachable).toEqual([]);
}

test.describe("the shop page on a tablet (768 px)", () => {
  test.use({ viewport: { width: 768, height: 1024 } });

  test("the filters wait behind a Filters button in a modal sheet, so the products are in view", async ({
    page,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await expect(shop.filters).toBeHidden();
    await expect(shop.cards.first()).toBeInViewport();
    const open = filterSheetButton(page);
    await open.click();
    await expectModalSheet(page);
    await page.keyboard.press("Escape");
    await expect(filterSheet(page)).toBeHidden();
    await expect(open).toBeFocused();
    // Closed, the page is the shopper's again.
    await expect(page.locator("[inert]")).toHaveCount(0);
    await expectNoSidewaysScroll(page);
  });
});

test.describe("the shop page from 1024 px", () => {
  test.use({ viewport: { width: 1024, height: 800 } });

  test("the filters are part of the page, not a dialog", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await expect(shop.filters).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(filterSheetButton(page)).toBeHidden();
  });
});

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
    // A modal dialog: focus moves in, so the keyboard is where the eyes are, and the page behind is inert.
    await expectModalSheet(page);

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
    await expect(page.locator("[inert]")).toHaveCount(0);
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
    // Tab through every control in the sheet, and on: focus stays in the sheet (or leaves the page
    // for the browser's own controls), never in the page it covers.
    const sheet = filterSheet(page);
    let visited = 0;
    for (let step = 0; step < 40; step += 1) {
      await page.keyboard.press("Tab");
      const where = await page.evaluate(() => {
        const focused = document.activeElement;
        if (!focused || focused === document.body) return "outside the page";
        return focused.closest("[role=dialog]") ? "in the sheet" : focused.outerHTML.slice(0, 80);
      });
      expect(["in the sheet", "outside the page"]).toContain(where);
      if (where === "in the sheet") visited += 1;
    }
    expect(visited).toBeGreaterThan(10);
    await expect(sheet).toBeVisible();
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

for (const width of [390, 320]) {
  test(`at ${width} px, the "… is in your cart" toast leaves the navbar's cart count in view`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await gotoInteractive(page, "/");
    const add = page.getByRole("button", { name: /^Add to cart: / }).first();
    const name = ((await add.getAttribute("aria-label")) ?? "").replace(/^Add to cart: /, "");
    await add.click();
    const toast = toasts(page)
      .getByRole("listitem")
      .filter({ hasText: `${name} is in your cart.` });
    await expect(toast).toBeVisible();
    const cart = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cart, 1 item" });
    await expect(cart).toBeVisible();
    // Where the toast comes to rest, once it has slid in (sonner marks it mounted, then moves it).
    await expect(toast).toHaveAttribute("data-mounted", "true");
    await toast.evaluate((element) =>
      Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)),
    );
    const [toastBox, cartBox] = await Promise.all([toast.boundingBox(), cart.boundingBox()]);
    if (!toastBox || !cartBox) throw new Error("the toast and the cart link are both on screen");
    const apart =
      toastBox.y >= cartBox.y + cartBox.height ||
      cartBox.y >= toastBox.y + toastBox.height ||
      toastBox.x >= cartBox.x + cartBox.width ||
      cartBox.x >= toastBox.x + toastBox.width;
    expect(apart, `the toast ${JSON.stringify(toastBox)} covers the cart ${JSON.stringify(cartBox)}`).toBe(
      true,
    );
  });
}

test.describe("the shop page on a phone without JavaScript", () => {
  test.use({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });

  for (const width of [390, 768]) {
    test(`the Filters button still opens the sheet, and Apply filters sends it (${width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
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
  }

  test("a page link opens the next page at its results", async ({ page }) => {
    await page.goto("/");
    const shop = new ShopPage(page);
    await shop.next.click();
    await expect(page).toHaveURL(/\/\?page=2#results$/);
    await expect(shop.summary).toBeInViewport();
  });
});
