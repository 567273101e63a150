/**
 * Debian's Chromium as the tests and benchmarks launch it. Without the
 * background-networking flags Chromium keeps trying hosts this machine
 * cannot reach.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
