import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { newUser, signUp, toasts, useOwnAddress } from "./support/accounts";
import { signInAsOwner } from "./support/back-office";
import { expectNoAxeViolations, gotoInteractive } from "./support/page-checks";
import { expect, test } from "./support/test";

/**
 * Reviews from verified buyers (issue 26, docs/decisions/0033): a shopper
 * buys, the owner ships the order from the back office, the shopper reviews
 * the product, its card's rating changes in the shop, then the review is
 * edited and deleted — with JavaScript and without. The product reviewed is
 * the lowest rated one in stock, and it stays the lowest while reviewed, so
 * the shop's first pages, which other journeys read at the same time, do not
 * move.
 */

interface ListedProduct {
  id: number;
  name: string;
  ratings: number;
  ratingCount: number;
  stock: number;
}

/** The lowest rated product with reviews and units to sell. */
async function lowestRated(request: APIRequestContext, javaScript: boolean): Promise<ListedProduct> {
  const products = (await (
    await request.get("/all-products?sort=rating&size=100")
  ).json()) as ListedProduct[];
  // The two journeys run at once: each reviews a product of its own (even ids with JavaScript, odd
  // without), or one's review would count in the other's card.
  const found = products
    .filter(
      (product) => product.ratingCount > 0 && product.stock > 2 && product.id % 2 === (javaScript ? 0 : 1),
    )
    .at(-1);
  if (!found) throw new Error("no reviewed product in stock");
  return found;
}

/** What the shop's card of the product says of its rating (the search finds the card). */
async function cardRating(page: Page, product: ListedProduct): Promise<string> {
  await page.goto(`/?search=${encodeURIComponent(product.name)}`);
  const card = page
    .getByRole("article")
    .filter({ has: page.getByRole("heading", { name: product.name, exact: true }) });
  return (await card.getByText(/^Rated .* out of 5 from \d+ reviews?$|^No reviews yet$/).textContent()) ?? "";
}

/** The shopper buys one of the product, paying on delivery; the order's number. */
async function buyOne(page: Page, product: ListedProduct, javaScript: boolean): Promise<string> {
  if (javaScript) await gotoInteractive(page, `/products/${product.id}`);
  else await page.goto(`/products/${product.id}`);
  const added = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname.startsWith("/cart") && response.request().method() === "POST",
  );
  await page
    .getByRole("region", { name: "Buy" })
    .getByRole("button", { name: /^Add to cart: / })
    .click();
  expect((await added).status()).toBeLessThan(400);
  await page.goto("/checkout");
  const form = page.getByRole("main");
  await form.getByLabel("Full name").fill("Rita Reviewer");
  await form.getByLabel("Address", { exact: true }).fill("218 Harbour Street");
  await form.getByLabel("City").fill("Portland");
  await form.getByLabel("Postal code").fill("97204");
  await form.getByLabel("Country").selectOption("US");
  await form.getByLabel("State").selectOption("US-OR");
  await page.getByRole("radio", { name: /Pay on delivery/ }).check();
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Thank you/ })).toBeVisible();
  return new URL(page.url()).pathname.replace("/orders/", "");
}

