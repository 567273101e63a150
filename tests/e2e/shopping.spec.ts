import type { Page } from "@playwright/test";
import {
  logIn,
  logOut,
  newUser,
  STRONG_PASSWORD,
  signUp,
  toasts,
  uniqueEmail,
  useOwnAddress,
} from "./support/accounts";
import { emailTo } from "./support/mailbox";
import { expectNoAxeViolations, gotoInteractive } from "./support/page-checks";
import { expect, test } from "./support/test";

/**
 * A shopper buys (issue 23): Add to cart from a card and from a product
 * page, quantities changed, the guest's cart joining the account's on login,
 * checkout with each payment method, the email, the order from its link, and
 * the account's list of orders — with JavaScript, and without it.
 */

const cartLink = (page: Page) =>
  page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Cart/ });

/** The first card whose product is in stock: its name. */
async function firstCardInStock(page: Page): Promise<string> {
  const button = page.getByRole("button", { name: /^Add to cart: / }).first();
  const label = (await button.getAttribute("aria-label")) ?? "";
  return label.replace(/^Add to cart: /, "");
}

/** The order's link in its confirmation email. */
function orderLinkIn(email: { text: string }): string {
  const link = email.text
    .match(/https?:\/\/\S+/g)
    ?.find((url) => new URL(url).pathname.startsWith("/orders/BL-"));
  if (!link) throw new Error("no order link in the confirmation email");
  return link;
}

async function fillCheckout(
  page: Page,
  { email, postalCode = "97204" }: { email?: string; postalCode?: string },
) {
  const form = page.getByRole("main");
  if (email !== undefined) await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Full name").fill("Ada Lovelace");
  await form.getByLabel("Address", { exact: true }).fill("218 Harbour Street");
  await form.getByLabel("City").fill("Portland");
  await form.getByLabel("Postal code").fill(postalCode);
  await form.getByLabel("Country").selectOption("US");
  await form.getByLabel("State").selectOption("US-OR");
}

/** The checkout's summary, and the total it shows ("$23.98"). */
const summaryOf = (page: Page) => page.getByRole("region", { name: "Your order" });
const totalShown = async (page: Page) =>
  (await summaryOf(page)
    .locator("dt", { hasText: /^Total$/ })
    .locator("xpath=following-sibling::dd")
    .textContent()) ?? "";

/** A guest's cart with the first card in stock, and its checkout open. */
async function checkoutWithOneProduct(page: Page) {
  await page.goto("/");
  const product = await firstCardInStock(page);
  // The count rises as soon as the add is sent (with JavaScript): the add's answer says the server
  // has it. Leaving before that would cancel the add and open an empty checkout.
  const added = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname.startsWith("/cart") && response.request().method() === "POST",
  );
  await page.getByRole("button", { name: `Add to cart: ${product}` }).click();
  await added;
  await expect(cartLink(page)).toHaveAccessibleName("Cart, 1 item");
  await page.goto("/checkout");
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  return product;
}

