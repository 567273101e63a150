import type { Page } from "@playwright/test";
import { logIn, toasts, useOwnAddress } from "./support/accounts";
import { gotoInteractive } from "./support/page-checks";
import { expect, test } from "./support/test";

/**
 * What the shop page makes the browser download (bench/storefront.ts weighs
 * it; docs/decisions/0017): what only some visits need comes when it is needed.
 */

/** The text of every script the page has loaded so far, as it arrives. */
function collectScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() === "script") scripts.push(await response.text());
  });
  return scripts;
}

/** Sonner, the toasts' library, marks its toaster with this attribute. */
const TOASTER = "data-sonner-toaster";

// The failed login's own answer (401) is reported by the browser.
test.use({ allowedConsoleErrors: [/status of 401/] });

test("the shop page loads the toasts' library only when a toast is shown", async ({ page, context }) => {
  const scripts = collectScripts(page);
  await gotoInteractive(page, "/");
  await expect(page.getByRole("list", { name: "Products" })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((script) => script.includes(TOASTER)).length, "scripts with the toaster").toBe(0);

  // A failed login says so in a toast: the library comes then, and the toast shows.
  await useOwnAddress(context);
  await gotoInteractive(page, "/login");
  await logIn(page, "nobody@example.com", "Wr0ng!Pass");
  await expect(toasts(page).getByText("Invalid email or password.")).toBeVisible();
  await expect(toasts(page)).toHaveAttribute("aria-live", "polite");
  expect(scripts.some((script) => script.includes(TOASTER))).toBe(true);
});
