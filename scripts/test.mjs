// `npm test`: every check and test, in the order that fails fastest, on any machine with npm.
//
// What the tests need beyond Node is provided here when it is missing and may be installed:
// Chromium for the browser tests (Debian's package through apt when running as root or with
// password-less sudo, otherwise Playwright's own download) and HAProxy for the scale-out test
// (Debian's package). Suites that still cannot run (no PostgreSQL or Redis server configured,
// nothing could be installed) are reported as skipped, each with its reason, and counted in the
// closing line. TEST_INSTALL=0 never installs anything.
//
// TEST_SERVICES_PASS=1 is CI's second pass, with PostgreSQL and Redis configured: it runs only what
// those services change — the build and the Vitest files that use them, without their runs on the
// embedded database (tests/support/requirements.ts, SERVICES_PASS) — and says so, because the
// type check, lint, the other test files and the end-to-end suite (always on the embedded database)
// gave their answer in the first pass.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

const RESULTS = "test-results";
const MAY_INSTALL = process.env.TEST_INSTALL !== "0";
const SERVICES_PASS = process.env.TEST_SERVICES_PASS === "1";

const started = performance.now();

/** A step's heading in the test command's report, with when it started. */
function step(title) {
  const seconds = Math.round((performance.now() - started) / 1000);
  say(`\n▶ ${title} (at ${seconds} s)`);
}

/**
 * A line of the test command's report: terminal output a person (or CI's log) reads, not the
 * shop's logging — the shop's JSON logger is for the running shop.
 */
function say(line) {
  process.stdout.write(`${line}\n`);
}

function run(title, command, args, { env = {}, mayFail = false } = {}) {
  step(title);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0 && !mayFail) {
    console.error(`\n✖ ${title} failed`);
    process.exit(result.status ?? 1);
  }
  return result.status === 0;
}

function quiet(command, args, options = {}) {
  return spawnSync(command, args, { encoding: "utf8", ...options });
}

const onPath = (command) => quiet("sh", ["-c", `command -v ${command}`]).status === 0;

/** How this user may install Debian packages: directly as root, through password-less sudo, or not at all. */
function aptRunner() {
  if (!MAY_INSTALL || !onPath("apt-get")) return null;
  if (process.getuid?.() === 0) return [];
  if (onPath("sudo") && quiet("sudo", ["-n", "true"]).status === 0) return ["sudo", "-n"];
  return null;
}

let aptUpdated = false;
function aptInstall(packages) {
  const prefix = aptRunner();
  if (!prefix) return false;
  const apt = (args) => {
    const [command, ...rest] = [...prefix, "apt-get", ...args];
    return (
      quiet(command, rest, {
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      }).status === 0
    );
  };
  say(`Installing Debian's ${packages.join(", ")} with apt-get…`);
  if (!aptUpdated) aptUpdated = apt(["update", "-qq"]);
  return apt(["install", "-y", "-qq", "--no-install-recommends", ...packages]);
}

/**
 * Debian's headless shell (tests/support/chromium.ts says why), else its full Chromium, each
 * installed through apt when missing and allowed; null when neither can be had.
 */
function debianChromium() {
  for (const [binary, pkg] of [
    ["/usr/bin/chromium-headless-shell", "chromium-headless-shell"],
    ["/usr/bin/chromium", "chromium"],
  ]) {
    if (fs.existsSync(binary) || (aptInstall([pkg]) && fs.existsSync(binary))) return binary;
  }
  return null;
}

/** A Chromium for the browser tests: CHROMIUM_PATH, Debian's, or Playwright's; null with the reason. */
function provideChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    return fs.existsSync(configured)
      ? { path: configured }
      : { reason: `CHROMIUM_PATH=${configured} does not exist` };
  }
  const debian = debianChromium();
  if (debian) return { path: debian };
  if (MAY_INSTALL) {
    say("Debian's Chromium could not be installed: trying Playwright's own browser download…");
    if (quiet("playwright", ["install", "chromium"], { stdio: "inherit" }).status === 0) {
      const found = quiet(process.execPath, [
        "-e",
        "process.stdout.write(require('playwright-core').chromium.executablePath())",
      ]).stdout;
      if (found && fs.existsSync(found)) return { path: found };
    }
  }
  return {
    reason: MAY_INSTALL
      ? "no Chromium: install Debian's (apt-get install chromium-headless-shell, as root) or allow Playwright's download, or set CHROMIUM_PATH"
      : "no Chromium and TEST_INSTALL=0: set CHROMIUM_PATH",
  };
}

