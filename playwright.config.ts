import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "./tests/support/chromium";

/**
 * End-to-end tests: the production build, served by `tests/e2e/serve.mjs` on
 * a fresh embedded database, driven through Debian's Chromium (Playwright's
 * own browser download is not available here).
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
export const BASE_URL = `http://localhost:${PORT}`;
/** Where the e2e server's SMTP server puts the emails it receives (tests/e2e/support/mailbox.ts). */
export const MAILBOX_DIR = path.resolve("test-results/e2e-mailbox");

export default defineConfig({
  testDir: "./tests/e2e",
  outputDir: "./test-results/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: true,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  // A whole journey (sign up, filter, page, go back) on a two-core machine that
  // also runs the server and a second browser took up to 25 s in CI, and the
  // dashboard's (sign in, a guest's whole purchase, two axe runs) ran out of 60 s
  // on a 2-core Xeon at half that pace: the limit only catches a test that hangs,
  // since no test here measures speed (npm run bench does), so it leaves room.
  timeout: 120_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: BASE_URL,
    // Recording a trace of every test costs a fifth of the suite's time, for the few that fail:
    // `npm test` runs the suite without (E2E_TRACE=off) and runs a failed test again with one.
    trace: (process.env.E2E_TRACE as "on" | "off" | undefined) ?? "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: "node tests/e2e/serve.mjs",
    url: `${BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    // The demo identity provider stands in for Google; TRUST_PROXY lets each
    // account test present its own client address (X-Forwarded-For), so the
    // rate limits of one test never reach another.
    // Emails go over SMTP to a server that serve.mjs starts (E2E_MAILBOX_DIR).
    // OWNER_EMAILS: the back office's owner (tests/e2e/support/back-office.ts).
    env: {
      PORT: String(PORT),
      DEMO_IDENTITY_PROVIDER: "1",
      // Card payments on the shop's own stand-in for Stripe, as the README's demo runs them.
      DEMO_PAYMENT_PROVIDER: "1",
      TRUST_PROXY: "1",
      E2E_MAILBOX_DIR: MAILBOX_DIR,
      OWNER_EMAILS: "owner@backline.test",
    },
  },
});
