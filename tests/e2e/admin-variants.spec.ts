import type { Page } from "@playwright/test";
import sharp from "sharp";
import { signInAsOwner } from "./support/back-office";
import { expectNoAxeViolations, gotoInteractive } from "./support/page-checks";
import { expect, test } from "./support/test";

/**
 * An owner sells a product in sizes and colours (issue 34): makes a new product, gives it options,
 * makes every combination at once, sets stock for the selected rows, and the shop shows it with
 * its options. The page passes axe and fits a 320 px phone, each variant a card of its fields.
 */

const picture = (background = "#1d4ed8") =>
  sharp({ create: { width: 120, height: 90, channels: 3, background } })
    .png()
    .toBuffer();

const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

// The price refused on purpose answers 400.
test.use({ allowedConsoleErrors: [/status of 400/] });

test("an owner makes a product in sizes and colours, and the shop sells each variant", async ({ page }) => {
  const name = `Test Tee ${Date.now().toString(36)}`;
  await signInAsOwner(page, "/admin/products/new");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Brand").selectOption({ index: 1 });
  await page.getByLabel("Category").selectOption({ index: 1 });
  await page.getByLabel("Price").fill("18.00");
  await page.getByLabel("Stock").fill("0");
  await page
    .getByLabel("Picture")
    .setInputFiles({ name: "tee.png", mimeType: "image/png", buffer: await picture() });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  await page.getByRole("link", { name: "Options and variants" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Options and variants: ${name}` })).toBeVisible();
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByLabel("Option 1 name").fill("Size");
  await page.getByLabel("Option 1 values").fill("S, M, L");
  await page.getByLabel("Option 2 name").fill("Colour");
  await page.getByLabel("Option 2 values").fill("Red #b91c1c, Blue #1d4ed8");
  await page.getByRole("button", { name: "Make every combination" }).click();
  await expect(page.getByText("Variants saved.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Variants (6)" })).toBeVisible();
  await expectNoAxeViolations(page);

  // Stock for two of them at once.
  await page.getByRole("checkbox", { name: "Select M / Blue" }).check();
  await page.getByRole("checkbox", { name: "Select L / Red" }).check();
  await page.getByLabel("Units to add").fill("4");
  await page.getByRole("button", { name: "Add stock" }).click();
  await expect(page.getByText("Variants saved.")).toBeVisible();
  await expect(page.getByLabel("Stock of M / Blue", { exact: true })).toHaveValue("4");
  await expect(page.getByLabel("Stock of S / Red", { exact: true })).toHaveValue("0");

  // M / Blue gets a picture of its own: the table shows it, and so will the shop.
  await page
    .getByLabel("Picture of M / Blue", { exact: true })
    .setInputFiles({ name: "blue.png", mimeType: "image/png", buffer: await picture("#1e3a8a") });
  await page.getByRole("button", { name: "Save variants" }).first().click();
  const blueRow = page.locator("tr", { has: page.getByLabel("Picture of M / Blue", { exact: true }) });
  await expect(blueRow.locator("img")).toHaveAttribute("src", /^\/pictures\/[0-9a-f]{20}-800\.webp$/);
  const bluePicture = ((await blueRow.locator("img").getAttribute("src")) ?? "").slice(10, 30);
  await expect(page.getByRole("checkbox", { name: "Remove picture of M / Blue" })).toBeVisible();

  // A bad price is named beside its field, and the focus goes there.
  await page.getByLabel("Price of S / Blue", { exact: true }).fill("cheap");
  await page.getByRole("button", { name: "Save variants" }).first().click();
  await expect(page.getByLabel("Price of S / Blue", { exact: true })).toBeFocused();
  await expect(page.getByText(/Enter the price in dollars/)).toBeVisible();

  // In the shop: a card that asks to choose, a page that shows M in blue (the first in stock), and
  // sells L in red once chosen.
  await page.goto(`/?search=${encodeURIComponent(name)}`);
  // The shop page's Size facet lists the new sizes, smallest first, each with the product.
  const sizes = page.getByRole("search", { name: "Product filters" }).getByRole("group", { name: "Size" });
  for (const size of ["S", "M", "L"]) {
    await expect(sizes.getByRole("checkbox", { name: `${size} 1 product`, exact: true })).toBeVisible();
  }
  const listed = await sizes.getByRole("listitem").allTextContents();
  expect(listed.slice(0, 3).map((text) => text.replace(/\d+( products?)?$/, "").trim())).toEqual([
    "S",
    "M",
    "L",
  ]);
  await page.getByRole("link", { name: `Choose options: ${name}` }).click();
  await expect(page.getByRole("radio", { name: "M", exact: true })).toBeChecked();
  await expect(page.locator(`main img[src*="${bluePicture}"]`).first()).toBeVisible();
  await page.getByRole("radio", { name: /^L/ }).check({ force: true });
  await expect(page).toHaveURL(/\?variant=\d+$/);
  await page.getByRole("radio", { name: /^Red/ }).check({ force: true });
  await expect(page.getByRole("radio", { name: "Red", exact: true })).toBeChecked();
  await expect(
    page.getByRole("region", { name: "Buy" }).getByRole("button", { name: /^Add to cart/ }),
  ).toBeVisible();
});

test("the options and variants page fits a 320 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 700 });
  const answer = await page.request.get("/all-products?search=running+shoes&size=1");
  const [shoes] = (await answer.json()) as { id: number }[];
  await signInAsOwner(page, `/admin/products/${shoes?.id}/variants`);
  await gotoInteractive(page, `/admin/products/${shoes?.id}/variants`);
  await expect(page.getByLabel("SKU of 40 / Blue")).toBeVisible();
  expect(await scrollsSideways(page)).toBe(false);
  await expectNoAxeViolations(page);
});
