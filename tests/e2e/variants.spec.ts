import type { Page } from "@playwright/test";
import { uniqueEmail, useOwnAddress } from "./support/accounts";
import { emailTo } from "./support/mailbox";
import { expectNoAxeViolations, gotoInteractive } from "./support/page-checks";
import { expect, test } from "./support/test";

/**
 * A product in sizes and colours (issue 34): the demo's running shoes, Size × Colour, one
 * combination sold out and one not made. The shopper picks each option on the product page, sees
 * the price and stock follow the variant and the address name it, adds two variants, and checks
 * out — with JavaScript, and without it (the option form is a plain GET).
 */

const cartLink = (page: Page) =>
  page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Cart/ });

/** The demo's running shoes: their page's address. */
async function shoesPage(page: Page): Promise<string> {
  const answer = await page.request.get("/all-products?search=running+shoes&size=1");
  const [shoes] = (await answer.json()) as { id: number; name: string; variantCount: number }[];
  expect(shoes?.name).toBe("CycleFit Running Shoes");
  expect(shoes?.variantCount).toBe(8);
  return `/products/${shoes?.id}-cyclefit-running-shoes`;
}

/** Chooses `value` in the option group `option`; without JavaScript, "Show this choice" sends it. */
async function choose(page: Page, option: string, value: string | RegExp, javaScript: boolean) {
  const group = page.getByRole("group", { name: new RegExp(`^${option}`) });
  const before = page.url();
  await group.getByRole("radio", { name: value }).check({ force: true });
  if (!javaScript) await page.getByRole("button", { name: "Show this choice" }).click();
  else await expect.poll(() => page.url()).not.toBe(before);
}

async function buyTwoVariants(page: Page, javaScript: boolean) {
  const address = await shoesPage(page);
  if (javaScript) await gotoInteractive(page, address);
  else await page.goto(address);
  const buyBox = page.getByRole("region", { name: "Buy" });
  await expect(page.getByRole("group", { name: /^Size/ })).toBeVisible();
  // axe runs in the page: with JavaScript (the page without it is the same markup).
  if (javaScript) await expectNoAxeViolations(page);

  // 41 in blue is sold out: said in words on the value, and no Add to cart.
  await choose(page, "Size", "41", javaScript);
  await choose(page, "Colour", /^Blue/, javaScript);
  await expect(page).toHaveURL(/\?variant=\d+$/);
  await expect(page.getByRole("radio", { name: /Blue \(sold out\)/ })).toBeChecked();
  await expect(buyBox.getByText("Sold out")).toBeVisible();
  await expect(buyBox.getByRole("button", { name: /^Add to cart/ })).toHaveCount(0);
  // 43 was never made in blue.
  await expect(page.getByRole("radio", { name: /43 \(not made\)/ })).toBeVisible();

  await choose(page, "Size", "40", javaScript);
  await expect(page.getByRole("group", { name: /^Colour/ })).toContainText("Colour: Blue");
  await expect(buyBox.getByText(/In stock|Only \d+ left/)).toBeVisible();
  await expect(page.getByText("$74.99").first()).toBeVisible();
  const blue = page.url();
  await buyBox.getByRole("button", { name: /^Add to cart/ }).click();
  if (!javaScript) await expect(page).toHaveURL(/\/cart\?added=\d+$/);
  await expect(cartLink(page)).toHaveAccessibleName("Cart, 1 item");

  await page.goto(blue);
  await choose(page, "Size", "42", javaScript);
  await choose(page, "Colour", /^Black/, javaScript);
  await expect(buyBox.getByText(/In stock|Only \d+ left/)).toBeVisible();
  await buyBox.getByRole("button", { name: /^Add to cart/ }).click();
  await expect(cartLink(page)).toHaveAccessibleName("Cart, 2 items");

  // Two lines of one product, each saying its options.
  await page.goto("/cart");
  const items = page.getByRole("region", { name: "Items" });
  await expect(items.getByText("Size 40 · Colour Blue", { exact: true })).toBeVisible();
  await expect(items.getByText("Size 42 · Colour Black", { exact: true })).toBeVisible();
  await expect(items.getByRole("link", { name: "CycleFit Running Shoes" })).toHaveCount(2);
}

