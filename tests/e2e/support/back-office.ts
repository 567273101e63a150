import type { Page } from "@playwright/test";
import { useOwnAddress } from "./accounts";

/**
 * The e2e server's owner (playwright.config.ts sets OWNER_EMAILS to it): an
 * account signed in through the demo identity provider has a confirmed email,
 * so it is an owner from its first visit to /admin.
 */
const OWNER_EMAIL = "owner@backline.test";

/** Signs in as the shop's owner (through "Continue with Google", in this tab) and opens `path` in the back office. */
export async function signInAsOwner(page: Page, path = "/admin"): Promise<void> {
  await signInWithGoogle(page, { email: OWNER_EMAIL, name: "Olive Owner" }, path);
}

/** Signs in with the demo identity provider as `identity`, in this tab, and lands on `path`. */
async function signInWithGoogle(
  page: Page,
  identity: { email: string; name: string },
  path: string,
): Promise<void> {
  // biome-ignore lint/correctness/useHookAtTopLevel: a test helper named like a hook, not a React hook
  await useOwnAddress(page.context());
  // No popup: the sign-in happens in this tab (the login page's fallback when a popup is blocked).
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await page.goto(`/login?redirectTo=${encodeURIComponent(path)}`);
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await page.waitForURL(/\/demo-idp\/interaction\//);
  await page.getByLabel("Email").fill(identity.email);
  await page.getByLabel("Name").fill(identity.name);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL((url) => url.pathname === path.split("?")[0]);
}
