import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { ShopPage } from "./support/shop-page";
import { expect, test } from "./support/test";

/** axe-core's full rule set (WCAG 2.x A and AA plus best practices): no violations at all. */
async function expectNoViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  expect(summary).toEqual([]);
}

test.describe("accessibility (axe-core)", () => {
  for (const path of ["/", "/about", "/contact", "/?band=blendMaster&range=100&sort=asc&page=2"]) {
    test(`${path} has no violations`, async ({ page }) => {
      await page.goto(path);
      await new ShopPage(page).main.waitFor();
      await expectNoViolations(page);
    });
  }

  test.describe("error pages", () => {
    test.use({ allowedConsoleErrors: [/status of (404|400)/] });

    test("the 404 page has no violations", async ({ page }) => {
      await page.goto("/no-such-page");
      await expectNoViolations(page);
    });

    test("the bad-filter page has no violations", async ({ page }) => {
      await page.goto("/?sort=sideways");
      await expectNoViolations(page);
    });
  });

  test("the empty state has no violations", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto("search=zzzqqq");
    await expect(shop.main.getByRole("heading", { name: "No products match" })).toBeVisible();
    await expectNoViolations(page);
  });

  test("on a phone, with the menu open, there are no violations", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto("/");
    await page.getByRole("button", { name: "Menu" }).click();
    await expectNoViolations(page);
  });

  test("every filter control can be reached and used with the keyboard", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.search.focus();
    await page.keyboard.press("Tab");
    await expect(shop.brand).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(shop.category).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(shop.price).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect(shop.priceValue).toHaveText("Up to $10");
    await shop.expectQuery("range=10");
  });
});
