// `npm run screenshots [-- URL]`: pictures of the shop page at a phone's and a desktop's width, in
// test-results/screenshots/, for a person to look at after changing the layout. Nothing is compared
// or asserted, so this is a script, not a test (the e2e suite checks the layout: tests/e2e/layout.spec.ts).
//
// With a URL it photographs that shop. Without one it starts the production build (`npm start`,
// which builds first when the sources changed) on a fresh embedded database of its own, and stops it
// afterwards.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../tests/support/chromium";
import { freePort } from "../tests/support/shop-process";

const root = path.resolve(import.meta.dirname, "..");
const outputDir = path.join(root, "test-results/screenshots");
const WIDTHS = [
  { name: "phone", width: 375, height: 812 },
  { name: "desktop", width: 1280, height: 900 },
];
/** Room for a first build (about a minute on two cores) and the catalogue's first read. */
const START_TIMEOUT_MS = 300_000;

const givenUrl = process.argv[2];
const shop = givenUrl ? null : await startShop();
const url = givenUrl ?? shop?.url ?? "";
try {
  fs.mkdirSync(outputDir, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    for (const { name, width, height } of WIDTHS) {
      await page.setViewportSize({ width, height });
      await page.goto(url);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      // Lazy pictures load now rather than on scroll; then every picture is waited for.
      await page.evaluate(() => {
        for (const image of document.querySelectorAll("img[loading=lazy]"))
          (image as HTMLImageElement).loading = "eager";
      });
      await page.waitForFunction(() =>
        [...document.images].every((image) => image.complete && image.naturalWidth > 0),
      );
      const file = path.join(outputDir, `shop-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      process.stdout.write(
        `The shop page on a ${name} (${width} px): ${path.relative(process.cwd(), file)}\n`,
      );
    }
  } finally {
    await browser.close();
  }
} finally {
  await shop?.stop();
}

/** The production build on a free port and a throwaway embedded database; resolves once it is ready. */
async function startShop(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-screenshots-"));
  const { DATABASE_URL: _ignored, ...env } = process.env;
  // stdout carries the shop's log lines, not wanted here; stderr says what `npm start` is doing.
  const child = spawn(process.execPath, [path.join(root, "scripts/start.mjs")], {
    cwd: root,
    env: { ...env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const shopUrl = `http://127.0.0.1:${port}`;
  try {
    await untilReady(child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: shopUrl, stop };
}

/**
 * Resolves on the shop's own "Backline is ready" line (server/start.ts), passing on everything
 * it says to this script's stderr; rejects when it exits or stays silent for START_TIMEOUT_MS.
 */
function untilReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let said = "";
    const timer = setTimeout(
      () => reject(new Error(`the shop was not ready within ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    );
    const settle = () => clearTimeout(timer);
    child.stderr?.on("data", (chunk: Buffer) => {
      process.stderr.write(chunk);
      said += chunk.toString("utf8");
      if (said.includes("Backline is ready")) {
        settle();
        resolve();
      }
    });
    child.once("exit", (code) => {
      settle();
      reject(new Error(`the shop exited with code ${code} while starting`));
    });
  });
}
