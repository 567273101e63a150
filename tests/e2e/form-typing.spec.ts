import { useOwnAddress } from "./support/accounts";
import { gotoInteractive } from "./support/page-checks";
import { expect, test } from "./support/test";

/**
 * The account forms typed as a person types: key by key, moving between
 * fields with real clicks. Leaving a field shows its message there and leaves
 * the focus where the person put it; only a failed submit moves it (to the
 * first field in error).
 */
test.beforeEach(async ({ context }) => {
  await useOwnAddress(context);
});

for (const email of ["sam@", "sam@example"]) {
  test(`on /login, a password typed after an incomplete email (${email}) goes into Password`, async ({
    page,
  }) => {
    await gotoInteractive(page, "/login");
    const form = page.getByRole("main");
    const password = form.getByLabel("Password", { exact: true });
    await form.getByLabel("Email").click();
    await page.keyboard.type(email);
    await password.click();
    // The message is on the page before the person types on.
    await expect(form.getByLabel("Email")).toHaveAccessibleDescription("Enter a valid email address.");
    await page.keyboard.type("Secret#123");

    await expect(form.getByLabel("Email")).toHaveValue(email);
    await expect(password).toHaveValue("Secret#123");
    await expect(password).toBeFocused();
  });
}

test("on /login, a refused submit puts the focus on the first field in error, its message shown or not", async ({
  page,
}) => {
  await gotoInteractive(page, "/login");
  const form = page.getByRole("main");
  const email = form.getByLabel("Email");
  const password = form.getByLabel("Password", { exact: true });
  await email.click();
  await page.keyboard.type("sam@");
  await password.click();
  await page.keyboard.type("Secr");
  await expect(email).toHaveAccessibleDescription("Enter a valid email address.");
  // Pressing Login leaves Password (its message appears then); the submit that follows shows
  // nothing new, and still moves the focus.
  await form.getByRole("button", { name: "Login", exact: true }).click();
  await expect(password).toHaveAccessibleDescription("Password must be at least 6 characters.");
  await expect(email).toBeFocused();
});

test("on /sign-up, fields left empty or wrong keep what was typed where it was typed", async ({ page }) => {
  await gotoInteractive(page, "/sign-up");
  const form = page.getByRole("main");
  const name = form.getByLabel("Name");
  const email = form.getByLabel("Email");
  const photo = form.getByLabel("Photo URL");
  const password = form.getByLabel("Password", { exact: true });
  await name.click();
  await email.click();
  await expect(name).toHaveAccessibleDescription("Name is required.");
  await page.keyboard.type("sam@");
  await photo.click();
  await expect(email).toHaveAccessibleDescription("Enter a valid email address.");
  await password.click();
  await expect(photo).toHaveAccessibleDescription("Photo URL is required.");
  await page.keyboard.type("Secret#123");

  await expect(name).toHaveValue("");
  await expect(email).toHaveValue("sam@");
  await expect(photo).toHaveValue("");
  await expect(password).toHaveValue("Secret#123");
  await expect(password).toBeFocused();

  // Sent as it is, the form is refused and the focus goes to the first field in error.
  await form.getByRole("button", { name: "Sign Up" }).click();
  await expect(name).toBeFocused();
});