async function checkOut(page: Page, email: string) {
  await page.getByRole("link", { name: "Checkout" }).click();
  const form = page.getByRole("main");
  await expect(page.getByRole("region", { name: "Your order" })).toContainText("Size 40 · Colour Blue");
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Full name").fill("Ada Lovelace");
  await form.getByLabel("Address", { exact: true }).fill("218 Harbour Street");
  await form.getByLabel("City").fill("Portland");
  await form.getByLabel("Postal code").fill("97204");
  await form.getByLabel("Country").selectOption("US");
  await form.getByLabel("State").selectOption("US-OR");
  await page.getByRole("button", { name: /^Place order/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Thank you/ })).toBeVisible();
  await expect(page.getByText("Size 42 · Colour Black", { exact: true })).toBeVisible();
  const confirmation = await emailTo(email, /order BL-/);
  expect(confirmation.text).toContain("1 × CycleFit Running Shoes (Size 40 · Colour Blue)");
}

/** The shop page's filter panel: ticks Size 41 and Colour Blue, and only the running shoes stay. */
async function filterBySizeAndColour(page: Page, javaScript: boolean) {
  const filters = page.getByRole("search", { name: "Product filters" });
  const sizes = filters.getByRole("group", { name: "Size" });
  await expect(sizes.getByRole("checkbox", { name: /^41\b/ })).toBeVisible();
  await sizes.getByRole("checkbox", { name: /^41\b/ }).check();
  if (!javaScript) await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]option=Size%3A41(&|$)/);
  // Colour's counts follow the size chosen: size 41 is made in black and blue, nothing else.
  const colours = filters.getByRole("group", { name: "Colour" });
  await expect(colours.getByRole("checkbox", { name: /^Blue 1 product$/ })).toBeVisible();
  await colours.getByRole("checkbox", { name: /^Blue\b/ }).check();
  if (!javaScript) await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/option=Colour%3ABlue&option=Size%3A41/);
  await expect(page.getByText("Showing 1 of 1 product")).toBeVisible();
  await expect(page.getByRole("link", { name: "Choose options: CycleFit Running Shoes" })).toBeVisible();
  // Each value chosen is a chip that takes it away.
  await page.getByRole("link", { name: /^Size: 41\s*, remove$/ }).click();
  await expect(page).toHaveURL(/\?option=Colour%3ABlue(#results)?$/);
}

test.describe("a product in sizes and colours, with JavaScript", () => {
  test("picks Size and Colour, sees the variant's stock, adds two variants and checks out", async ({
    page,
    context,
  }) => {
    await useOwnAddress(context);
    await buyTwoVariants(page, true);
    await checkOut(page, uniqueEmail("variant-buyer"));
  });

  test("the shop page filters by Size and Colour, each value with its count", async ({ page }) => {
    await gotoInteractive(page, "/");
    await filterBySizeAndColour(page, true);
    await expectNoAxeViolations(page);
  });
});

test.describe("a product in sizes and colours, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the option form renders each choice, and two variants are bought", async ({ page, context }) => {
    await useOwnAddress(context);
    await buyTwoVariants(page, false);
    await checkOut(page, uniqueEmail("variant-buyer-no-js"));
  });

  test("the shop page filters by Size and Colour with Apply filters", async ({ page }) => {
    await page.goto("/");
    await filterBySizeAndColour(page, false);
  });
});

test.describe("a product in sizes and colours on a phone", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("its options reflow at 320 px, and its card asks to choose options", async ({ page }) => {
    await gotoInteractive(page, await shoesPage(page));
    await expect(page.getByRole("group", { name: /^Size/ })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page);
    await gotoInteractive(page, "/?search=running+shoes");
    const choose = page.getByRole("link", { name: "Choose options: CycleFit Running Shoes" });
    await choose.click();
    await expect(page.getByRole("heading", { level: 1, name: "CycleFit Running Shoes" })).toBeVisible();
  });
});