/** HAProxy for the scale-out test; when it cannot be had, that test says so itself. */
function provideHaproxy() {
  if (process.env.HAPROXY_PATH || onPath("haproxy") || fs.existsSync("/usr/sbin/haproxy")) return;
  aptInstall(["haproxy"]);
}

// TEST_PROVIDE_ONLY=1: only Debian's Chromium and HAProxy, then stop (CI installs them while npm installs).
if (process.env.TEST_PROVIDE_ONLY === "1") {
  if (!process.env.CHROMIUM_PATH) debianChromium();
  provideHaproxy();
  process.exit(0);
}

fs.rmSync(RESULTS, { recursive: true, force: true });
fs.mkdirSync(RESULTS, { recursive: true });

const chromium = provideChromium();
provideHaproxy();
const browserEnv = chromium.path ? { CHROMIUM_PATH: chromium.path } : {};

say(
  process.env.TEST_DATABASE_URL
    ? "Database tests: PGlite and PostgreSQL (TEST_DATABASE_URL)"
    : "Database tests: PGlite only; the PostgreSQL suites are skipped (set TEST_DATABASE_URL=postgres://… to run them)",
);
say(
  process.env.TEST_REDIS_URL
    ? "Redis tests: on (TEST_REDIS_URL)"
    : "Redis tests: skipped (set TEST_REDIS_URL=redis://… to run them)",
);
say(chromium.path ? `Browser tests: ${chromium.path}` : `Browser tests: skipped (${chromium.reason})`);

