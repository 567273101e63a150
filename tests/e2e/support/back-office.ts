import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import lockfile from "proper-lockfile";
import { BASE_URL, MAILBOX_DIR } from "../../../playwright.config";
import { logIn, newUser, STRONG_PASSWORD, signUp, useOwnAddress } from "./accounts";
import { emailTo, linkTo } from "./mailbox";
import { expect } from "./test";

/**
 * The e2e server's owner: playwright.config.ts sets OWNER_EMAILS to it, so
 * the account is an owner once its email is confirmed — as a real shop's
 * first owner is made. The first test that needs it signs it up and confirms
 * it (one worker at a time, under a lock); every test then logs in with its password.
 */
export const OWNER_EMAIL = "owner@backline.test";
const OWNER = { name: "Olive Owner", email: OWNER_EMAIL, password: STRONG_PASSWORD };

/** Left in the mailbox folder, which the e2e server empties when it starts: the owner exists in this run. */
const OWNER_READY = path.join(MAILBOX_DIR, "owner-ready.marker");

async function ensureOwnerAccount(browser: Browser, baseURL: string): Promise<void> {
  fs.mkdirSync(MAILBOX_DIR, { recursive: true });
  const release = await lockfile.lock(MAILBOX_DIR, {
    retries: { retries: 120, minTimeout: 250, maxTimeout: 1_000 },
  });
  try {
    if (fs.existsSync(OWNER_READY)) return;
    const context = await browser.newContext({ baseURL });
    // biome-ignore lint/correctness/useHookAtTopLevel: a test helper named like a hook, not a React hook
    await useOwnAddress(context);
    const page = await context.newPage();
    await signUp(page, newUser(baseURL, OWNER));
    const email = await emailTo(OWNER.email, /^Confirm your email for Backline$/);
    await page.goto(linkTo(email, "/verify-email"));
    await page.getByRole("button", { name: "Confirm my email" }).click();
    await expect(page.getByText("Your email is confirmed. Thank you!")).toBeVisible();
    await context.close();
    fs.writeFileSync(OWNER_READY, "");
  } finally {
    await release();
  }
}

/** Logs in as the shop's owner (made on first use) and lands on `path` in the back office. */
export async function signInAsOwner(page: Page, path = "/admin"): Promise<void> {
  const browser = page.context().browser();
  if (!browser) throw new Error("signInAsOwner needs a page of a launched browser");
  await ensureOwnerAccount(browser, BASE_URL);
  // biome-ignore lint/correctness/useHookAtTopLevel: a test helper named like a hook, not a React hook
  await useOwnAddress(page.context());
  await page.goto(`/login?redirectTo=${encodeURIComponent(path)}`);
  await logIn(page, OWNER.email, OWNER.password);
  await page.waitForURL((url) => url.pathname === path.split("?")[0]);
}

/**
 * A new account made staff by the owner at /admin/people (as a shop gives
 * someone the role), signed in on a browser context of its own.
 */
export async function newStaffMember(browser: Browser, name = "Sam Staff") {
  const context = await browser.newContext({ baseURL: BASE_URL });
  // biome-ignore lint/correctness/useHookAtTopLevel: a test helper named like a hook, not a React hook
  await useOwnAddress(context);
  const page = await context.newPage();
  const user = newUser(BASE_URL, { name });
  await signUp(page, user);
  // A new account lands on the shop page, signed in.
  await page.waitForURL((url) => url.pathname === "/");

  const ownerContext = await browser.newContext({ baseURL: BASE_URL });
  const owner = await ownerContext.newPage();
  await signInAsOwner(owner, "/admin/people");
  await expect(owner.locator("html[data-hydrated]")).toHaveCount(1);
  await owner.getByLabel("Email of the account").fill(user.email);
  await owner.getByLabel("Role", { exact: true }).selectOption("staff");
  await owner.getByLabel("Your password", { exact: true }).fill(STRONG_PASSWORD);
  await owner.getByRole("button", { name: "Save role" }).click();
  await expect(owner.getByRole("status").filter({ hasText: `${user.email} is now staff.` })).toBeVisible();
  await ownerContext.close();
  return { page, context, user };
}
