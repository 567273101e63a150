import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { EventEmitter, once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CookieClient, logIn, signUp } from "../support/http-client";
import { describeWhen, mountableTmpfs } from "../support/requirements";
import { runShopToExit, startShopProcess, temporaryDataDir } from "../support/shop-process";

/**
 * The embedded database (PGlite in DATA_DIR) when things go wrong: the shop
 * killed mid-write, a full disk, a folder others could read, a bad secret file.
 */

const STACK_TRACE = /\n\s+at .+[(:]\d+/;
const someAddress = () =>
  `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + ((randomBytes(1)[0] ?? 0) % 250)}`;
const newEmail = (label: string) => `${label}-${randomBytes(5).toString("hex")}@example.com`;

describe("the embedded database", () => {
  // Each restart after a kill -9 waits for the dead process's folder lock to go stale (10 s).
  it("keeps every acknowledged sign-up through five kill -9s in the middle of sign-ups", {
    timeout: 150_000,
  }, async () => {
    const dataDir = temporaryDataDir();
    const acknowledged: string[] = [];
    const answered = new EventEmitter();
    for (let round = 0; round < 5; round++) {
      const shop = await startShopProcess({ DATA_DIR: dataDir, TRUST_PROXY: "1", SEED_DEMO_CATALOG: "0" });
      let running = true;
      const inFlight = async () => {
        while (running) {
          const email = newEmail(`round${round}`);
          try {
            const response = await signUp(new CookieClient(), shop.url, email, {
              "X-Forwarded-For": someAddress(),
            });
            if (response.status === 302) {
              acknowledged.push(email);
              answered.emit("acknowledged");
            }
          } catch {
            // The shop died under this request: it was never acknowledged.
          }
        }
      };
      const writers = [inFlight(), inFlight(), inFlight()];
      const target = acknowledged.length + 4;
      while (acknowledged.length < target) await once(answered, "acknowledged");
      // Killed while the writers are still sending sign-ups.
      shop.kill("SIGKILL");
      await shop.exited;
      running = false;
      await Promise.all(writers);
    }
    const shop = await startShopProcess({ DATA_DIR: dataDir, TRUST_PROXY: "1", SEED_DEMO_CATALOG: "0" });
    try {
      for (const email of acknowledged) {
        const response = await logIn(new CookieClient(), shop.url, email, undefined, {
          "X-Forwarded-For": someAddress(),
        });
        expect(response.status, email).toBe(302);
      }
      expect(acknowledged.length).toBeGreaterThanOrEqual(20);
    } finally {
      await shop.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // Two shops start on fresh embedded databases (each migrates and loads the demo catalogue, 15–25 s on
  // a busy 2-core machine): more than the default 30 s, which a newcomer's run once exceeded.
  it("keeps its folder readable by the shop's user only (0700, files 0600), and tightens a looser one", {
    timeout: 90_000,
  }, async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "backline-private-"));
    const created = path.join(parent, "created-by-the-shop");
    const first = await startShopProcess({ DATA_DIR: created });
    await first.stop();
    const loose = path.join(parent, "loose");
    fs.mkdirSync(loose, { mode: 0o755 });
    fs.writeFileSync(path.join(loose, "notes.txt"), "left by someone", { mode: 0o644 });
    fs.chmodSync(loose, 0o755);
    // The files a first start writes were checked above: this one only has to tighten the folder.
    const second = await startShopProcess({ DATA_DIR: loose, SEED_DEMO_CATALOG: "0" });
    await second.stop();
    try {
      for (const folder of [created, loose]) {
        expect((fs.statSync(folder).mode & 0o777).toString(8)).toBe("700");
        const open = fs
          .readdirSync(folder, { recursive: true, withFileTypes: true })
          .map((entry) => path.join(entry.parentPath, entry.name))
          .filter((file) => (fs.statSync(file).mode & 0o077) !== 0);
        expect(open).toEqual([]);
      }
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it.each([
    ["readable by others", "x".repeat(44), 0o644, /can be read by other users \(mode 644\)\. Run `chmod 600/],
    ["empty", "", 0o600, /is empty\./],
    ["too short", "short-secret", 0o600, /is too short \(12 characters; at least 32\)/],
  ])("refuses a session secret file that is %s, saying what to do", async (_what, content, mode, message) => {
    const dataDir = temporaryDataDir();
    fs.writeFileSync(path.join(dataDir, "auth-secret"), content, { mode });
    fs.chmodSync(path.join(dataDir, "auth-secret"), mode);
    const { code, output } = await runShopToExit({ DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(output).toMatch(message);
    expect(output).toMatch(/set BETTER_AUTH_SECRET/);
    expect(output).not.toMatch(STACK_TRACE);
    if (content) expect(output).not.toContain(content);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

/** A small file system of its own: a tmpfs that the test can fill up. */
function smallDisk(megabytes: number) {
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "backline-disk-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", mountPoint]);
  return {
    path: mountPoint,
    /** Takes every free byte with one file; returns a function that gives them back. */
    fill() {
      const filler = path.join(mountPoint, "filler");
      const chunk = Buffer.alloc(1024 * 1024);
      const fd = fs.openSync(filler, "w");
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      } finally {
        fs.closeSync(fd);
      }
      return () => fs.rmSync(filler);
    },
    remove() {
      execFileSync("umount", ["-l", mountPoint]);
      fs.rmSync(mountPoint, { recursive: true, force: true });
    },
  };
}

describeWhen([mountableTmpfs], "the embedded database on a full disk", () => {
  const disks: ReturnType<typeof smallDisk>[] = [];
  afterAll(() => {
    for (const disk of disks) disk.remove();
  });

  it("a start-up on a full disk says so in words", async () => {
    const disk = smallDisk(1);
    disks.push(disk);
    const { code, output } = await runShopToExit({ DATA_DIR: path.join(disk.path, "data") });
    expect(code).toBe(1);
    expect(output).toMatch(
      /Backline could not start: The embedded database in .* cannot be opened: no space left on the disk\. Free some space/,
    );
    expect(output).not.toContain("[object Object]");
    expect(output).not.toMatch(STACK_TRACE);
  });

  it("sign-ups on a disk that filled up fail with 503, leave no trace, and succeed once there is room again", async () => {
    const disk = smallDisk(64);
    disks.push(disk);
    const shop = await startShopProcess({ DATA_DIR: path.join(disk.path, "data"), TRUST_PROXY: "1" });
    try {
      const giveBack = disk.fill();
      // PostgreSQL writes into space it already holds for a while; sign up until the disk bites.
      const refused: string[] = [];
      for (let attempt = 0; attempt < 2000 && refused.length < 3; attempt++) {
        const email = newEmail("full");
        const response = await signUp(new CookieClient(), shop.url, email, {
          "X-Forwarded-For": someAddress(),
        });
        expect([302, 503]).toContain(response.status);
        if (response.status === 503) {
          expect(await response.text()).toContain("Nothing was changed");
          refused.push(email);
        }
      }
      expect(refused.length).toBe(3);
      expect((await fetch(`${shop.url}/all-products`)).status).toBe(200);
      giveBack();
      for (const email of refused) {
        const again = await signUp(new CookieClient(), shop.url, email, { "X-Forwarded-For": someAddress() });
        expect(again.status, `${email} signs up once there is room`).toBe(302);
      }
      expect(shop.output()).not.toMatch(/full-[0-9a-f]+@example\.com/);
    } finally {
      await shop.stop();
    }
  });
});
