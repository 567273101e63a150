import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { testProcessFlags } from "./test-node-flags";

/** The build's entry, read when a process starts: bench/compare-builds.ts sets BUILD_DIR per build. */
const entry = () => path.resolve(process.env.BUILD_DIR ?? "build", "server/index.js");

/** Names the folder a shop's embedded database starts from in tests (shop-data-template.ts). */
export const SHOP_DATA_TEMPLATE = "BACKLINE_TEST_SHOP_DATA_TEMPLATE";

export interface ShopProcess {
  /** The shop's BASE_URL (http://127.0.0.1:PORT unless the test set another). */
  url: string;
  port: number;
  dataDir: string;
  pid: number;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /**
   * Resolves with the first line of output that matches, or rejects after `timeoutMs`; with
   * `since` (a length of `output()` taken before), only among the lines printed after it.
   */
  waitForOutput(pattern: RegExp, timeoutMs?: number, since?: number): Promise<string>;
  /** Resolves with the exit code once the process has exited (null: killed by a signal). */
  exited: Promise<number | null>;
  /** Sends a signal without waiting. */
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM and wait for exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function temporaryDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "backline-test-"));
}

/**
 * A new folder for DATA_DIR that holds what a first start leaves (the run's
 * template, shop-data-template.ts), for a test that restarts shops on one
 * folder and is not about the first start; empty when there is no template.
 */
export function preparedDataDir(): string {
  const dataDir = temporaryDataDir();
  const template = process.env[SHOP_DATA_TEMPLATE];
  if (template) fs.cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

function assertBuilt(): string {
  const built = entry();
  if (!fs.existsSync(built)) {
    throw new Error("These tests run the production build: run `npm run build` first (npm test does).");
  }
  return built;
}

/** Runs the built server to its exit, for start-up failures. */
export function runShopToExit(
  env: Record<string, string | undefined>,
  timeoutMs = 30_000,
): Promise<{ code: number | null; output: string }> {
  const serverEntry = assertBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...testProcessFlags(), serverEntry], {
      env: childEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the shop did not exit within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * Starts the built server without waiting for it; `ready()` resolves once
 * /healthz answers 200. For tests that start a shop before its database.
 */
export async function spawnShopProcess(
  env: Record<string, string | undefined> = {},
): Promise<ShopProcess & { ready(timeoutMs?: number): Promise<void> }> {
  const serverEntry = assertBuilt();
  const port = env.PORT ? Number(env.PORT) : await freePort();
  // A data folder made here is removed once the process has exited; one the test passed is its own.
  const ownDataDir = env.DATA_DIR === undefined;
  // A folder made here for the embedded database starts as the run's template (migrated and seeded),
  // unless the test asks for a shop without the demo catalogue.
  const empty = env.DATABASE_URL || ["0", "false"].includes(env.SEED_DEMO_CATALOG ?? "");
  const dataDir = env.DATA_DIR ?? (empty ? temporaryDataDir() : preparedDataDir());
  const url = env.BASE_URL ?? `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [...testProcessFlags(), serverEntry], {
    // In the checkout the build is of (BUILD_DIR): its migrations, not this one's, are what it applies.
    cwd: path.resolve(path.dirname(serverEntry), "../.."),
    env: childEnv({ PORT: String(port), DATA_DIR: dataDir, BASE_URL: url, ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk;
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const direct = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    dataDir,
    pid: child.pid ?? -1,
    output: () => output,
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
    waitForOutput(pattern, timeoutMs = 30_000, since = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = output
            .slice(since)
            .split("\n")
            .find((candidate) => pattern.test(candidate));
          if (line === undefined) return;
          cleanup();
          resolve(line);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no output matched ${pattern} within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async ready(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the shop exited during start-up:\n${output}`);
        try {
          if ((await fetch(`${direct}/healthz`)).ok) return;
        } catch {
          // Not listening yet.
        }
        if (Date.now() > deadline) {
          child.kill("SIGKILL");
          throw new Error(`the shop did not become healthy within ${timeoutMs / 1000} s:\n${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

/** Starts the built server and resolves once /healthz answers 200. */
export async function startShopProcess(env: Record<string, string | undefined> = {}): Promise<ShopProcess> {
  const shop = await spawnShopProcess(env);
  await shop.ready();
  return shop;
}

function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
  };
  const merged = { ...base, ...env };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
}
