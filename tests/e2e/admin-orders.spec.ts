import type { Browser, Page } from "@playwright/test";
import { uniqueEmail, useOwnAddress } from "./support/accounts";
import { OWNER_EMAIL, signInAsOwner } from "./support/back-office";
import { emailTo } from "./support/mailbox";
import { addToCartAnswered, expectNoAxeViolations, gotoInteractive } from "./support/page-checks";
import { expect, test } from "./support/test";

/**
 * The back office's orders and customers (issue 24): a guest buys, the
 * owner marks the order paid and shipped with a tracking number, and the
 * shopper's emails arrive; a cancelled order's stock is back on the
 * product's page; axe reports nothing on the lists and pages, and nothing
 * runs off a 390 px screen.
 */

/** A guest, in a browser of their own, buys `quantity` of `productName` (its page's buy box); the order's number. */
async function guestBuys(
  browser: Browser,
  {
    email,
    productPath,
    quantity,
    payment,
  }: { email: string; productPath: string; quantity: number; payment: RegExp },
): Promise<string> {
  const context = await browser.newContext();
  // biome-ignore lint/correctness/useHookAtTopLevel: a test helper named like a hook, not a React hook
  await useOwnAddress(context);
  const page = await context.newPage();
  await gotoInteractive(page, productPath);
  const buyBox = page.getByRole("region", { name: "Buy" });
  await buyBox.getByLabel("Quantity").selectOption(String(quantity));
  await addToCartAnswered(page, buyBox.getByRole("button", { name: /^Add to cart: / }));
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Cart/ }),
  ).toHaveAccessibleName(quantity === 1 ? "Cart, 1 item" : `Cart, ${quantity} items`);
  await gotoInteractive(page, "/cart");
  await expect(page.getByRole("heading", { level: 1, name: "Your cart" })).toBeVisible();
  await page.getByRole("link", { name: "Checkout" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  const form = page.getByRole("main");
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Full name").fill("Ada Lovelace");
  await form.getByLabel("Address", { exact: true }).fill("218 Harbour Street");
  await form.getByLabel("City").fill("Portland");
  await form.getByLabel("Postal code").fill("97204");
  await form.getByLabel("Country").selectOption("US");
  await form.getByLabel("State").selectOption("US-OR");
  await page.getByRole("radio", { name: payment }).check();
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Thank you/ })).toBeVisible();
  const number = (
    await page
      .getByText(/BL-[0-9A-Z]{5}/)
      .first()
      .textContent()
  )?.match(/BL-[0-9A-Z]{5}/)?.[0];
  await context.close();
  if (!number) throw new Error("no order number on the confirmation page");
  return number;
}

/** The path of the first product on the shop's first page whose card says only a few are left, and how many. */
async function productWithFewLeft(page: Page): Promise<{ path: string; left: number }> {
  for (const listing of ["/", "/?page=2", "/?page=3"]) {
    await page.goto(listing);
    const card = page
      .getByRole("article")
      .filter({ hasText: /Only \d left/ })
      .first();
    if ((await card.count()) === 0) continue;
    const left = Number(
      (
        await card
          .getByText(/Only \d left/)
          .first()
          .textContent()
      )?.match(/\d/)?.[0],
    );
    const href = await card.getByRole("heading").getByRole("link").getAttribute("href");
    if (href) return { path: href, left };
  }
  throw new Error("no product with only a few left on the shop's first pages");
}

