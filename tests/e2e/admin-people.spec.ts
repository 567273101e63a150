import { newUser, STRONG_PASSWORD, signUp, useOwnAddress } from "./support/accounts";
import { OWNER_EMAIL, signInAsOwner } from "./support/back-office";
import { expectNoAxeViolations, gotoInteractive } from "./support/page-checks";
import { expect, test } from "./support/test";

/**
 * The back office's people, settings and activity, as an owner and as staff
 * use them: the owner makes a shopper staff, staff enter the back office but
 * not its people or settings, a shopper gets the shop's 404, and a setting
 * the owner saves is what the shop shows.
 */

// The door's own answers (a shopper's 404, staff's 403, a refused password's 403) are expected here.
test.use({ allowedConsoleErrors: [/status of (403|404)/] });

test("an owner makes a shopper staff; staff enter the back office but not people or settings", async ({
  browser,
  page,
  baseURL,
}) => {
  const helperContext = await browser.newContext();
  await useOwnAddress(helperContext);
  const helperPage = await helperContext.newPage();
  const helper = newUser(baseURL as string, { name: "Sam Staff" });
  await signUp(helperPage, helper);
  await expect(helperPage.getByRole("button", { name: "Account menu" })).toBeVisible();

  // Before: a shopper, for whom the back office does not exist.
  await helperPage.goto("/admin");
  await expect(helperPage.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();

  await signInAsOwner(page, "/admin/people");
  await gotoInteractive(page, "/admin/people");
  await expectNoAxeViolations(page);
  await page.getByLabel("Email of the account").fill(helper.email);
  await page.getByLabel("Role", { exact: true }).selectOption("staff");
  // A role is a sensitive change: without the owner's password it is refused, next to the field.
  await page.getByRole("button", { name: "Save role" }).click();
  const password = page.getByLabel("Your password", { exact: true });
  await expect(password).toBeFocused();
  await expect(page.getByText("That is not your current password.")).toBeVisible();
  await password.fill(STRONG_PASSWORD);
  await page.getByRole("button", { name: "Save role" }).click();
  const done = page.getByRole("status").filter({ hasText: `${helper.email} is now staff.` });
  await expect(done).toBeVisible();
  await expect(done).toBeFocused();
  await expect(page.getByRole("row", { name: new RegExp(helper.email) })).toContainText("Staff");

  // Staff: the dashboard and the sections they manage, not the owners' ones.
  await gotoInteractive(helperPage, "/admin");
  const sections = helperPage.getByRole("navigation", { name: "Back office" });
  await expect(sections.getByRole("link", { name: "Products" })).toBeVisible();
  await expect(sections.getByRole("link", { name: "People" })).toHaveCount(0);
  await expect(sections.getByRole("link", { name: "Settings" })).toHaveCount(0);
  for (const path of ["/admin/people", "/admin/settings", "/admin/activity"]) {
    const answer = await helperPage.goto(path);
    expect(answer?.status(), path).toBe(403);
    await expect(helperPage.getByText("Only an owner of the shop can open this page.")).toBeVisible();
  }

  // The owner reads who did it.
  await gotoInteractive(page, "/admin/activity");
  const sentence = `${OWNER_EMAIL} changed the role of Sam Staff (${helper.email}) from shopper to staff.`;
  await expect(page.getByText(sentence)).toBeVisible();
  await expectNoAxeViolations(page);
  // Found by the person's email, and nothing else is.
  await page.getByLabel("Find changes").fill(helper.email.toUpperCase());
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page).toHaveURL(/\/admin\/activity\?search=/);
  const found = page.getByRole("list", { name: "Changes, newest first" }).getByRole("listitem");
  await expect(found).toHaveCount(1);
  await expect(found).toContainText(sentence);
  await helperContext.close();
});

test("a shipping amount the owner saves is what the shop shows", async ({ page }) => {
  await signInAsOwner(page, "/admin/settings");
  await gotoInteractive(page, "/admin/settings");
  await expectNoAxeViolations(page);
  const standard = page.getByLabel("Standard shipping (USD)");

  // A bad amount is named, and the focus goes to it.
  await standard.fill("four dollars");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(standard).toBeFocused();
  await expect(page.getByText("Enter the standard shipping in dollars, like 4.99.")).toBeVisible();

  await standard.fill("3.75");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Settings saved." })).toBeFocused();

  await page.goto("/products/1");
  await expect(page.getByText(/otherwise \$3\.75/)).toBeVisible();

  // Choosing another currency names it on the amounts and shows how shoppers would read one;
  // nothing changes until Save (the other tests share this shop, in dollars).
  await gotoInteractive(page, "/admin/settings");
  await page.getByLabel("Currency", { exact: true }).selectOption("EUR");
  await page.getByLabel("Locale for amounts").fill("de-DE");
  await expect(page.getByLabel("Standard shipping (EUR)")).toBeVisible();
  await expect(page.getByText(/Shoppers will read 1\.234,50\s€\./)).toBeVisible();

  // Put back the default for the other tests.
  await gotoInteractive(page, "/admin/settings");
  await page.getByLabel("Standard shipping (USD)").fill("4.99");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Settings saved." })).toBeVisible();
});

test("the owners' pages fit a phone: nothing wider than 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsOwner(page, "/admin/people");
  for (const path of ["/admin/people", "/admin/settings", "/admin/activity"]) {
    await gotoInteractive(page, path);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, path).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page);
  }
});
