import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { HAPROXY } from "./requirements";

/**
 * Debian's HAProxy in front of shop processes, with the operators' guide's own
 * configuration (the ```haproxy block of docs/operations.md), so what that page
 * tells operators is what the tests run. Only what a test needs is added:
 * its own addresses, an admin socket to read each server's state, and a
 * header naming the process that answered (X-Backend-Server).
 */
export interface LoadBalancer {
  url: string;
  /** The guide's server names, in its order, each now in front of one of the test's shops. */
  servers: string[];
  /** The guide's `default-server` settings, as numbers where they are counts (fall, rise). */
  settings: { fall: number; rise: number };
  /** HAProxy's statistics for each backend server now ("show stat": status, check_health, scur, …). */
  stats(): Promise<Record<string, Record<string, string>>>;
  /** Resolves once HAProxy reports `server` in `state`. */
  waitFor(server: string, state: "UP" | "DOWN", timeoutMs?: number): Promise<void>;
  /** Resolves once `condition` holds for `server`'s statistics (checked every 50 ms). */
  waitUntil(
    server: string,
    what: string,
    condition: (stats: Record<string, string>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/** The HAProxy example of docs/operations.md, exactly as written there. */
function guideHaproxyConfig(): string {
  const guide = fs.readFileSync(path.resolve(import.meta.dirname, "../../docs/operations.md"), "utf8");
  const blocks = [...guide.matchAll(/^```haproxy\n([\s\S]*?)^```$/gm)];
  if (blocks.length !== 1 || !blocks[0]?.[1]) {
    throw new Error(`docs/operations.md should hold exactly one \`\`\`haproxy block; found ${blocks.length}`);
  }
  return blocks[0][1];
}

const SERVER_LINE = /^(\s*server\s+)(\S+)(\s+)(\S+)(.*)$/gm;

/**
 * Starts HAProxy on `port` (the shops' BASE_URL must name it) with the guide's configuration,
 * its servers' addresses replaced by `backendPorts` in order, and resolves once every server is UP.
 */
export async function startLoadBalancer(port: number, backendPorts: number[]): Promise<LoadBalancer> {
  const example = guideHaproxyConfig();
  const servers = [...example.matchAll(SERVER_LINE)].map((match) => match[2] ?? "");
  if (servers.length !== backendPorts.length) {
    throw new Error(
      `the HAProxy example in docs/operations.md has ${servers.length} servers; the test started ${backendPorts.length}`,
    );
  }
  const backend = /^backend\s+(\S+)/m.exec(example)?.[1];
  const binds = example.match(/^\s*bind\s.*$/gm) ?? [];
  if (!backend || binds.length !== 1)
    throw new Error("expected one backend and one bind line in the HAProxy example of docs/operations.md");
  const defaults = /^\s*default-server\s.*$/m.exec(example)?.[0] ?? "";
  const setting = (name: string, fallback: number) =>
    Number(new RegExp(`\\b${name}\\s+(\\d+)`).exec(defaults)?.[1] ?? fallback);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-haproxy-"));
  const socketPath = path.join(dir, "admin.sock");
  let next = 0;
  const config = [
    "global",
    `    stats socket ${socketPath} level admin`,
    example
      .replace(/^(\s*)bind\s.*$/m, `$1bind 127.0.0.1:${port}`)
      .replace(SERVER_LINE, (_line, start, name, gap, _address, rest) => {
        return `${start}${name}${gap}127.0.0.1:${backendPorts[next++]}${rest}`;
      })
      // Which process answered: for the tests only.
      .replace(/^(backend\s+\S+.*)$/m, "$1\n    http-response set-header X-Backend-Server %s"),
  ].join("\n");
  const file = path.join(dir, "haproxy.cfg");
  fs.writeFileSync(file, config);

  const child: ChildProcess = spawn(HAPROXY, ["-f", file, "-db"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const adminCommand = (command: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(socketPath, () => socket.end(`${command}\n`));
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk));
      socket.on("end", () => resolve(answer));
      socket.on("error", reject);
    });

  const stats = async () => {
    // "show stat" is CSV: pxname,svname,…
    const [header = "", ...rows] = (await adminCommand("show stat")).trim().split("\n");
    const columns = header.replace(/^# /, "").split(",");
    return Object.fromEntries(
      rows
        .map((row) => Object.fromEntries(row.split(",").map((value, i) => [columns[i] ?? "", value])))
        .filter((row) => row.pxname === backend && row.svname !== "BACKEND")
        .map((row) => [row.svname ?? "", row]),
    );
  };

  const waitUntil = async (
    server: string,
    what: string,
    condition: (row: Record<string, string>) => boolean,
    timeoutMs = 30_000,
  ) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = (await stats().catch(() => ({}) as Record<string, Record<string, string>>))[server];
      if (current && condition(current)) return current;
      if (Date.now() > deadline) {
        throw new Error(
          `HAProxy did not report ${server} ${what} within ${timeoutMs} ms (${JSON.stringify(current)})\n${output}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const waitFor = async (server: string, state: string, timeoutMs?: number) => {
    await waitUntil(server, state, (row) => row.status?.startsWith(state) ?? false, timeoutMs);
  };

  // Ready once the admin socket answers and every backend has passed its first checks.
  for (const server of servers) await waitFor(server, "UP");

  return {
    url: `http://127.0.0.1:${port}`,
    servers,
    settings: { fall: setting("fall", 3), rise: setting("rise", 2) },
    stats,
    waitFor,
    waitUntil,
    async stop() {
      child.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