/** Nothing wider than the screen: the page does not scroll sideways. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 0,
  );
}

test("a guest's bank transfer is marked paid, then shipped with a tracking number, and the guest's emails arrive", async ({
  page,
  browser,
}) => {
  // A shopper's whole checkout and the owner's sign-in, on a machine the suite shares: longer than one page's test.
  test.setTimeout(150_000);
  const shopper = uniqueEmail("admin-orders");
  await page.goto("/");
  const productPath = await page
    .getByRole("article")
    .first()
    .getByRole("heading")
    .getByRole("link")
    .getAttribute("href");
  const number = await guestBuys(browser, {
    email: shopper,
    productPath: productPath ?? "/",
    quantity: 1,
    payment: /Bank transfer/,
  });

  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsOwner(page, "/admin/orders");
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  await page.getByLabel("Search orders").fill(shopper);
  await page.getByRole("button", { name: "Show orders" }).click();
  await expect(page.getByRole("status").filter({ hasText: "1 order match these filters." })).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);

  await page.getByRole("link", { name: number }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Order ${number}` })).toBeVisible();
  await expect(page.getByText(/^Placed \w{3} \d{1,2}, \d{4}, .* UTC$/)).toBeVisible();
  await expect(page.getByText(shopper)).toBeVisible();
  await expect(page.getByText("Portland, Oregon 97204")).toBeVisible();
  await expect(page.getByText("Bank transfer")).toBeVisible();
  // A transfer not yet paid cannot be shipped: the page does not offer it.
  await expect(page.getByRole("button", { name: "Mark shipped" })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);

  await page.getByRole("button", { name: "Mark paid" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Marked paid. The customer was sent an email." }),
  ).toBeVisible();
  await page.getByLabel("Tracking number (optional)").fill("1Z999AA10123456784");
  await page.getByRole("button", { name: "Mark shipped" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Marked shipped." })).toBeVisible();
  const timeline = page.getByRole("region", { name: "Timeline" });
  await expect(timeline.getByRole("listitem")).toHaveText([
    /^Placed by Ada Lovelace \(guest\)/,
    /^Marked paid by Olive Owner/,
    /^Marked shipped by Olive Owner.*Tracking number 1Z999AA10123456784/,
  ]);
  await expect(page.getByText("Nothing more to do: this order is shipped.")).toBeVisible();
  await expectNoAxeViolations(page);

  const paid = await emailTo(shopper, new RegExp(`order ${number} is paid`));
  expect(paid.text).toContain(`We have your payment of`);
  const shipped = await emailTo(shopper, new RegExp(`order ${number} is on its way`));
  expect(shipped.text).toContain("The carrier's tracking number is 1Z999AA10123456784.");
  expect(shipped.text).toMatch(new RegExp(`/orders/${number}\\?token=`));
});

test.describe("cancelling", () => {
  // The refusal of a page out of date answers 409 on purpose.
  test.use({ allowedConsoleErrors: [/status of 409/] });

  test("a cancelled order's units are back on the product's page, and a second cancel from a stale page is refused", async ({
    page,
    browser,
  }) => {
    // A shopper's whole checkout and the owner's sign-in, on a machine the suite shares: longer than one page's test.
    test.setTimeout(150_000);
    const { path, left } = await productWithFewLeft(page);
    const shopper = uniqueEmail("admin-cancel");
    const number = await guestBuys(browser, {
      email: shopper,
      productPath: path,
      quantity: left,
      payment: /Pay on delivery/,
    });
    // The shop's stock words may be a few seconds old (the catalogue's cache): looked at until they change.
    await expect(async () => {
      await page.goto(path);
      await expect(page.getByRole("region", { name: "Buy" }).getByText("Sold out")).toBeVisible({
        timeout: 1_000,
      });
    }).toPass({ timeout: 30_000 });

    await signInAsOwner(page, `/admin/orders/${number}`);
    await expect(page.getByRole("heading", { level: 1, name: `Order ${number}` })).toBeVisible();
    // The same page in a second tab, and in a browser without JavaScript: both out of date once the first cancels.
    const stale = await page.context().newPage();
    await gotoInteractive(stale, `/admin/orders/${number}`);
    const plain = await browser.newContext({
      storageState: await page.context().storageState(),
      javaScriptEnabled: false,
    });
    await useOwnAddress(plain);
    const plainPage = await plain.newPage();
    await plainPage.goto(`/admin/orders/${number}`);

    await page.getByRole("button", { name: "Cancel order" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Cancelled, and its stock put back." }),
    ).toBeVisible();
    await stale.getByRole("button", { name: "Cancel order" }).click();
    const refusal = stale
      .getByRole("alert")
      .filter({ hasText: /^This order was cancelled by Olive Owner on .*nothing was changed/ });
    await expect(refusal).toBeVisible();
    await expect(refusal).toBeFocused();
    await expectNoAxeViolations(stale);
    await stale.close();

    // Without JavaScript the refusal is the page the POST answers, its message focused, the order as it is now.
    await plainPage.getByLabel("Tracking number (optional)").fill("LATE-1");
    await plainPage.getByRole("button", { name: "Mark shipped" }).click();
    await expect(plainPage.getByRole("alert")).toContainText("This order was cancelled by Olive Owner on ");
    await expect(plainPage.getByRole("alert")).toBeFocused();
    await expect(plainPage.getByText("Nothing more to do: this order is cancelled.")).toBeVisible();
    await plain.close();

    await expect(async () => {
      await page.goto(path);
      await expect(
        page.getByRole("region", { name: "Buy" }).getByText(left === 1 ? "Only 1 left" : `Only ${left} left`),
      ).toBeVisible({
        timeout: 1_000,
      });
    }).toPass({ timeout: 30_000 });
    const cancelled = await emailTo(shopper, new RegExp(`order ${number} is cancelled`));
    expect(cancelled.text).toContain(`We have cancelled your order ${number}.`);
  });
});

test("the customers' list and a customer's page are clean for axe and fit a 390 px screen", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsOwner(page, "/admin/customers");
  await expect(page.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();
  await page.getByLabel("Search customers").fill(OWNER_EMAIL);
  await page.getByRole("main").getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("status").filter({ hasText: "1 customer matches this search." })).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);
  await page.getByRole("link", { name: "Olive Owner" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Olive Owner" })).toBeVisible();
  await expect(page.getByText("No orders yet.")).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);
});
