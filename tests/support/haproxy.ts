import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { HAPROXY } from "./requirements";

/**
 * Debian's HAProxy in front of shop processes, as an operator would run it:
 * round-robin, an HTTP health check on /healthz, X-Forwarded-For added. For
 * the tests it also names the process that answered (X-Backend-Server) and
 * opens an admin socket to read each server's UP/DOWN state.
 */
export interface LoadBalancer {
  url: string;
  /** "UP", "DOWN", … for each backend server, as HAProxy sees it now. */
  status(): Promise<Record<string, string>>;
  /** Resolves once HAProxy reports `server` in `state`. */
  waitFor(server: string, state: "UP" | "DOWN", timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts HAProxy on `port` (the shops' BASE_URL must name it) and resolves once every backend is UP. */
export async function startLoadBalancer(
  port: number,
  backends: { name: string; port: number }[],
): Promise<LoadBalancer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-haproxy-"));
  const socketPath = path.join(dir, "admin.sock");
  const config = [
    "global",
    `  stats socket ${socketPath} level admin`,
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 30s",
    "  timeout server 30s",
    "frontend shop",
    `  bind 127.0.0.1:${port}`,
    "  default_backend shops",
    "backend shops",
    "  balance roundrobin",
    "  option httpchk",
    "  http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host 127.0.0.1",
    "  http-check expect status 200",
    "  option forwardfor",
    // A request whose server has just died is tried once more on another.
    "  option redispatch",
    "  retries 2",
    // Which process answered: for the tests only.
    "  http-response set-header X-Backend-Server %s",
    "  default-server inter 300ms fall 2 rise 1",
    ...backends.map(({ name, port: backendPort }) => `  server ${name} 127.0.0.1:${backendPort} check`),
  ].join("\n");
  const file = path.join(dir, "haproxy.cfg");
  fs.writeFileSync(file, `${config}\n`);

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

  const status = async () => {
    // "show stat" is CSV: pxname,svname,…,status,…
    const [header = "", ...rows] = (await adminCommand("show stat")).trim().split("\n");
    const columns = header.replace(/^# /, "").split(",");
    const name = columns.indexOf("svname");
    const state = columns.indexOf("status");
    return Object.fromEntries(
      rows
        .map((row) => row.split(","))
        .filter((fields) => fields[0] === "shops" && fields[name] !== "BACKEND")
        .map((fields) => [fields[name] ?? "", fields[state] ?? ""]),
    );
  };

  const waitFor = async (server: string, state: string, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = await status().catch(() => ({}) as Record<string, string>);
      if (current[server]?.startsWith(state)) return;
      if (Date.now() > deadline) {
        throw new Error(
          `HAProxy did not report ${server} ${state} within ${timeoutMs} ms (${JSON.stringify(current)})\n${output}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  // Ready once the admin socket answers and every backend has passed its first check.
  for (const { name } of backends) await waitFor(name, "UP");

  return {
    url: `http://127.0.0.1:${port}`,
    status,
    waitFor,
    async stop() {
      child.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
