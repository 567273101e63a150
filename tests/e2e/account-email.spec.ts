import { logIn, logOut, newUser, signUp, toasts, useOwnAddress } from "./support/accounts";
import { emailTo, linkTo } from "./support/mailbox";
import { expectNoAxeViolations, gotoInteractive } from "./support/page-checks";
import { expect, test } from "./support/test";

// Chromium logs 4xx answers as console errors; these are the point of some tests.
test.use({
  allowedConsoleErrors: [
    /Failed to load resource: the server responded with a status of (400|401|404|409|410|429)/,
  ],
});

test.beforeEach(async ({ context }) => {
  await useOwnAddress(context);
});

test.describe("forgot password", () => {
  test("from the login page to a new password through the emailed link, keyboard and screen reader included", async ({
    page,
    baseURL,
  }) => {
    const user = newUser(baseURL as string);
    await signUp(page, user);
    await expect(toasts(page).getByText("Account created. Welcome!")).toBeVisible();
    await logOut(page);

    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Forgot your password?");
    await expectNoAxeViolations(page);

    await page.getByLabel("Email").fill(user.email);
    await page.getByRole("button", { name: "Send me a link" }).click();
    const sent = page.getByRole("heading", { name: "Your link is on its way" });
    await expect(sent).toBeFocused();
    await expect(page.getByText(`If an account uses ${user.email}, we have sent it a link`)).toBeVisible();
    await expectNoAxeViolations(page);

    const email = await emailTo(user.email, /^Reset your Backline password$/);
    await gotoInteractive(page, linkTo(email, "/reset-password"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choose a new password");
    const password = page.getByLabel("New password", { exact: true });
    // The rules are read with the field before anything is typed.
    await expect(password).toHaveAccessibleDescription(/^6 to 20 characters, not a common password/);
    await expectNoAxeViolations(page);

    await password.fill("short");
    await page.getByRole("button", { name: "Change my password" }).click();
    await expect(password).toBeFocused();
    await expect(password).toHaveAccessibleDescription(/^Password must be at least 6 characters\./);

    await password.fill("N3w!Passw0rd");
    await page.getByRole("button", { name: "Change my password" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(
      toasts(page).getByText("Your password has been changed. Log in with your new password."),
    ).toBeVisible();
    await logIn(page, user.email, "N3w!Passw0rd");
    await expect(toasts(page).getByText("Logged in successfully.")).toBeVisible();

    // The link is used up.
    await page.goto(linkTo(email, "/reset-password"));
    const expired = page
      .getByRole("alert")
      .filter({ hasText: "This link has expired or has already been used." });
    await expect(expired).toBeFocused();
    await expectNoAxeViolations(page);
    await page.getByRole("link", { name: "Send me a new link" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
  });

  test("works without JavaScript: plain forms and the emailed link", async ({ browser, baseURL }) => {
    const setup = await browser.newContext();
    await useOwnAddress(setup);
    const user = newUser(baseURL as string);
    await signUp(await setup.newPage(), user);
    await setup.close();

    const context = await browser.newContext({ javaScriptEnabled: false });
    await useOwnAddress(context);
    const page = await context.newPage();
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(user.email);
    await page.getByRole("button", { name: "Send me a link" }).click();
    await expect(page.getByRole("heading", { name: "Your link is on its way" })).toBeVisible();

    await page.goto(linkTo(await emailTo(user.email, /^Reset your/), "/reset-password"));
    await page.getByLabel("New password", { exact: true }).fill("Password1!");
    await page.getByRole("button", { name: "Change my password" }).click();
    await expect(page.getByText("This password is too common.")).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill("N0script!Pw");
    await page.getByRole("button", { name: "Change my password" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await logIn(page, user.email, "N0script!Pw");
    await expect(page).toHaveURL(`${baseURL}/`);
    await expect(page.getByRole("button", { name: /account menu/i })).toBeVisible();
    await context.close();
  });
});

test.describe("email confirmation", () => {
  test("a quiet reminder after sign-up, a new link on request, and the link confirms the email", async ({
    page,
    baseURL,
  }) => {
    const user = newUser(baseURL as string);
    await signUp(page, user);
    const reminder = page.getByRole("region", { name: "Confirm your email" });
    await expect(reminder).toContainText(`Your email, ${user.email}, is not confirmed yet.`);
    await expectNoAxeViolations(page);
    await emailTo(user.email, /^Confirm your email for Backline$/);

    await page.goto("/about");
    await reminder.getByRole("button", { name: "Send me a confirmation link" }).click();
    await expect(toasts(page).getByText("We have sent you a new confirmation link.")).toBeVisible();
    await expect(page).toHaveURL(/\/about$/);
    const email = await emailTo(user.email, /^Confirm your email for Backline$/, 2);

    await page.goto(linkTo(email, "/verify-email"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirm your email");
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Confirm my email" }).click();
    await expect(toasts(page).getByText("Your email is confirmed. Thank you!")).toBeVisible();
    await expect(page).toHaveURL(`${baseURL}/`);
    await expect(reminder).toHaveCount(0);

    // The same link a second time says the email is confirmed already.
    await page.goto(linkTo(email, "/verify-email"));
    await page.getByRole("button", { name: "Confirm my email" }).click();
    await expect(toasts(page).getByText("Your email is already confirmed.")).toBeVisible();

    // A link that no longer works says so, and offers the way on.
    await page.goto("/verify-email?token=%00");
    await expect(
      page
        .getByRole("alert")
        .filter({ hasText: "This confirmation link has expired or has already been used." }),
    ).toBeFocused();
    await expectNoAxeViolations(page);
  });
});

test.describe("forms for everyone", () => {
  test("a failed login puts the focus on the problem: the first field in error, else the message", async ({
    page,
  }) => {
    // Its own client address: the login attempts of the tests running meanwhile count elsewhere.
    await useOwnAddress(page.context());
    await gotoInteractive(page, "/login");
    await page.getByRole("main").getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.getByLabel("Email")).toBeFocused();

    await logIn(page, "nobody-here@example.com", "Wr0ng!Pass");
    const message = page.getByRole("main").getByText("Invalid email or password.");
    await expect(message).toBeFocused();
  });

  test("a sign-up refused by the server puts the focus on its message", async ({
    browser,
    page,
    baseURL,
  }) => {
    const existing = newUser(baseURL as string);
    const other = await browser.newContext();
    await useOwnAddress(other);
    await signUp(await other.newPage(), existing);
    await other.close();

    const again = newUser(baseURL as string, { email: existing.email });
    await gotoInteractive(page, "/sign-up");
    const form = page.getByRole("main");
    // Nothing filled in: the first field in error takes the focus.
    await form.getByRole("button", { name: "Sign Up" }).click();
    await expect(form.getByLabel("Name")).toBeFocused();
    await form.getByLabel("Name").fill(again.name);
    await form.getByLabel("Email").fill(again.email);
    await form.getByLabel("Photo URL").fill(again.photo);
    await form.getByLabel("Password", { exact: true }).fill(again.password);
    await form.getByRole("button", { name: "Sign Up" }).click();
    await expect(
      page.getByRole("main").getByText("An account with this email already exists."),
    ).toBeFocused();
  });

  test("messages appear when a field is left or the form sent, not at the first keystroke", async ({
    page,
  }) => {
    await page.goto("/login");
    const email = page.getByLabel("Email");
    await email.pressSequentially("ada");
    await expect(email).not.toHaveAttribute("aria-invalid");
    await email.press("Tab");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription("Enter a valid email address.");
    // Once shown, the message follows the typing.
    await email.pressSequentially("@example.com");
    await expect(email).not.toHaveAttribute("aria-invalid");
  });

  test("the login form applies the specification's password rules with sign-up's messages, at any length", async ({
    page,
  }) => {
    await page.goto("/login");
    const password = page.getByLabel("Password", { exact: true });
    const cases: [string, string][] = [
      ["Ab1!", "Password must be at least 6 characters."],
      ["Abcdefghij1!Abcdefghij", "Password must be at most 20 characters."],
      ["A1!".repeat(200), "Password must be at most 20 characters."],
      [
        "abcdefgh",
        "Password needs an uppercase letter, a lowercase letter, a digit and one of # ? ! @ $ % ^ & * -",
      ],
    ];
    for (const [value, message] of cases) {
      await password.fill(value);
      await password.blur();
      await expect(password).toHaveAccessibleDescription(message);
    }
  });

  test("after logging in, the focus and an announcement reach the new page", async ({ page, baseURL }) => {
    const user = newUser(baseURL as string);
    await signUp(page, user);
    await logOut(page);
    await page.goto("/login?redirectTo=%2Fabout");
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
    // The toasts' live region announces the sign-in.
    await expect(toasts(page)).toHaveAttribute("aria-live", "polite");
    await expect(toasts(page).getByText("Logged in successfully.")).toBeVisible();
  });

  test("toasts: readable text, a close button of at least 24 px, one copy of a message, and no Tab loop", async ({
    page,
  }) => {
    // Its own client address: a CI run's other tests logging in meanwhile from the same one could
    // reach the per-address limit, and the second attempt would read "Too many attempts."
    await useOwnAddress(page.context());
    await gotoInteractive(page, "/login");
    const message = page.getByRole("main").getByText("Invalid email or password.");
    // The same failure twice, the second typed once the first is answered (typed before, its
    // password would be cleared by the first answer, as a refused form clears it).
    for (let attempt = 0; attempt < 2; attempt++) {
      const answered = page.waitForResponse(
        (response) =>
          new URL(response.url()).pathname.startsWith("/login") && response.request().method() === "POST",
      );
      await logIn(page, "nobody@example.com", "Wr0ng!Pass");
      await answered;
      // The failed login's own focus move (to its message) comes first: moved later, it would take
      // the focus from the link the Tab steps below start at.
      await expect(message).toBeFocused();
    }
    const toast = toasts(page).getByRole("listitem").filter({ hasText: "Invalid email or password." });
    await expect(toast).toHaveCount(1);
    // The pointer rests on the toast, which keeps it (an error toast otherwise goes after 4 s, and
    // the steps below took longer than that on a loaded machine).
    await toast.hover();

    const contrast = await toast.evaluate((element) => {
      const channels = (color: string) => (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
      const luminance = (color: string) => {
        const [r = 0, g = 0, b = 0] = channels(color).map((value) => {
          const c = value / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const style = getComputedStyle(element);
      const [light, dark] = [luminance(style.backgroundColor), luminance(style.color)].sort((a, b) => b - a);
      return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
    });
    expect(contrast).toBeGreaterThanOrEqual(4.5);

    const close = toast.getByRole("button", { name: /close/i });
    const box = await close.boundingBox();
    // Rounded: the button is drawn half outside the toast, at a fractional position.
    expect(Math.round(box?.width ?? 0)).toBeGreaterThanOrEqual(24);
    expect(Math.round(box?.height ?? 0)).toBeGreaterThanOrEqual(24);

    // Tab from the page's last link into the toast (the toast, then its close button), and on out
    // of it: never back to the link.
    const lastLink = page.getByRole("contentinfo").getByRole("link").last();
    await lastLink.focus();
    await page.keyboard.press("Tab");
    await expect(toast).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(close).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(close).not.toBeFocused();
    await expect(lastLink).not.toBeFocused();
  });

  test("the account button's name says what it shows; the footer has no Sign Up or Login for a signed-in shopper", async ({
    page,
    baseURL,
  }) => {
    // A photo that does not load: the button shows the initials.
    await signUp(page, newUser(baseURL as string, { name: "Grace Hopper", photo: `${baseURL}/no-such.png` }));
    await expect(toasts(page).getByText("Account created. Welcome!")).toBeVisible();
    const button = page
      .getByRole("navigation", { name: "Main" })
      .getByRole("button", { name: /account menu/i });
    await expect(button).toHaveText("GH");
    await expect(button).toHaveAccessibleName("GH: account menu for Grace Hopper");
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: "Sign Up" })).toHaveCount(0);
    await expect(footer.getByRole("link", { name: "Login" })).toHaveCount(0);
    await expect(footer.getByRole("link", { name: "Your account" })).toHaveAttribute("href", "/account");
  });

  test("logging out on a public page stays on it", async ({ page, baseURL }) => {
    await signUp(page, newUser(baseURL as string));
    await expect(toasts(page).getByText("Account created. Welcome!")).toBeVisible();
    await page.goto("/about");
    await logOut(page);
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole("contentinfo").getByRole("link", { name: "Login" })).toBeVisible();
  });

  test("the sign-up page offers Continue with Google too", async ({ page }) => {
    await page.goto("/sign-up");
    await expect(page.getByRole("button", { name: "Continue with Google" })).toBeEnabled();
  });
});