/** The owner ships the order from the back office, in a browser of their own. */
async function ownerShips(browser: Browser, number: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAsOwner(page, `/admin/orders/${number}`);
  await page.getByRole("button", { name: "Mark shipped" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Marked shipped." })).toBeVisible();
  await context.close();
}

for (const javaScript of [true, false]) {
  test.describe(javaScript ? "reviewing with JavaScript" : "reviewing without JavaScript", () => {
    // The refusal on purpose (no stars) answers 400.
    test.use({ javaScriptEnabled: javaScript, allowedConsoleErrors: [/status of 400/] });

    test("buy, shipped by the owner, review; the card's rating follows; edit; delete", async ({
      page,
      context,
      browser,
      request,
      baseURL,
    }) => {
      // Two people's journeys in one test (a shopper and the owner), on a machine the suite shares.
      test.setTimeout(180_000);
      await useOwnAddress(context);
      const title = `Broke twice ${Date.now().toString(36)}`;
      const product = await lowestRated(request, javaScript);
      const before = await cardRating(page, product);
      expect(before).toBe(`Rated ${product.ratings.toFixed(1)} out of 5 from ${product.ratingCount} reviews`);

      await signUp(page, newUser(baseURL as string, { name: javaScript ? "Rita Reviewer" : "Nora Nojs" }));
      if (javaScript) await expect(toasts(page).getByText(/Account created/)).toBeVisible();
      else await expect(page).not.toHaveURL(/sign-up/);

      // Bought, not shipped yet: the page says why there is no form.
      const number = await buyOne(page, product, javaScript);
      await page.goto(`/products/${product.id}#reviews`);
      const reviews = page.getByRole("region", { name: "Reviews" });
      await expect(
        reviews.getByText("You can review this product once your order of it has been shipped."),
      ).toBeVisible();

      await ownerShips(browser, number);
      if (javaScript) await gotoInteractive(page, `/products/${product.id}#reviews`);
      else await page.goto(`/products/${product.id}#reviews`);
      await expect(reviews.getByRole("heading", { name: "Write a review" })).toBeVisible();
      if (javaScript) await expectNoAxeViolations(page);

      // A refusal first: no stars chosen. The message is named and the stars get the focus.
      await reviews.getByLabel("Title (optional, up to 120 characters)").fill(title);
      await reviews.getByRole("button", { name: "Post review" }).click();
      await expect(reviews.getByText("Choose from 1 to 5 stars.")).toBeVisible();
      await expect(reviews.getByRole("radio", { name: "1 star" })).toBeFocused();

      // The stars are a radio group: the keyboard moves along them.
      await reviews.getByRole("radio", { name: "1 star" }).check();
      if (javaScript) {
        await reviews.getByRole("radio", { name: "1 star" }).press("ArrowRight");
        await expect(reviews.getByRole("radio", { name: "2 stars" })).toBeChecked();
        await reviews.getByRole("radio", { name: "2 stars" }).press("ArrowLeft");
      }
      await expect(reviews.getByRole("radio", { name: "1 star" })).toBeChecked();
      await reviews
        .getByLabel("Your review (optional)")
        .fill("It broke <b>twice</b>. See https://example.com");
      await reviews.getByRole("button", { name: "Post review" }).click();
      await expect(page.getByText("Thank you: your review is posted.")).toBeVisible();
      const mine = reviews.getByRole("article", { name: title });
      await expect(mine).toContainText("Verified buyer");
      // Shown as the text it is: no markup, no link.
      await expect(mine).toContainText("It broke <b>twice</b>. See https://example.com");
      await expect(mine.getByRole("link")).toHaveCount(0);
      if (javaScript) await expectNoAxeViolations(page);

      const count = product.ratingCount + 1;
      const withOne = await cardRating(page, product);
      expect(withOne).toMatch(new RegExp(`^Rated \\d\\.\\d out of 5 from ${count} reviews$`));
      expect(withOne).not.toBe(before);

      // Edited: two stars. The card follows.
      await page.goto(`/products/${product.id}#reviews`);
      await reviews.getByRole("radio", { name: "2 stars" }).check();
      await reviews.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByText("Your review is saved.")).toBeVisible();
      await expect(reviews.getByRole("article", { name: title })).toContainText("2 out of 5 stars");
      expect(await cardRating(page, product)).toMatch(new RegExp(`from ${count} reviews$`));

      // Deleted: the card is as it was.
      await page.goto(`/products/${product.id}#reviews`);
      await reviews.getByRole("button", { name: "Delete my review" }).click();
      await expect(page.getByText("Your review is deleted.")).toBeVisible();
      await expect(reviews.getByRole("article", { name: title })).toHaveCount(0);
      expect(await cardRating(page, product)).toBe(before);
    });
  });
}

test("the back office's reviews pass axe and fit a 390 px phone", async ({ page }) => {
  await signInAsOwner(page, "/admin/reviews");
  await page.setViewportSize({ width: 390, height: 844 });
  await gotoInteractive(page, "/admin/reviews");
  await expect(page.getByRole("heading", { level: 1, name: "Reviews" })).toBeVisible();
  // On a phone the sections are behind the back office's Menu button.
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(
    page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Reviews" }),
  ).toHaveAttribute("aria-current", "page");
  await page.keyboard.press("Escape");
  // The demo's reviews, newest first, each with its Hide form and the reason it asks for.
  await expect(page.getByLabel("Why hide it (kept in the activity log)").first()).toBeVisible();
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByRole("link", { name: "Hidden", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/reviews\?show=hidden$/);
  await expectNoAxeViolations(page);
});
