import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { EventEmitter, once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { describeWhen, SCRIPT, terminalRecorder } from "../support/requirements";
import {
  freePort,
  preparedDataDir,
  runShopToExit,
  type ShopProcess,
  startShopProcess,
  temporaryDataDir,
} from "../support/shop-process";

const running: ShopProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((shop) => shop.stop()));
});

async function start(env: Record<string, string> = {}) {
  const shop = await startShopProcess(env);
  running.push(shop);
  return shop;
}

const count = async (shop: ShopProcess) =>
  ((await (await fetch(`${shop.url}/counts`)).json()) as { count: number }).count;

// Most cases begin with a first start on a fresh embedded database, which creates it, migrates and
// seeds: on a busy 2-core machine that alone has taken over 30 s.
describe("start-up", { timeout: 90_000 }, () => {
  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://root@localhost/shop" }, "DATABASE_URL"],
    [{ CATALOG_CACHE_SECONDS: "-1" }, "CATALOG_CACHE_SECONDS"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ SMTP_URL: "mail.example.com:587" }, "SMTP_URL"],
    [{ SHOP_CURRENCY: "usd" }, "SHOP_CURRENCY"],
    [{ SHOP_CURRENCY: "DOLLARS" }, "SHOP_CURRENCY"],
    [{ SHOP_LOCALE: "xx-NOWHERE" }, "SHOP_LOCALE"],
    // Yen have no minor unit: a shipping price of 4.99 is no yen amount.
    [{ SHOP_CURRENCY: "JPY", SHIPPING_STANDARD: "4.99" }, "SHIPPING_STANDARD"],
  ])("refuses bad configuration %o with a message naming %s", async (env, variable) => {
    const { code, output } = await runShopToExit({ DATA_DIR: temporaryDataDir(), ...env });
    expect(code).toBe(1);
    expect(output).toContain("Backline could not start: Invalid configuration");
    expect(output).toContain(variable);
    expect(output).not.toMatch(/\n\s+at /); // no stack trace
  });

  it("never prints the SMTP URL, which holds a password, not even a wrong one", async () => {
    const { code, output } = await runShopToExit({
      DATA_DIR: temporaryDataDir(),
      SMTP_URL: "http://user:s3cret-pass@mail.example.com",
    });
    expect(code).toBe(1);
    expect(output).toContain("SMTP_URL=(hidden): must be an smtp:// or smtps:// URL");
    expect(output).not.toContain("s3cret-pass");
  });

  it("creates the schema on an empty database, loads the demo catalogue, and keeps the data across a restart", async () => {
    // A folder of its own, empty: a real first start, not the test run's prepared folder.
    const dataDir = temporaryDataDir();
    const first = await start({ DATA_DIR: dataDir, LOG_LEVEL: "info" });
    expect(first.output()).toContain("loaded the demo catalogue");
    expect(fs.readdirSync(first.dataDir).length).toBeGreaterThan(0);
    expect(await count(first)).toBeGreaterThanOrEqual(60);
    const before = (await (
      await fetch(`${first.url}/all-products?size=100&sort=date-added`)
    ).json()) as unknown[];
    expect(await first.stop()).toBe(0);

    const second = await start({ DATA_DIR: dataDir, SEED_DEMO_CATALOG: "0" });
    const after = (await (
      await fetch(`${second.url}/all-products?size=100&sort=date-added`)
    ).json()) as unknown[];
    expect(after).toEqual(before);
    expect(after.length).toBeGreaterThanOrEqual(60);
    await second.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses a second process on the same DATA_DIR with a clear message", async () => {
    const first = await start();
    const { code, output } = await runShopToExit({ DATA_DIR: first.dataDir, PORT: String(await freePort()) });
    expect(code).toBe(1);
    expect(output).toContain("is already in use by another Backline process");
    // The first process is unharmed.
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
  });

  it("takes over the lock left by a process that died (not refreshed for longer than the stale time)", async () => {
    const dataDir = preparedDataDir();
    // The lock a process leaves when it is killed: nobody refreshes it any more.
    const lock = `${dataDir}/backline.lock`;
    fs.mkdirSync(lock);
    const aMinuteAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, aMinuteAgo, aMinuteAgo);
    const shop = await start({ DATA_DIR: dataDir });
    expect((await fetch(`${shop.url}/healthz`)).status).toBe(200);
  });
});

// `npm start` as a newcomer meets it: nothing built yet, an empty data folder, the local demo on.
// It runs scripts/start.mjs (what `npm start` runs) with a build folder of its own inside the
// repository, where the build's packages resolve.
const firstStartBuild = `build-first-start-${randomBytes(4).toString("hex")}`;
const startedByTheseTests: ChildProcess[] = [];
afterAll(() => {
  // Whatever a failed test left running.
  for (const child of startedByTheseTests) if (child.exitCode === null) child.kill("SIGKILL");
  fs.rmSync(firstStartBuild, { recursive: true, force: true });
  fs.rmSync(`${firstStartBuild}.log`, { force: true });
});

