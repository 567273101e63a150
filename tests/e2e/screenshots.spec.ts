import path from "node:path";
import { ShopPage } from "./support/shop-page";
import { expect, test } from "./support/test";

/**
 * Pictures of the shop page at phone and desktop widths, kept as artefacts in
 * test-results/screenshots/ (and attached to the report) for a person to look at.
 */
const SCREENSHOT_DIR = path.resolve("test-results/screenshots");

for (const { name, width, height } of [
  { name: "phone", width: 375, height: 812 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`screenshot of the shop page on a ${name} (${width} px)`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height });
    const shop = new ShopPage(page);
    await shop.goto();
    await expect(shop.cards).toHaveCount(5);
    // Lazy pictures load now rather than on scroll; then wait for every picture.
    await page.evaluate(() => {
      for (const image of document.querySelectorAll("img[loading=lazy]"))
        (image as HTMLImageElement).loading = "eager";
    });
    await expect
      .poll(() =>
        page.evaluate(() => [...document.images].every((image) => image.complete && image.naturalWidth > 0)),
      )
      .toBe(true);
    const file = path.join(SCREENSHOT_DIR, `shop-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`shop page at ${width} px`, { path: file, contentType: "image/png" });
  });
}