test.describe("buying with JavaScript", () => {
  // The checkout refused once on purpose (a bad postal code) answers 400.
  test.use({ allowedConsoleErrors: [/status of 400/] });

  test("cards and the buy box fill the cart, login merges it, checkout by bank transfer, the email's link opens the order", async ({
    page,
    context,
    baseURL,
  }) => {
    await useOwnAddress(context);
    const user = newUser(baseURL as string);
    await signUp(page, user);
    await expect(toasts(page).getByText(/Account created/)).toBeVisible();
    await logOut(page);

    // A guest adds one from a card: the count rises without leaving the page.
    await gotoInteractive(page, "/");
    const fromCard = await firstCardInStock(page);
    await page.getByRole("button", { name: `Add to cart: ${fromCard}` }).click();
    await expect(toasts(page).getByText(`${fromCard} is in your cart.`)).toBeVisible();
    await expect(cartLink(page)).toHaveAccessibleName("Cart, 1 item");
    await expect(page).toHaveURL("/");

    // …and two of another from its product page's buy box.
    await page.getByRole("link", { name: fromCard, exact: true }).first().waitFor();
    const other = page.getByRole("button", { name: /^Add to cart: / }).nth(1);
    const otherName = ((await other.getAttribute("aria-label")) ?? "").replace(/^Add to cart: /, "");
    await page.getByRole("heading", { name: otherName }).getByRole("link").click();
    await expect(page.getByRole("heading", { level: 1, name: otherName })).toBeVisible();
    const buyBox = page.getByRole("region", { name: "Buy" });
    await expect(buyBox.getByText(/In stock|Only \d left/)).toBeVisible();
    await buyBox.getByLabel("Quantity").selectOption("2");
    await buyBox.getByRole("button", { name: `Add to cart: ${otherName}` }).click();
    await expect(cartLink(page)).toHaveAccessibleName("Cart, 3 items");

    // Logging in keeps the guest's cart: it joins the account's.
    await page.goto("/login");
    await logIn(page, user.email, STRONG_PASSWORD);
    await expect(toasts(page).getByText(/Logged in/)).toBeVisible();
    await expect(cartLink(page)).toHaveAccessibleName("Cart, 3 items");

    // The cart: a quantity changed at once, a line removed.
    await cartLink(page).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your cart" })).toBeVisible();
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await expectNoAxeViolations(page);
    await page.getByLabel(`Quantity of ${otherName}`).selectOption("3");
    await expect(cartLink(page)).toHaveAccessibleName("Cart, 4 items");
    await page.getByRole("button", { name: `Remove ${fromCard}` }).click();
    await expect(page.getByRole("link", { name: fromCard })).toHaveCount(0);
    // Its button gone with it, the focus is on the remaining line, and the removal is announced.
    await expect(page.getByRole("link", { name: otherName })).toBeFocused();
    await expect(
      page.getByRole("status").filter({ hasText: `${fromCard} removed from your cart.` }),
    ).toBeAttached();
    await expect(cartLink(page)).toHaveAccessibleName("Cart, 3 items");

    // Checkout: the account's email is filled in; a bad postal code is named and focused.
    await page.getByRole("link", { name: "Checkout" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
    await expect(page.getByRole("main").getByLabel("Email", { exact: true })).toHaveValue(user.email);
    await expectNoAxeViolations(page);
    await fillCheckout(page, { postalCode: "ABCDE" });
    await page.getByRole("radio", { name: /Bank transfer/ }).check();
    await page.getByRole("button", { name: "Place order" }).click();
    await expect(page.getByLabel("Postal code")).toBeFocused();
    await expect(
      page.getByText("Enter a postal code as it is written in United States of America."),
    ).toBeVisible();
    await page.getByLabel("Postal code").fill("97204");
    await page.getByRole("button", { name: "Place order" }).click();

    await expect(page.getByRole("heading", { level: 1, name: /Thank you/ })).toBeVisible();
    const number = (
      await page
        .getByText(/BL-[0-9A-Z]{5}/)
        .first()
        .textContent()
    )?.match(/BL-[0-9A-Z]{5}/)?.[0];
    expect(number).toBeTruthy();
    await expect(page.getByText(/IBAN/).first()).toBeVisible();
    await expect(cartLink(page)).toHaveAccessibleName("Cart, 0 items");
    await expectNoAxeViolations(page);

    // The email carries the lines, the bank details and a link that opens the order, signed out too.
    const email = await emailTo(user.email, new RegExp(`order ${number}`));
    expect(email.text).toContain(otherName);
    expect(email.text).toMatch(/IBAN/);
    const anonymous = await page.context().browser()?.newContext();
    const stranger = await anonymous?.newPage();
    if (!stranger || !anonymous) throw new Error("no second browser context");
    await stranger.goto(orderLinkIn(email));
    await expect(stranger.getByRole("heading", { level: 1, name: /Thank you/ })).toBeVisible();
    await expectNoAxeViolations(stranger);
    await stranger.goto(`/orders/${number}`);
    await expect(stranger.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await anonymous.close();

    // The account lists it.
    await page.goto("/account/orders");
    await expect(page.getByRole("link", { name: number as string })).toBeVisible();
  });
});

test.describe("the checkout with JavaScript", () => {
  test("Place order names the amount it charges, following the shipping method; the State list follows the country", async ({
    page,
    context,
  }) => {
    await useOwnAddress(context);
    await checkoutWithOneProduct(page);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    const standard = await totalShown(page);
    await expect(page.getByRole("button", { name: `Place order · ${standard}` })).toBeVisible();
    // With JavaScript the summary follows the choice: no Update buttons.
    await expect(page.getByRole("button", { name: /Update/ })).toHaveCount(0);
    await page.getByRole("radio", { name: /Express/ }).check();
    await expect(summaryOf(page).getByText("Shipping (Express)")).toBeVisible();
    const express = await totalShown(page);
    expect(express).not.toBe(standard);
    await expect(page.getByRole("button", { name: `Place order · ${express}` })).toBeVisible();

    // The browser's country (en-US) comes with its states; another country's list replaces it at once.
    const form = page.getByRole("main");
    await expect(form.getByLabel("State")).toBeVisible();
    await form.getByLabel("Country").selectOption("CA");
    await expect(form.getByLabel("Province or territory")).toBeVisible();
    await expect(
      form.getByLabel("Province or territory").getByRole("option", { name: "Ontario" }),
    ).toHaveCount(1);
    await form.getByLabel("Country").selectOption("GB");
    await expect(form.getByLabel(/State|Province/)).toHaveCount(0);
    await form.getByLabel("Country").selectOption("US");
    await expectNoAxeViolations(page);
  });
});

test.describe("buying without JavaScript", () => {
  // The checkout refused once on purpose (a bad postal code) answers 400.
  test.use({ javaScriptEnabled: false, allowedConsoleErrors: [/status of 400/] });

  test("plain forms add from a card and a product page, change and remove lines, and a guest checks out paying on delivery", async ({
    page,
    context,
  }) => {
    await useOwnAddress(context);
    await page.goto("/");
    const fromCard = await firstCardInStock(page);
    const other = page.getByRole("button", { name: /^Add to cart: / }).nth(1);
    const otherName = ((await other.getAttribute("aria-label")) ?? "").replace(/^Add to cart: /, "");
    await page.getByRole("button", { name: `Add to cart: ${fromCard}` }).click();
    await expect(page).toHaveURL(/\/cart\?added=\d+$/);
    await expect(page.getByText(`${fromCard} is in your cart.`)).toBeVisible();
    await expect(cartLink(page)).toHaveAccessibleName("Cart, 1 item");

    // From a product page's buy box, with a quantity.
    await page.goto("/");
    await page.getByRole("heading", { name: otherName }).getByRole("link").click();
    const buyBox = page.getByRole("region", { name: "Buy" });
    await buyBox.getByLabel("Quantity").selectOption("2");
    await buyBox.getByRole("button", { name: `Add to cart: ${otherName}` }).click();
    await expect(page.getByText(`${otherName} is in your cart.`)).toBeVisible();
    await expect(cartLink(page)).toHaveAccessibleName("Cart, 3 items");

    await page.getByLabel(`Quantity of ${fromCard}`).selectOption("2");
    await page.getByRole("button", { name: "Update" }).first().click();
    await expect(cartLink(page)).toHaveAccessibleName("Cart, 4 items");
    await page.getByRole("button", { name: `Remove ${otherName}` }).click();
    await expect(page.getByRole("link", { name: otherName })).toHaveCount(0);
    await expect(cartLink(page)).toHaveAccessibleName("Cart, 2 items");

    // A bad field comes back named, and the page puts the focus on it.
    await page.getByRole("link", { name: "Checkout" }).click();
    const email = uniqueEmail("no-js-buyer");
    await fillCheckout(page, { email, postalCode: "ABCDE" });
    await page.getByRole("button", { name: "Place order" }).click();
    await expect(
      page.getByText("Enter a postal code as it is written in United States of America."),
    ).toBeVisible();
    await expect(page.getByLabel("Postal code")).toBeFocused();
    await page.getByLabel("Postal code").fill("97204");
    await page.getByRole("button", { name: "Place order" }).click();
    await expect(page.getByRole("heading", { level: 1, name: /Thank you/ })).toBeVisible();
    await expect(page.getByText(/Pay the courier/)).toBeVisible();

    const confirmation = await emailTo(email, /order BL-/);
    expect(confirmation.text).toContain(fromCard);
    await page.goto(orderLinkIn(confirmation));
    await expect(page.getByRole("heading", { level: 1, name: /Thank you/ })).toBeVisible();

    // An emptied cart says so and leads back to the shop.
    await page.goto("/cart");
    await expect(page.getByText("Your cart is empty.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Continue shopping" })).toHaveAttribute("href", "/");
  });
});

test.describe("the checkout's total without JavaScript", () => {
  // A total that changed is refused on purpose: 409.
  test.use({ javaScriptEnabled: false, allowedConsoleErrors: [/status of 409/] });

  test("Express chosen and placed at once orders nothing until the total it costs is confirmed", async ({
    page,
    context,
  }) => {
    await useOwnAddress(context);
    await checkoutWithOneProduct(page);
    const standard = await totalShown(page);
    await fillCheckout(page, { email: uniqueEmail("no-js-express") });
    await page.getByRole("radio", { name: /Express/ }).check();
    // The summary still says Standard: the page cannot know of the choice until it is sent.
    await page.getByRole("button", { name: `Place order · ${standard}` }).click();
    await expect(page.getByText(/The total changed.*nothing was ordered/)).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
    await expect(summaryOf(page).getByText("Shipping (Express)")).toBeVisible();
    const express = await totalShown(page);
    expect(express).not.toBe(standard);
    await expect(page.getByText(`Your order now comes to ${express}`)).toBeVisible();
    // What was typed is kept; the button names the new total, and sending it places the order at that total.
    await expect(page.getByLabel("City")).toHaveValue("Portland");
    await page.getByRole("button", { name: `Place order · ${express}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: /Thank you/ })).toBeVisible();
    await expect(page.getByText(express).first()).toBeVisible();
    await expect(page.getByText("Portland, Oregon 97204")).toBeVisible();
  });

  test("Update total shows the chosen method's total, and the country's Update its regions, keeping what was typed", async ({
    page,
    context,
  }) => {
    await useOwnAddress(context);
    await checkoutWithOneProduct(page);
    const form = page.getByRole("main");
    await form.getByLabel("Full name").fill("Ada Lovelace");
    await form.getByLabel("Address", { exact: true }).fill("1 Front Street West");
    await form.getByLabel("City").fill("Toronto");
    await form.getByLabel("Postal code").fill("M5J 2X2");
    await form.getByLabel("Country").selectOption("CA");
    await form.getByRole("button", { name: "Update for this country" }).click();
    await expect(form.getByLabel("Province or territory")).toBeFocused();
    await expect(form.getByLabel("City")).toHaveValue("Toronto");
    // Not a refusal: the fields left for later (the email, the province) are not called wrong.
    await expect(page.getByText(/is required|Enter a valid email|from the list/)).toHaveCount(0);
    await form.getByLabel("Email", { exact: true }).fill(uniqueEmail("no-js-update"));
    await form.getByLabel("Province or territory").selectOption("CA-ON");
    await page.getByRole("radio", { name: /Express/ }).check();
    await form.getByRole("button", { name: "Update total" }).click();
    await expect(summaryOf(page).getByText("Shipping (Express)")).toBeVisible();
    const express = await totalShown(page);
    await expect(page.getByRole("radio", { name: /Express/ })).toBeChecked();
    await expect(form.getByLabel("Province or territory")).toHaveValue("CA-ON");

    await page.getByRole("button", { name: `Place order · ${express}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: /Thank you/ })).toBeVisible();
    await expect(page.getByText("Toronto, Ontario M5J 2X2")).toBeVisible();
  });
});

test.describe("the cart and checkout on a phone", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("the shop, cart and checkout reflow at 320 px, signed out and in: nothing scrolls sideways", async ({
    page,
    context,
    baseURL,
  }) => {
    await useOwnAddress(context);
    await gotoInteractive(page, "/");
    await page
      .getByRole("button", { name: /^Add to cart: / })
      .first()
      .click();
    await expect(cartLink(page)).toHaveAccessibleName("Cart, 1 item");
    const scrollWidths = async () => {
      const widths: Record<string, number> = {};
      for (const path of ["/", "/cart", "/checkout"]) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        widths[path] = await page.evaluate(() => document.documentElement.scrollWidth);
      }
      return widths;
    };
    expect(await scrollWidths()).toEqual({ "/": 320, "/cart": 320, "/checkout": 320 });
    // Signed in, the navbar holds the account menu too.
    await signUp(page, newUser(baseURL as string));
    await expect(toasts(page).getByText(/Account created/)).toBeVisible();
    expect(await scrollWidths()).toEqual({ "/": 320, "/cart": 320, "/checkout": 320 });
  });
});
