import type { Page } from "@playwright/test";
import {
  logIn,
  newUser,
  STRONG_PASSWORD,
  signUp,
  toasts,
  uniqueEmail,
  useOwnAddress,
} from "./support/accounts";
import { emailTo, linkTo } from "./support/mailbox";
import { expectNoAxeViolations, expectSamePicture } from "./support/page-checks";
import { expect, test } from "./support/test";

/** The account page (/account) in Chromium: profile, password, sessions, deletion, with a keyboard and axe. */
test.use({
  allowedConsoleErrors: [/Failed to load resource: the server responded with a status of (400|403|404)/],
});

test.beforeEach(async ({ context }) => {
  await useOwnAddress(context);
});

const accountButton = (page: Page) =>
  page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: /account menu/i });

test("a signed-out visitor is sent to log in, and comes back to the account page", async ({
  page,
  baseURL,
}) => {
  const user = newUser(baseURL as string);
  await signUp(page, user);
  await expect(toasts(page).getByText("Account created. Welcome!")).toBeVisible();
  await accountButton(page).click();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(toasts(page).getByText("Logged out.")).toBeVisible();

  await page.goto("/account");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
  await logIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account");
});

test("profile, password and sessions from the keyboard, with focus and messages where they belong", async ({
  browser,
  page,
  baseURL,
}) => {
  const user = newUser(baseURL as string, { name: "Ada Lovelace" });
  await signUp(page, user);
  await expect(toasts(page).getByText("Account created. Welcome!")).toBeVisible();

  // Signed in elsewhere too.
  const other = await browser.newContext();
  await useOwnAddress(other);
  const otherPage = await other.newPage();
  await otherPage.goto("/login");
  await logIn(otherPage, user.email, user.password);
  await expect(toasts(otherPage).getByText("Logged in successfully.")).toBeVisible();

  await accountButton(page).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Your account" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  await expectNoAxeViolations(page);

  const profile = page.getByRole("region", { name: "Profile" });
  await profile.getByLabel("Name").fill("Ada King");
  await profile.getByLabel("Photo URL").fill("");
  await profile.getByRole("button", { name: "Save profile" }).press("Enter");
  await expect(toasts(page).getByText("Your profile is saved.")).toBeVisible();
  await expect(accountButton(page)).toHaveAccessibleName("AK: account menu for Ada King");

  const password = page.getByRole("region", { name: "Password" });
  await password.getByLabel("Current password", { exact: true }).fill("Wr0ng!Pass");
  await password.getByLabel("New password", { exact: true }).fill("N3w!Passw0rd");
  await password.getByRole("button", { name: "Change password" }).click();
  const current = password.getByLabel("Current password", { exact: true });
  await expect(current).toBeFocused();
  await expect(current).toHaveAccessibleDescription("That is not your current password.");
  // The form answered in place: the page is still /account, its other forms as they were.
  await expect(page).toHaveURL(/\/account$/);
  await expectNoAxeViolations(page);

  const sessions = page.getByRole("region", { name: "Where you are signed in" });
  await expect(sessions.getByText("This device")).toBeVisible();
  await expect(sessions.getByRole("listitem")).toHaveCount(2);
  await sessions.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(toasts(page).getByText("You are signed out everywhere else.")).toBeVisible();
  await expect(sessions.getByRole("listitem")).toHaveCount(1);
  await otherPage.reload();
  await expect(
    otherPage.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }),
  ).toBeAttached();
  await other.close();

  await current.fill(STRONG_PASSWORD);
  await password.getByLabel("New password", { exact: true }).fill("N3w!Passw0rd");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(
    toasts(page).getByText("Your password is changed. You are signed out everywhere else."),
  ).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account");
});

test("deletes the account after the password, and the shopper lands home signed out", async ({
  page,
  baseURL,
}) => {
  const user = newUser(baseURL as string);
  await signUp(page, user);
  await expect(toasts(page).getByText("Account created. Welcome!")).toBeVisible();
  await page.goto("/account");
  const danger = page.getByRole("region", { name: "Delete your account" });
  await danger.getByLabel("Password to delete", { exact: true }).fill(user.password);
  await danger.getByRole("button", { name: "Delete my account" }).click();
  await expect(toasts(page).getByText("Your account and its data are deleted.")).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }),
  ).toBeAttached();
});