if (SERVICES_PASS) {
  step("Type check, lint and unused-code check: not repeated (TEST_SERVICES_PASS=1)");
} else {
  run("Type check", "react-router", ["typegen"]);
  run("Type check", "tsc", ["--noEmit"]);
  run("Lint", "biome", ["check", "."]);
  run("Unused files, exports and dependencies", "knip", []);
}
// The integration and end-to-end tests run the production build, as a client would. CI's second
// pass runs on the same checkout right after the first, and says so (TEST_REUSE_BUILD=1).
if (process.env.TEST_REUSE_BUILD === "1" && fs.existsSync("build/server/index.js")) {
  step("Production build: the one just made from this checkout (TEST_REUSE_BUILD=1)");
} else {
  run("Production build", "react-router", ["build"]);
}
const servicesOnly = SERVICES_PASS ? testFilesUsingServices() : [];
if (SERVICES_PASS) {
  step(
    `Unit and integration tests: the ${servicesOnly.length} files that use PostgreSQL or Redis, without their embedded-database runs; those and the other files ran in the first pass (TEST_SERVICES_PASS=1)`,
  );
}
const unitPassed = run(
  "Unit and integration tests",
  "vitest",
  [
    "run",
    ...servicesOnly,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${RESULTS}/vitest.json`,
    "--reporter=./tests/support/skip-reasons-reporter.ts",
  ],
  { env: browserEnv, mayFail: true },
);

let e2e = { passed: 0, failed: 0, skipped: 0 };
let e2ePassed = true;
let e2eReport = null;
if (SERVICES_PASS) {
  // Not counted as skipped: the same tests ran, on the same engine, in the first pass.
  step("End-to-end tests: not repeated — they run on the embedded database only (TEST_SERVICES_PASS=1)");
} else if (chromium.path) {
  e2ePassed = run("End-to-end tests (Chromium)", "playwright", ["test"], {
    env: { ...browserEnv, E2E_TRACE: "off" },
    mayFail: true,
  });
  e2eReport = readJson(`${RESULTS}/e2e.json`);
  if (!e2ePassed) {
    // For the diagnosis only: the failures stay counted whatever this run does.
    run(
      "End-to-end tests that failed, once more with a trace (test-results/e2e/*/trace.zip; npx playwright show-trace)",
      "playwright",
      ["test", "--last-failed", "--reporter=list"],
      { env: { ...browserEnv, E2E_TRACE: "on" }, mayFail: true },
    );
  }
  if (e2eReport) {
    e2e = {
      passed: e2eReport.stats.expected,
      failed: e2eReport.stats.unexpected + e2eReport.stats.flaky,
      skipped: e2eReport.stats.skipped,
    };
  } else e2e.failed = 1;
} else {
  // Counted, not hidden: list the suite's tests without running them.
  const listed = quiet("playwright", ["test", "--list", "--reporter=json"], { maxBuffer: 64 * 1024 * 1024 });
  const report = listed.status === 0 ? JSON.parse(listed.stdout) : null;
  const count = (suites = []) =>
    suites.reduce((sum, suite) => sum + (suite.specs?.length ?? 0) + count(suite.suites), 0);
  e2e.skipped = report ? count(report.suites) : 0;
  step(`End-to-end tests (Chromium): ${e2e.skipped} tests skipped — ${chromium.reason}`);
}

// One closing summary for CI, counting both runners.
const unit = readJson(`${RESULTS}/vitest.json`);
const skippedSuites = readJson(`${RESULTS}/skipped.json`) ?? [];
if (!chromium.path && e2e.skipped > 0) {
  skippedSuites.push({ test: `tests/e2e (${e2e.skipped} tests)`, reason: chromium.reason });
}
const passed = (unit?.numPassedTests ?? 0) + e2e.passed;
const failed = (unit ? unit.numFailedTests : 1) + e2e.failed;
const skipped = (unit?.numPendingTests ?? 0) + (unit?.numTodoTests ?? 0) + e2e.skipped;
if (skippedSuites.length > 0) {
  say("\nSkipped, and why:");
  for (const { test, reason } of skippedSuites) say(`  ↓ ${test}\n      ${reason}`);
}
// Named again at the very end, where a CI log cut to its tail still shows them.
const failures = [...failedUnitTests(unit), ...failedBrowserTests(e2eReport)];
if (failures.length > 0) {
  process.stdout.write("\nFailed:\n");
  for (const { test, message } of failures) process.stdout.write(`  ✖ ${test}\n      ${message}\n`);
}
say(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(unitPassed && e2ePassed && failed === 0 ? 0 : 1);

/**
 * The test files whose outcome the configured services can change: those that open the test
 * databases or name the PostgreSQL or Redis requirements. Every other file runs the same with or
 * without them, and did in the first pass.
 */
function testFilesUsingServices() {
  const usesServices =
    /openTestDatabases|createScratchPostgres|postgresServer|redisServer|TEST_DATABASE_URL|TEST_REDIS_URL/;
  return ["app", "server", "scripts", "tests"]
    .flatMap((folder) =>
      fs.readdirSync(folder, { recursive: true }).map((file) => path.join(folder, String(file))),
    )
    .filter((file) => /\.test\.tsx?$/.test(file) && usesServices.test(fs.readFileSync(file, "utf8")))
    .sort();
}

/**
 * The head of a failure, without colour codes: its message and, for an assertion, the expected
 * and received values, so a CI log cut to its tail still says what differed.
 */
function failureHead(text = "") {
  return stripVTControlCharacters(String(text))
    .trim()
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(0, 8)
    .map((line) => line.slice(0, 300))
    .join("\n      ");
}

function failedUnitTests(report) {
  return (report?.testResults ?? []).flatMap((file) => {
    const where = path.relative(process.cwd(), file.name);
    const tests = file.assertionResults
      .filter((test) => test.status === "failed")
      .map((test) => ({
        test: `${where} › ${test.fullName}`,
        message: failureHead(test.failureMessages?.[0]),
      }));
    // A file that failed before any test ran (an import error, a hook) has no failed test to name.
    return tests.length > 0 || file.status !== "failed"
      ? tests
      : [{ test: where, message: failureHead(file.message) }];
  });
}

function failedBrowserTests(report) {
  const failures = [];
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === "unexpected" || test.status === "flaky") {
          const error = test.results?.find((result) => result.error)?.error;
          failures.push({
            test: `${spec.file}:${spec.line} › ${[...titles, spec.title].join(" › ")} (${test.status})`,
            message: failureHead(error?.message),
          });
        }
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of report?.suites ?? []) visit(suite, []);
  return failures;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(path.resolve(file), "utf8"));
  } catch {
    return null;
  }
}
