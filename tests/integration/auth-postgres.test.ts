import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Browser, chromium } from "playwright-core";
import { afterAll, expect, it } from "vitest";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../support/chromium";
import { chromiumBrowser, describeWhen, postgresServer } from "../support/requirements";
import { type ShopProcess, startShopProcess } from "../support/shop-process";
import { createScratchPostgres, type ScratchPostgres } from "../support/test-database";

/**
 * The account flow in a real browser against the built shop on PostgreSQL
 * (TEST_DATABASE_URL; .ci/run sets it), with the demo identity provider:
 * sign up, log out, log in, Google popup. The same flow on PGlite is the
 * end-to-end suite (tests/e2e/auth-*.spec.ts).
 */
describeWhen([postgresServer, chromiumBrowser], "accounts on PostgreSQL in Chromium", () => {
  const serverUrl = process.env.TEST_DATABASE_URL ?? "";
  let scratch: ScratchPostgres | undefined;
  let shop: ShopProcess | undefined;
  let browser: Browser | undefined;

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    await scratch?.drop();
  });

  it("signs up, logs out, logs in and continues with Google", async () => {
    scratch = await createScratchPostgres(serverUrl);
    const databaseUrl = new URL(scratch.url);
    shop = await startShopProcess({ DATABASE_URL: databaseUrl.toString(), DEMO_IDENTITY_PROVIDER: "1" });
    const base = shop.url;
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_FLAGS, "--disable-dev-shm-usage"],
    });
    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));

    const email = `pg-${randomBytes(4).toString("hex")}@example.com`;
    await page.goto("/sign-up");
    await page.getByLabel("Name").fill("Post Gres");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Photo URL").fill(`${base}/favicon.svg`);
    await page.getByLabel("Password", { exact: true }).fill("Str0ng!Pass");
    await page.getByRole("main").getByRole("button", { name: "Sign Up" }).click();
    await page.getByText("Account created. Welcome!").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");

    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByText("Logged out.").waitFor();

    await page.goto("/login?redirectTo=%2Fabout");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("Str0ng!Pass");
    await page.getByRole("main").getByRole("button", { name: "Login", exact: true }).click();
    await page.getByText("Logged in successfully.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/about");
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByText("Logged out.").waitFor();

    await page.goto("/login");
    const popupOpened = page.waitForEvent("popup");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    const popup = await popupOpened;
    await popup.getByText(/stands in for Google/).waitFor();
    await popup.getByLabel("Email").fill(`google-${email}`);
    await popup.getByLabel("Name").fill("Goo Gle");
    const closed = popup.waitForEvent("close");
    await popup.getByRole("button", { name: "Continue" }).click();
    await closed;
    await page.getByText("Signed in with Google.").waitFor();
    expect(await page.getByRole("button", { name: "Account menu" }).textContent()).toBe("GG");

    // The accounts are in PostgreSQL.
    const client = new pg.Client({ connectionString: databaseUrl.toString() });
    await client.connect();
    // The demo buyers (docs/decisions/0033) are the demo catalogue's, not this test's.
    const { rows } = await client.query(
      "select email, name from users where email not like '%@backline.invalid' order by created_at",
    );
    await client.end();
    expect(rows).toEqual([
      { email, name: "Post Gres" },
      { email: `google-${email}`, name: "Goo Gle" },
    ]);
    expect(pageErrors).toEqual([]);
  });
});
