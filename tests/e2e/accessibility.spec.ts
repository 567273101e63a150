import type { Locator } from "@playwright/test";
import { expectNoAxeViolations } from "./support/page-checks";
import { ShopPage } from "./support/shop-page";
import { expect, test } from "./support/test";

/**
 * A computed colour as "r, g, b". Tailwind 4 writes colours in oklch(), so
 * the page's own canvas converts it to sRGB, as the screen shows it.
 */
function cssColourAsRgb(element: Locator, property: string): Promise<string> {
  return element.evaluate((node, name) => {
    const context = document.createElement("canvas").getContext("2d");
    if (!context) throw new Error("no 2D canvas");
    context.fillStyle = getComputedStyle(node).getPropertyValue(name);
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return `${r}, ${g}, ${b}`;
  }, property);
}

/** WCAG contrast ratio of an "r, g, b" colour against white. */
function contrastWithWhite(colour: string): number {
  const [r = 0, g = 0, b = 0] = (colour.match(/[\d.]+/g) ?? []).map(Number);
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  return 1.05 / (luminance + 0.05);
}

test.describe("accessibility (axe-core)", () => {
  for (const path of [
    "/",
    "/about",
    "/contact",
    "/docs/api",
    "/?band=blendMaster&range=100&sort=asc&page=2",
    // Several brands, chips for each filter.
    "/?band=campSafe&band=cycleFit&category=outdoor&range=150&search=tent",
    // No results, with the one change that brings some back.
    "/?band=cycleFit&category=home+goods",
  ]) {
    test(`${path} has no violations`, async ({ page }) => {
      await page.goto(path);
      await new ShopPage(page).main.waitFor();
      await expectNoAxeViolations(page);
    });
  }

  test("the API reference reflows at 320 px: nothing scrolls sideways", async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto("/docs/api");
    await expect(page.getByRole("heading", { name: "PUT /user/api/create" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  });

  test.describe("error pages", () => {
    test.use({ allowedConsoleErrors: [/status of (404|400)/] });

    test("the 404 page has no violations", async ({ page }) => {
      await page.goto("/no-such-page");
      await expectNoAxeViolations(page);
    });

    test("the bad-filter page has no violations", async ({ page }) => {
      await page.goto("/?sort=sideways");
      await expectNoAxeViolations(page);
    });
  });

  test("the empty state has no violations", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto("search=zzzqqq");
    await expect(shop.main.getByRole("heading", { name: "No products match" })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("on a phone, with the menu open, there are no violations", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto("/");
    await page.getByRole("button", { name: "Menu" }).click();
    await expectNoAxeViolations(page);
  });

  test("a product's page has no violations", async ({ page }) => {
    await page.goto("/?category=outdoor");
    await new ShopPage(page).cards.first().getByRole("heading").getByRole("link").click();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("on a phone, with the filter sheet open, there are no violations", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const shop = new ShopPage(page);
    await shop.goto("band=artistry");
    await page.getByRole("button", { name: /^Filters/ }).click();
    await expect(shop.filters).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test.describe("with the catalogue out of reach", () => {
    test.use({ allowedConsoleErrors: [/Failed to load resource/] });

    test("the inline error has no violations", async ({ page }) => {
      const shop = new ShopPage(page);
      await shop.goto();
      await page.route(
        (url) => url.pathname.endsWith(".data"),
        (route) => route.fulfill({ status: 500, body: "" }),
      );
      await shop.brand.choose("campSafe");
      await expect(shop.main.getByRole("alert")).toBeVisible();
      await expectNoAxeViolations(page);
    });
  });

  test("control edges stand out from the page (3:1), the yellow price state included", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    const edges = {
      search: await cssColourAsRgb(shop.search, "border-top-color"),
      // Checkboxes are the browser's own (a grey edge of 4.5:1), ticked in the shop's indigo.
      "ticked brand": await cssColourAsRgb(shop.brand.option("teachPro"), "accent-color"),
      sort: await cssColourAsRgb(shop.sort, "border-top-color"),
    };
    await shop.price.fill("100");
    await expect(shop.priceValue).toHaveAttribute("data-tone", "yellow");
    const yellowThumb = await cssColourAsRgb(shop.price, "accent-color");
    for (const [control, colour] of Object.entries({ ...edges, "yellow slider": yellowThumb })) {
      expect(contrastWithWhite(colour), control).toBeGreaterThanOrEqual(3);
    }
  });

  test("product pictures do not zoom for a visitor who asked for reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.cards.first().hover();
    const picture = shop.cards.first().getByRole("img");
    await expect(picture).toHaveCSS("transform", "none");
    await expect(picture).toHaveCSS("transition-duration", "0s");
  });

  test("after a link to another page, focus is on that page's heading", async ({ page }) => {
    await page.goto("/");
    await new ShopPage(page).waitUntilIdle();
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "About", exact: true })
      .click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  });

  test("every filter control can be reached and used with the keyboard", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    // The panel's first control after its heading's Reset filters link.
    await shop.filters.getByRole("link", { name: "Reset filters" }).focus();
    await page.keyboard.press("Tab");
    await expect(shop.brand.option("teachPro")).toBeFocused();
    await page.keyboard.press("Space");
    await shop.expectQuery("band=teachPro");
    // Ticking keeps the shopper where they are.
    await expect(shop.brand.option("teachPro")).toBeFocused();
    for (let step = 0; step < 4; step += 1) await page.keyboard.press("Tab");
    await expect(shop.brand.option("campSafe")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(shop.category.option("electronics")).toBeFocused();
    // Then the other categories, each option's values (Colour, Size…: as many as the catalogue
    // has), and the price.
    const passed: string[] = [];
    for (let step = 0; step < 80; step += 1) {
      await page.keyboard.press("Tab");
      const name = await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name ?? "");
      if (name === "range") break;
      passed.push(name);
    }
    await expect(shop.price).toBeFocused();
    expect(passed).toContain("option");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect(shop.priceValue).toHaveText("Up to $10");
    await shop.expectQuery("band=teachPro&range=10");
  });
});
