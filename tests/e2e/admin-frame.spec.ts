import type { Page } from "@playwright/test";
import { newUser, signUp, useOwnAddress } from "./support/accounts";
import { newStaffMember, OWNER_EMAIL, signInAsOwner } from "./support/back-office";
import { expectNoAxeViolations, gotoInteractive } from "./support/page-checks";
import { expect, test } from "./support/test";

/**
 * The back office's own frame (issue 32): its sections, the shop's name, a
 * way to the storefront and who is signed in — not the storefront's header
 * and footer; a skip link, landmarks and focus after each navigation; a menu
 * button on a phone, down to 320 px; and a 403 that says what is for owners
 * only, inside the frame, with a way back.
 */

// Staff asking for an owners' page get a 403, a shopper the 404: the browser says so in the console.
test.use({ allowedConsoleErrors: [/status of (403|404)/] });

const sections = (page: Page) => page.getByRole("navigation", { name: "Back office" });
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test("the back office has its own frame, not the storefront's header and footer", async ({ page }) => {
  await signInAsOwner(page, "/admin");
  await gotoInteractive(page, "/admin");

  // Nothing of the storefront's frame: its navbar, its search, its footer and blog links.
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await expect(page.getByPlaceholder("Search Category")).toHaveCount(0);
  await expect(page.getByRole("contentinfo")).toHaveCount(0);

  // Its own: one banner with the shop's name, the way to the storefront and who is signed in.
  const banner = page.getByRole("banner");
  await expect(banner).toHaveCount(1);
  await expect(banner.getByRole("link", { name: /Backline.*back office/i })).toHaveAttribute(
    "href",
    "/admin",
  );
  await expect(banner.getByRole("link", { name: "View the shop" })).toHaveAttribute("href", "/");
  await expect(banner).toContainText("Olive Owner");
  await expect(banner).toContainText(OWNER_EMAIL);
  await expect(banner).toContainText("Owner");
  await expect(banner.getByRole("button", { name: "Log out" })).toBeVisible();
  await expect(page.getByRole("main")).toHaveCount(1);
  await expect(sections(page).getByRole("link", { name: "Dashboard" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expectNoAxeViolations(page);
});

test("a keyboard skips the frame, lands on each new page's heading, and Log out leaves for the shop", async ({
  page,
}) => {
  await signInAsOwner(page, "/admin");
  await gotoInteractive(page, "/admin");

  // The first Tab reaches the skip link, which takes the keyboard past the frame to the page.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();

  // After a navigation, focus is on the new page's heading, as in the storefront.
  await sections(page).getByRole("link", { name: "Products" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Products" })).toBeFocused();
  await expect(sections(page).getByRole("link", { name: "Products" })).toHaveAttribute(
    "aria-current",
    "page",
  );

  // Log out leaves the back office for the shop, signed out.
  await page.getByRole("banner").getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }),
  ).toBeVisible();
});

for (const width of [320, 390]) {
  test(`on a ${width} px phone the sections fold behind a menu button, and nothing scrolls sideways`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await signInAsOwner(page, "/admin/orders");
    await gotoInteractive(page, "/admin/orders");
    expect(await scrollsSideways(page)).toBe(false);
    await expect(sections(page)).toBeHidden();
    await expectNoAxeViolations(page);

    const menu = page.getByRole("button", { name: "Menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(sections(page).getByRole("link", { name: "Orders" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    // Who is signed in, the storefront and Log out are in the menu too.
    await expect(page.getByText(OWNER_EMAIL).filter({ visible: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "View the shop" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
    expect(await scrollsSideways(page)).toBe(false);
    await expectNoAxeViolations(page);

    // Escape closes it and gives focus back to its button.
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();

    // Following a link folds it away, and focus lands on the new page's heading.
    await menu.click();
    await sections(page).getByRole("link", { name: "Customers" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Customers" })).toBeFocused();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(sections(page)).toBeHidden();
  });
}

test("staff opening an owners' page get a 403 in the back office that says what is for owners, and a way back", async ({
  browser,
}) => {
  const staff = await newStaffMember(browser);
  const { page } = staff;
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, part] of [
    ["/admin/people", "People"],
    ["/admin/settings", "Settings"],
    ["/admin/activity", "Activity"],
  ] as const) {
    const answer = await page.goto(path);
    expect(answer?.status(), path).toBe(403);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${part} is for owners only`);
    await expect(page).toHaveTitle(`${part} is for owners only | Back office | Backline`);
    await expect(
      page.getByText("Only an owner of the shop can open this page. Ask an owner if you need it."),
    ).toBeVisible();
    await expect(page.getByText("Something went wrong")).toHaveCount(0);
    // Inside the back office's frame, not the storefront's.
    await expect(page.getByRole("banner")).toContainText(staff.user.email);
    await expect(page.getByRole("banner")).toContainText("Staff");
    await expect(page.getByRole("contentinfo")).toHaveCount(0);
  }
  // The three are one page: checked once for a phone's width and for axe.
  expect(await scrollsSideways(page)).toBe(false);
  await expectNoAxeViolations(page);
  await page.getByRole("main").getByRole("link", { name: "Back to the dashboard" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeFocused();
  await staff.context.close();
});

test("a shopper still gets the storefront's own 404 at /admin, and a signed-out visitor the login", async ({
  browser,
  page,
  baseURL,
}) => {
  const signedOut = await page.goto("/admin/products");
  expect(signedOut?.url()).toMatch(/\/login\?redirectTo=%2Fadmin%2Fproducts$/);

  const context = await browser.newContext();
  await useOwnAddress(context);
  const shopper = await context.newPage();
  await signUp(shopper, newUser(baseURL as string));
  await shopper.waitForURL((url) => url.pathname === "/");
  for (const path of ["/admin", "/admin/people"]) {
    const answer = await shopper.goto(path);
    expect(answer?.status(), path).toBe(404);
    await expect(shopper.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(shopper).toHaveTitle("Page not found | Backline");
    // The storefront's frame, as for any address that does not exist: nothing says a back office is here.
    await expect(shopper.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(shopper.getByRole("navigation", { name: "Back office" })).toHaveCount(0);
    expect(await shopper.content()).not.toMatch(/back office/i);
  }
  await context.close();
});