test("an account made with Google has no password to type: a fresh sign-in is enough to delete it", async ({
  page,
  baseURL,
}) => {
  await page.goto("/login?redirectTo=%2Faccount");
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  const popup = await popupOpened;
  await expect(popup.getByText(/stands in for Google/)).toBeVisible();
  await popup.getByLabel("Email").fill(uniqueEmail("google-leaver"));
  await popup.getByLabel("Name").fill("Gus Gone");
  const closed = popup.waitForEvent("close");
  await popup.getByRole("button", { name: "Continue" }).click();
  await closed;
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("region", { name: "Password" })).toHaveCount(0);
  await expectNoAxeViolations(page);
  const danger = page.getByRole("region", { name: "Delete your account" });
  await expect(danger.getByLabel("Password to delete")).toHaveCount(0);
  await danger.getByRole("button", { name: "Delete my account" }).click();
  await expect(toasts(page).getByText("Your account and its data are deleted.")).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/`);
});

test("changes the email once the link sent to the new address is confirmed", async ({ page, baseURL }) => {
  const user = newUser(baseURL as string);
  await signUp(page, user);
  await expect(toasts(page).getByText("Account created. Welcome!")).toBeVisible();
  await page.goto("/account");
  const section = page.getByRole("region", { name: "Email" });
  const movedTo = uniqueEmail("moved");
  await section.getByLabel("New email").fill(movedTo);
  await section.getByLabel("Your password", { exact: true }).fill(user.password);
  await section.getByRole("button", { name: "Send a confirmation link" }).click();
  await expect(section.getByRole("status")).toHaveText(
    `We have sent a link to ${movedTo}. Your email changes when you open it and confirm; until then it stays as it is.`,
  );
  await expectNoAxeViolations(page);

  await page.goto(linkTo(await emailTo(movedTo, /^Confirm your new email for Backline$/), "/verify-email"));
  await page.getByRole("button", { name: "Confirm my email" }).click();
  await expect(toasts(page).getByText("Your email is changed.")).toBeVisible();
  await accountButton(page).click();
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByText(movedTo, { exact: true }),
  ).toBeVisible();
});

test("reflows at 320 px without a horizontal scroll", async ({ page, baseURL }) => {
  await signUp(page, newUser(baseURL as string));
  await expect(toasts(page).getByText("Account created. Welcome!")).toBeVisible();
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto("/account");
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});

test("the new password's field says a common password is refused when it is left", async ({
  page,
  baseURL,
}) => {
  await signUp(page, newUser(baseURL as string));
  await expect(toasts(page).getByText("Account created. Welcome!")).toBeVisible();
  await page.goto("/account");
  const newPassword = page
    .getByRole("region", { name: "Password" })
    .getByLabel("New password", { exact: true });
  await newPassword.fill("Password1!");
  await newPassword.press("Tab");
  await expect(newPassword).toHaveAccessibleDescription(
    /^This password is too common\. Choose one that is harder to guess\. 6 to 20 characters/,
  );
});

test("a photo that does not load shows the initials in the navbar, also before the scripts run", async ({
  browser,
  page,
  baseURL,
}) => {
  const user = newUser(baseURL as string, { name: "Sam Smith", photo: `${baseURL}/no-such-photo.png` });
  await signUp(page, user);
  await expect(toasts(page).getByText("Account created. Welcome!")).toBeVisible();
  await expect(accountButton(page)).toHaveAccessibleName("SS: account menu for Sam Smith");
  await expect(accountButton(page).locator("img")).toHaveCount(0);
  const withScripts = await accountButton(page).screenshot();

  // The page as it is before its scripts run (or without them): the photo's <img> has failed,
  // and what shows in its place is the initials, drawn as the scripts draw them.
  const plain = await browser.newContext({
    storageState: await page.context().storageState(),
    javaScriptEnabled: false,
  });
  const plainPage = await plain.newPage();
  await plainPage.goto("/");
  const photo = accountButton(plainPage).locator("img");
  await expect(photo).toHaveJSProperty("complete", true);
  await expect(photo).toHaveJSProperty("naturalWidth", 0);
  await expectSamePicture(await accountButton(plainPage).screenshot(), withScripts);
  await plain.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("each form is a plain post to its own address, whose page is the account page with that form's answer", async ({
    page,
    baseURL,
  }) => {
    const user = newUser(baseURL as string);
    await signUp(page, user);
    await page.goto("/account");

    const password = page.getByRole("region", { name: "Password" });
    await password.getByLabel("Current password", { exact: true }).fill("Wr0ng!Pass");
    await password.getByLabel("New password", { exact: true }).fill("N3w!Passw0rd");
    await password.getByRole("button", { name: "Change password" }).click();
    await expect(page).toHaveURL(`${baseURL}/account/password`);
    await expect(password.getByLabel("Current password", { exact: true })).toHaveAccessibleDescription(
      "That is not your current password.",
    );

    const email = page.getByRole("region", { name: "Email" });
    const movedTo = uniqueEmail("moved-without-js");
    await email.getByLabel("New email").fill(movedTo);
    await email.getByLabel("Your password", { exact: true }).fill(user.password);
    await email.getByRole("button", { name: "Send a confirmation link" }).click();
    await expect(page).toHaveURL(`${baseURL}/account/email`);
    await expect(email.getByRole("status")).toContainText(`We have sent a link to ${movedTo}.`);

    const profile = page.getByRole("region", { name: "Profile" });
    await profile.getByLabel("Name").fill("Ada King");
    await profile.getByRole("button", { name: "Save profile" }).click();
    await expect(page).toHaveURL(`${baseURL}/account`);
    await expect(profile.getByLabel("Name")).toHaveValue("Ada King");
    await expect(page.getByRole("button", { name: /account menu for Ada King$/i })).toBeAttached();
  });
});
