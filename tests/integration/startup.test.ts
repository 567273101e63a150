import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  freePort,
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

  it("creates the schema on an empty database and loads the demo catalogue", async () => {
    const shop = await start();
    expect(fs.readdirSync(shop.dataDir).length).toBeGreaterThan(0);
    expect(await count(shop)).toBeGreaterThanOrEqual(60);
  });

  it("keeps the data across a restart", async () => {
    const dataDir = temporaryDataDir();
    const first = await start({ DATA_DIR: dataDir });
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
    const dataDir = temporaryDataDir();
    // The lock a process leaves when it is killed: nobody refreshes it any more.
    const lock = `${dataDir}/backline.lock`;
    fs.mkdirSync(lock);
    const aMinuteAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, aMinuteAgo, aMinuteAgo);
    const shop = await start({ DATA_DIR: dataDir });
    expect((await fetch(`${shop.url}/healthz`)).status).toBe(200);
  });
});
