// `npm test`: every check and test, in the order that fails fastest.
// Database tests run on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function run(title, command, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`\n✖ ${title} failed`);
    process.exit(result.status ?? 1);
  }
}

if (!fs.existsSync(CHROMIUM)) {
  console.error(
    `The end-to-end tests drive Debian's Chromium, which is not installed (${CHROMIUM}).\n` +
      "Install it with: apt-get update && apt-get install -y chromium   (or set CHROMIUM_PATH)",
  );
  process.exit(1);
}

console.log(
  process.env.TEST_DATABASE_URL
    ? "Database tests: PGlite and PostgreSQL (TEST_DATABASE_URL)"
    : "Database tests: PGlite only (set TEST_DATABASE_URL=postgres://… to include PostgreSQL)",
);
run("Type check", "react-router", ["typegen"]);
run("Type check", "tsc", ["--noEmit"]);
run("Lint", "biome", ["check", "."]);
// The integration and end-to-end tests run the production build, as a client would.
run("Production build", "react-router", ["build"]);
run("Unit and integration tests", "vitest", [
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile.json=test-results/vitest.json",
]);
run("End-to-end tests (Chromium)", "playwright", ["test"]);

// One closing line for CI, counting both runners.
const unit = JSON.parse(fs.readFileSync("test-results/vitest.json", "utf8"));
const e2e = JSON.parse(fs.readFileSync("test-results/e2e.json", "utf8")).stats;
const passed = unit.numPassedTests + e2e.expected;
const failed = unit.numFailedTests + e2e.unexpected + e2e.flaky;
console.log(`\nTests: ${passed} passed, ${failed} failed`);
