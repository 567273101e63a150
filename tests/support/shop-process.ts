import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const ENTRY = path.resolve(process.env.BUILD_DIR ?? "build", "server/index.js");

export interface ShopProcess {
  url: string;
  dataDir: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
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

function assertBuilt() {
  if (!fs.existsSync(ENTRY)) {
    throw new Error("These tests run the production build: run `npm run build` first (npm test does).");
  }
}

/** Runs the built server to its exit, for start-up failures. */
export function runShopToExit(
  env: Record<string, string | undefined>,
  timeoutMs = 30_000,
): Promise<{ code: number | null; output: string }> {
  assertBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ENTRY], { env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
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

/** Starts the built server and resolves once /healthz answers 200. */
export async function startShopProcess(env: Record<string, string | undefined> = {}): Promise<ShopProcess> {
  assertBuilt();
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? temporaryDataDir();
  const child: ChildProcess = spawn(process.execPath, [ENTRY], {
    env: childEnv({ PORT: String(port), DATA_DIR: dataDir, ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the shop exited during start-up:\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the shop did not become healthy within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    dataDir,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
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
