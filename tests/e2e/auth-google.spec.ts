import type { Page } from "@playwright/test";
import { newUser, signUp, toasts, uniqueEmail, useOwnAddress } from "./support/accounts";
import { expect, test } from "./support/test";

/**
 * 'Continue with Google' against the demo identity provider, a real OpenID
 * Connect provider (oidc-provider) that the e2e server runs in Google's place
 * (DEMO_IDENTITY_PROVIDER=1): discovery, authorization code with PKCE, state
 * and nonce, signed ID tokens.
 */
test.use({
  allowedConsoleErrors: [/Failed to load resource: the server responded with a status of (401|404|409|429)/],
});

test.beforeEach(async ({ context }) => {
  await useOwnAddress(context);
});

async function signInAtDemoProvider(provider: Page, identity: { email: string; name: string }) {
  await expect(provider.getByText(/stands in for Google/)).toBeVisible();
  await provider.getByLabel("Email").fill(identity.email);
  await provider.getByLabel("Name").fill(identity.name);
  await provider.getByRole("button", { name: "Continue" }).click();
}

test("a visitor who typed 127.0.0.1 instead of localhost is taken to BASE_URL, and the popup signs the page in", async ({
  page,
  baseURL,
}) => {
  const typed = new URL("/login?redirectTo=%2Fabout", baseURL);
  typed.hostname = "127.0.0.1";
  await page.goto(typed.toString());
  await expect(page).toHaveURL(`${baseURL}/login?redirectTo=%2Fabout`);

  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  const popup = await popupOpened;
  await popup.waitForURL(/\/demo-idp\/interaction\//);
  const closed = popup.waitForEvent("close");
  await signInAtDemoProvider(popup, { email: uniqueEmail("typed-ip"), name: "Ida Pe" });
  await closed;

  await expect(toasts(page).getByText("Signed in with Google.")).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/about`);
  await expect(page.getByRole("button", { name: "Account menu" })).toHaveText("IP");
});

test("signs in through the popup; the page updates without a reload and goes to redirectTo", async ({
  page,
  baseURL,
}) => {
  await page.goto("/contact");
  await page.goto("/login?redirectTo=%2Fabout");
  // A reload would lose this marker.
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));

  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  const popup = await popupOpened;
  await popup.waitForURL(/\/demo-idp\/interaction\//);
  expect(new URL(popup.url()).origin).toBe(baseURL);
  const identity = { email: uniqueEmail("google"), name: "Grace Hopper" };
  const closed = popup.waitForEvent("close");
  await signInAtDemoProvider(popup, identity);
  await closed;

  await expect(toasts(page).getByText("Signed in with Google.")).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/about`);
  const accountButton = page.getByRole("button", { name: "Account menu" });
  await expect(accountButton).toHaveText("GH");
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(
    true,
  );
  await accountButton.click();
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByText(identity.email, { exact: true }),
  ).toBeVisible();

  // /login was replaced in the history.
  await page.goBack();
  await expect(page).toHaveURL(`${baseURL}/contact`);
  // And the session is a server session: it survives a reload.
  await page.reload();
  await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
});

test("an account made with Google is not asked to confirm its email: Google vouched for it", async ({
  page,
  baseURL,
}) => {
  await page.goto("/login");
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  const popup = await popupOpened;
  const closed = popup.waitForEvent("close");
  await signInAtDemoProvider(popup, { email: uniqueEmail("vouched"), name: "Vera Vouched" });
  await closed;
  await expect(toasts(page).getByText("Signed in with Google.")).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/`);

  // As the server renders any page for this account from now on.
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account");
  await expect(page.getByRole("main")).toContainText("(confirmed)");
  await expect(page.getByRole("region", { name: "Confirm your email" })).toHaveCount(0);
});

test("falls back to a full-page redirect when the popup is blocked", async ({ page, baseURL }) => {
  // A popup blocker makes window.open return null.
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await page.goto("/login?redirectTo=%2Fcontact");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await page.waitForURL(/\/demo-idp\/interaction\//);
  await signInAtDemoProvider(page, { email: uniqueEmail("fallback"), name: "Alan Turing" });

  await expect(page).toHaveURL(`${baseURL}/contact`);
  await expect(toasts(page).getByText("Signed in with Google.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Account menu" })).toHaveText("AT");
});

test("the demo provider never takes over an existing password account", async ({
  browser,
  page,
  baseURL,
}) => {
  const owner = newUser(baseURL as string);
  const ownerContext = await browser.newContext();
  await useOwnAddress(ownerContext);
  await signUp(await ownerContext.newPage(), owner);
  await ownerContext.close();

  await page.goto("/login");
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  const popup = await popupOpened;
  const closed = popup.waitForEvent("close");
  await signInAtDemoProvider(popup, { email: owner.email, name: "Mallory" });
  await closed;

  await expect(
    toasts(page).getByText(
      "This email already has an account with a password. Log in with your password instead.",
    ),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Account menu" })).toHaveCount(0);
  await expect(page).toHaveURL(/\/login/);
});

test("starting Google sign-in is rate limited with 429 and Retry-After", async ({
  page,
  playwright,
  baseURL,
}) => {
  const client = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": "198.19.7.7", Origin: baseURL as string },
    maxRedirects: 0,
  });
  const statuses: number[] = [];
  let last: Awaited<ReturnType<typeof client.post>> | undefined;
  for (let i = 0; i < 31; i++) {
    last = await client.post("/auth/google", { form: { redirectTo: "/", mode: "page" } });
    statuses.push(last.status());
  }
  expect(statuses.slice(0, 30).every((status) => status === 302)).toBe(true);
  expect(last?.status()).toBe(429);
  expect(Number(last?.headers()["retry-after"])).toBeGreaterThan(0);
  await client.dispose();

  // In the browser, the same address gets the toast.
  await useOwnAddress(page.context(), "198.19.7.7");
  await page.goto("/login");
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await popupOpened;
  await expect(toasts(page).getByText("Too many attempts. Try again in 10 minutes.")).toBeVisible();
});

test("a cross-site form post is refused", async ({ playwright, baseURL }) => {
  const client = await playwright.request.newContext({ baseURL });
  const response = await client.post("/login", {
    form: { email: "a@example.com", password: "Str0ng!Pass" },
    headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
  });
  expect(response.status()).toBe(403);
  expect(await response.json()).toEqual({
    error: { code: "cross_site_request", message: expect.any(String) },
  });
  await client.dispose();
});