/** The environment of a newcomer's `DEMO_IDENTITY_PROVIDER=1 npm start` (no NODE_ENV: start.mjs sets it). */
const newcomer = (port: number) => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  PORT: String(port),
  DATA_DIR: temporaryDataDir(),
  BUILD_DIR: firstStartBuild,
  DEMO_IDENTITY_PROVIDER: "1",
});

/** Collects a stream's text; `waitFor` resolves once it matches, and fails if the stream ends first. */
function collect(stream: NodeJS.ReadableStream | null) {
  let text = "";
  let ended = false;
  const changed = new EventEmitter();
  stream?.on("data", (chunk) => {
    text += chunk;
    changed.emit("change");
  });
  stream?.on("end", () => {
    ended = true;
    changed.emit("change");
  });
  return {
    text: () => text,
    async waitFor(pattern: RegExp) {
      while (!pattern.test(text)) {
        if (ended) throw new Error(`the output ended without ${pattern}:\n${text}`);
        await once(changed, "change");
      }
    },
  };
}

const BUILD_CHATTER = /modules transformed|✓ built in|PLUGIN_TIMINGS|vite v\d|gzip:/;

describe("the first `npm start`", { timeout: 300_000 }, () => {
  it("says it builds, builds without its chatter, says when the shop is ready and what the demo turns on, and logs JSON on stdout without a terminal", async () => {
    const port = await freePort();
    const start: ChildProcess = spawn(process.execPath, ["scripts/start.mjs"], {
      env: newcomer(port),
      stdio: ["ignore", "pipe", "pipe"],
    });
    startedByTheseTests.push(start);
    const exited = once(start, "exit");
    const stdout = collect(start.stdout);
    const stderr = collect(start.stderr);
    await stderr.waitFor(/Backline is ready: /);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    start.kill("SIGTERM");
    expect((await exited)[0]).toBe(0);

    const said = stderr.text();
    expect(said).toContain("First start: building the shop (about a minute");
    expect(said).toMatch(/\nBuilt in \d+ s \(the build's output is in .*build-first-start-\w+\.log\)\.\n/);
    expect(said).toContain(
      [
        `Backline is ready: http://localhost:${port}`,
        "  Demo sign-in: 'Continue with Google' signs in any email through a local stand-in for Google.",
        `  The emails it sends (confirmations, password resets): http://localhost:${port}/dev/outbox`,
      ].join("\n"),
    );
    expect(said).not.toMatch(BUILD_CHATTER);
    expect(fs.readFileSync(`${firstStartBuild}.log`, "utf8")).toMatch(BUILD_CHATTER);
    // stdout holds the logs only, each line one JSON record.
    const lines = stdout.text().trim().split("\n");
    const records = lines.map((line) => JSON.parse(line) as { msg?: string });
    expect(records.map((record) => record.msg)).toContain(`listening on 127.0.0.1:${port}`);
    expect(stdout.text()).not.toMatch(BUILD_CHATTER);
  });
});

describeWhen(
  [terminalRecorder],
  "`npm start` on a terminal",
  () => {
    it("logs readable lines instead of JSON, and says when the shop is ready", async () => {
      const port = await freePort();
      const work = fs.mkdtempSync(path.join(temporaryDataDir(), "terminal-"));
      const pidFile = path.join(work, "pid");
      // `exec` makes the shell's pid the shop's, to stop it with SIGTERM as Ctrl-C's neighbour would.
      const command = `sh -c 'echo $$ > ${pidFile}; exec ${process.execPath} scripts/start.mjs'`;
      const run = spawn(SCRIPT as string, ["-qfec", command, path.join(work, "typescript")], {
        env: newcomer(port),
        stdio: ["ignore", "pipe", "pipe"],
      });
      const exited = once(run, "exit");
      const drawn = collect(run.stdout);
      try {
        await drawn.waitFor(/Backline is ready: /);
      } finally {
        process.kill(Number(fs.readFileSync(pidFile, "utf8")), "SIGTERM");
      }
      expect((await exited)[0]).toBe(0);

      const text = drawn.text();
      expect(text).toMatch(/\d\d:\d\d:\d\d .*INFO.* listening on 127\.0\.0\.1:\d+/);
      expect(text).toMatch(/WARN.* DEMO_IDENTITY_PROVIDER=1/);
      expect(text).toContain(`Backline is ready: http://localhost:${port}`);
      expect(text).not.toContain('"level":');
      expect(text).not.toMatch(BUILD_CHATTER);
    });
  },
  { timeout: 300_000 },
);
