import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { POSTGRES_BIN, REDIS_SERVER } from "./requirements";
import { freePort } from "./shop-process";

/**
 * PostgreSQL and Redis servers of a test's own, on ports of their own, that
 * the test may kill, freeze and restart — the machine's shared servers are
 * never touched. A signal goes to the server and every process it started
 * (PostgreSQL's backends are in sessions of their own), so a crash or a
 * freeze is a whole one.
 */
interface ServerProcess {
  child: ChildProcess;
  exited: Promise<void>;
  /** What the server wrote to stderr, for the message when it does not start. */
  log(): string;
}

interface SpawnOptions {
  cwd?: string;
  uid?: number;
  gid?: number;
}

function spawnGroup(command: string, args: string[], options: SpawnOptions = {}): ServerProcess {
  const child = spawn(command, args, { detached: true, stdio: ["ignore", "ignore", "pipe"], ...options });
  let log = "";
  child.stderr?.on("data", (chunk) => {
    log = (log + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { child, exited, log: () => log };
}

/** The process and all its descendants, parents first, read from /proc. */
function processTree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (command) state ppid …": the command may hold spaces, so read after its last ")".
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree: number[] = [];
  const visit = (pid: number) => {
    tree.push(pid);
    for (const child of parents.get(pid) ?? []) visit(child);
  };
  visit(root);
  return tree;
}

function signalGroup(server: ServerProcess | undefined, signal: NodeJS.Signals) {
  if (!server?.child.pid) return;
  for (const pid of processTree(server.child.pid)) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** Resolves once `probe` succeeds, trying every 50 ms; rejects after `timeoutMs`. */
async function until(probe: () => Promise<unknown>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await probe();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** Starts the server (again) and resolves once it accepts queries. */
  start(): Promise<void>;
  /** Fast shutdown (SIGINT), as `pg_ctl stop -m fast`; resolves once it has exited. */
  stop(): Promise<void>;
  /** kill -9 of the server and all its backends: a crash. */
  crash(): Promise<void>;
  /** SIGSTOP / SIGCONT: the server keeps its connections open but stops answering. */
  freeze(): void;
  thaw(): void;
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  /** Stops the server for good and deletes its files. */
  destroy(): Promise<void>;
}

/** A fresh PostgreSQL cluster (initdb) in a temporary folder, not started yet. */
export async function createPrivatePostgres(): Promise<PrivatePostgres> {
  if (!POSTGRES_BIN) throw new Error("PostgreSQL's server programs are not installed");
  const bin = POSTGRES_BIN;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-pg-"));
  const dataDir = path.join(dir, "data");
  // PostgreSQL refuses to run as root: run it as the postgres user when the tests are root
  // (as our own child, so that a killed server is reaped and its PID really gone).
  const serverUser: SpawnOptions = { cwd: dir };
  if (process.getuid?.() === 0) {
    serverUser.uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    serverUser.gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    fs.chownSync(dir, serverUser.uid, serverUser.gid);
  }
  execFileSync(
    `${bin}/initdb`,
    ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
    { stdio: "ignore", ...serverUser },
  );
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let server: ServerProcess | undefined;

  const query = async <T extends pg.QueryResultRow>(text: string, values?: unknown[]) => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };

  const handle: PrivatePostgres = {
    url,
    port,
    query,
    async start() {
      const started = spawnGroup(
        `${bin}/postgres`,
        [
          "-D",
          dataDir,
          "-p",
          String(port),
          "-k",
          dir,
          "-c",
          "listen_addresses=127.0.0.1",
          "-c",
          "max_connections=60",
        ],
        serverUser,
      );
      server = started;
      await until(() => query("select 1"), "the private PostgreSQL did not start").catch((error: Error) => {
        throw new Error(`${error.message}\n${started.log()}`);
      });
    },
    async stop() {
      signalGroup(server, "SIGINT");
      await server?.exited;
    },
    async crash() {
      signalGroup(server, "SIGKILL");
      await server?.exited;
      // Backends that were not yet reaped go with the group; wait until the port is free.
      await until(
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = net.connect(port, "127.0.0.1");
            socket.once("connect", () => {
              socket.destroy();
              reject(new Error("still listening"));
            });
            socket.once("error", () => resolve());
          }),
        "the crashed PostgreSQL still listens",
      );
    },
    freeze: () => signalGroup(server, "SIGSTOP"),
    thaw: () => signalGroup(server, "SIGCONT"),
    async destroy() {
      signalGroup(server, "SIGCONT");
      signalGroup(server, "SIGKILL");
      await server?.exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return handle;
}

export interface PrivateRedis {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  freeze(): void;
  thaw(): void;
  destroy(): Promise<void>;
}

export async function createPrivateRedis(): Promise<PrivateRedis> {
  if (!REDIS_SERVER) throw new Error("redis-server is not installed");
  const command = REDIS_SERVER;
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-redis-"));
  let server: ServerProcess | undefined;
  const ping = () =>
    new Promise<void>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
      socket.setTimeout(1_000, () => socket.destroy(new Error("no answer")));
      socket.once("data", (data) => {
        socket.destroy();
        data.toString().startsWith("+PONG") ? resolve() : reject(new Error(data.toString()));
      });
      socket.once("error", reject);
    });
  return {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      server = spawnGroup(command, [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dir,
      ]);
      await until(ping, "the private Redis did not start");
    },
    async stop() {
      signalGroup(server, "SIGTERM");
      await server?.exited;
    },
    freeze: () => signalGroup(server, "SIGSTOP"),
    thaw: () => signalGroup(server, "SIGCONT"),
    async destroy() {
      signalGroup(server, "SIGCONT");
      signalGroup(server, "SIGKILL");
      await server?.exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
