import type { Page } from "@playwright/test";
import { uniqueEmail, useOwnAddress } from "./support/accounts";
import { signInAsOwner } from "./support/back-office";
import { emailTo } from "./support/mailbox";
import { expectNoAxeViolations, gotoInteractive } from "./support/page-checks";
import { expect, test } from "./support/test";

/**
 * Paying by card (issue 25, docs/decisions/0032): checkout sends the shopper
 * to Stripe's page — here the shop's own stand-in (DEMO_PAYMENT_PROVIDER=1,
 * as the README's demo runs) — and back; the order is paid only once the
 * stand-in's signed webhook has reached the shop, and its email says "Paid
 * by card". Leaving Stripe's page and paying again lands on the same
 * payment; without JavaScript every step is a plain form; the owner
 * refunds a paid card order from the back office.
 */

const STAND_IN = /\/demo-payment-provider\/checkout\/cs_test_\w+$/;

/** The first product in stock from the shop's first page, one of it in the cart: its name. */
async function oneInCart(page: Page, javaScript = true): Promise<string> {
  if (javaScript) await gotoInteractive(page, "/");
  else await page.goto("/");
  const button = page.getByRole("button", { name: /^Add to cart: / }).first();
  const name = ((await button.getAttribute("aria-label")) ?? "").replace(/^Add to cart: /, "");
  await button.click();
  await expect(page.getByText(`${name} is in your cart.`).first()).toBeVisible();
  return name;
}

/** Checkout by card as a guest: the shopper lands on the stand-in's page. */
async function checkOutByCard(page: Page, email: string, javaScript = true) {
  if (javaScript) await gotoInteractive(page, "/checkout");
  else await page.goto("/checkout");
  const form = page.getByRole("main");
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Full name").fill("Cara Card");
  await form.getByLabel("Address", { exact: true }).fill("218 Harbour Street");
  await form.getByLabel("City").fill("Portland");
  await form.getByLabel("Postal code").fill("97204");
  await form.getByLabel("Country").selectOption("US");
  await form.getByLabel("State").selectOption("US-OR");
  await page.getByRole("radio", { name: /^Card/ }).check();
  const place = page.getByRole("button", {
    name: javaScript ? "Place order and pay by card" : "Place order",
  });
  if (javaScript) await expectNoAxeViolations(page);
  await place.click();
  await expect(page).toHaveURL(STAND_IN);
  await expect(page.getByRole("heading", { level: 1, name: "Stand-in for Stripe Checkout" })).toBeVisible();
  await expect(page.getByText(/stands in for Stripe's payment page/)).toBeVisible();
}

const orderNumberOf = (page: Page) => new URL(page.url()).pathname.replace("/orders/", "");

test.describe("paying by card", () => {
  test("a guest pays on Stripe's page and comes back to an order paid by card; the email says so", async ({
    page,
    context,
  }) => {
    await useOwnAddress(context);
    const email = uniqueEmail("card-payer");
    const product = await oneInCart(page);
    await checkOutByCard(page, email);
    await expectNoAxeViolations(page);
    await expect(page.getByRole("cell", { name: product })).toBeVisible();
    await page.getByRole("button", { name: /^Pay \$[\d.]+$/ }).click();

    await expect(page).toHaveURL(/\/orders\/BL-\w{5}\?token=[\w-]+&payment=returned$/);
    const number = orderNumberOf(page);
    // Paid once the shop has Stripe's word: at once, or after the page has looked again by itself.
    await expect(page.getByRole("region", { name: "Payment" }).getByText(/^Paid by card on /)).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank you for your order");
    await expectNoAxeViolations(page);

    const confirmation = await emailTo(email, new RegExp(`order ${number}: paid by card`));
    expect(confirmation.text).toContain("Paid by card");
    expect(confirmation.text).toContain(product);
  });

  test("a shopper who leaves Stripe's page pays again on the same payment, at 320 px", async ({
    page,
    context,
  }) => {
    await useOwnAddress(context);
    await oneInCart(page);
    await checkOutByCard(page, uniqueEmail("card-again"));
    const firstPage = page.url();
    await page.setViewportSize({ width: 320, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.getByRole("button", { name: "Cancel and go back to the shop" }).click();

    await expect(page).toHaveURL(/\/orders\/BL-\w{5}\?token=[\w-]+&payment=cancelled$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your order is waiting for payment");
    await expect(page.getByText("You left Stripe's page without paying.", { exact: false })).toBeVisible();
    await expect(page.getByText(/An unpaid order is cancelled at/)).toBeVisible();
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: /^Pay \$[\d.]+ by card again$/ }).click();
    await expect(page).toHaveURL(firstPage);
    await page.getByRole("button", { name: /^Pay \$[\d.]+$/ }).click();
    await expect(page.getByRole("region", { name: "Payment" }).getByText(/^Paid by card on /)).toBeVisible({
      timeout: 15_000,
    });
  });

  test("the owner refunds a paid card order in full from its page: cancelled, the shopper emailed", async ({
    page,
    context,
  }) => {
    // A journey of two people (a guest who pays, then the owner): longer than most on a loaded CI.
    test.setTimeout(120_000);
    await useOwnAddress(context);
    const email = uniqueEmail("card-refund");
    await oneInCart(page);
    await checkOutByCard(page, email);
    await page.getByRole("button", { name: /^Pay \$[\d.]+$/ }).click();
    const number = orderNumberOf(page);
    await expect(page.getByRole("region", { name: "Payment" }).getByText(/^Paid by card on /)).toBeVisible({
      timeout: 15_000,
    });

    await signInAsOwner(page, `/admin/orders/${number}`);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    const payments = page.getByRole("region", { name: "Card payments (Stripe)" });
    await expect(payments.getByRole("cell", { name: /Session cs_test_\w+.*Payment pi_\w+/ })).toBeVisible();
    await expectNoAxeViolations(page);
    await payments.getByText(/^Refund \$[\d.]+ \(attempt 1\) to the card/).click();
    await payments.getByRole("button", { name: /^Refund \$[\d.]+ through Stripe$/ }).click();
    await expect(page.getByText("Refunded through Stripe. The customer was sent an email.")).toBeVisible();
    await expect(payments.getByRole("cell", { name: /Refund re_\w+/ })).toBeVisible();
    await expect(page.getByRole("region", { name: "Timeline" })).toContainText(
      "Cancelled to refund its card payment",
    );
    await expectNoAxeViolations(page);
    await emailTo(email, new RegExp(`order ${number}: refunded`));
  });
});

test.describe("paying by card without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("plain forms all the way: checkout, Stripe's page, Pay, and the order paid by card", async ({
    page,
    context,
  }) => {
    await useOwnAddress(context);
    await oneInCart(page, false);
    await checkOutByCard(page, uniqueEmail("card-no-js"), false);
    await page.getByRole("button", { name: /^Pay \$[\d.]+$/ }).click();
    await expect(page).toHaveURL(/\/orders\/BL-\w{5}\?token=[\w-]+&payment=returned$/);
    // Without JavaScript the page does not look again by itself: its "Check again" link does.
    await expect(async () => {
      const checkAgain = page.getByRole("link", { name: "Check again" });
      if (await checkAgain.isVisible()) await checkAgain.click();
      await expect(page.getByRole("region", { name: "Payment" }).getByText(/^Paid by card on /)).toBeVisible({
        timeout: 1_000,
      });
    }).toPass({ timeout: 15_000 });
  });
});
