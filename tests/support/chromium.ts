import fs from "node:fs";

/**
 * Debian's headless shell (package chromium-headless-shell), which is what Playwright itself runs
 * headless tests in: the full browser in headless mode also starts its window's own WebUI pages
 * for every new context, which cost twice the CPU time per test on a two-core machine (12 contexts
 * loading the shop's home page: 10.3 s of CPU against 4.5 s). Debian's full Chromium when the
 * shell is not installed.
 */
const HEADLESS_SHELL_PATH = "/usr/bin/chromium-headless-shell";
const FULL_CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * The Chromium the tests and scripts launch. Without the background-networking flags Chromium
 * keeps trying hosts this machine cannot reach.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  (fs.existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : FULL_CHROMIUM_PATH);

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
