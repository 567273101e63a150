import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, it } from "vitest";
import { CHROMIUM_PATH } from "./chromium";

/**
 * What a test suite needs from the machine beyond Node: a PostgreSQL or Redis
 * server, a browser, a load balancer, root. A suite whose needs are not met
 * is reported as skipped *with the reason* (never silently absent), and
 * `npm test` lists those reasons at the end.
 */
export interface Requirement {
  met: boolean;
  /** Why it is not met and how to meet it, e.g. "needs PostgreSQL: set TEST_DATABASE_URL=postgres://…". */
  reason: string;
}

function onPath(command: string): string | null {
  const result = spawnSync("sh", ["-c", `command -v ${command}`], { encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : null;
}

export const postgresServer: Requirement = {
  met: Boolean(process.env.TEST_DATABASE_URL),
  reason: "needs a PostgreSQL server: set TEST_DATABASE_URL=postgres://… (.ci/run does)",
};

export const redisServer: Requirement = {
  met: Boolean(process.env.TEST_REDIS_URL),
  reason: "needs a Redis server: set TEST_REDIS_URL=redis://… (.ci/run does)",
};

export const chromiumBrowser: Requirement = {
  met: fs.existsSync(CHROMIUM_PATH),
  reason: `needs Chromium at ${CHROMIUM_PATH} (npm test installs it when it may; or set CHROMIUM_PATH)`,
};

export const HAPROXY = process.env.HAPROXY_PATH ?? onPath("haproxy") ?? "/usr/sbin/haproxy";
export const haproxy: Requirement = {
  met: fs.existsSync(HAPROXY),
  reason: "needs HAProxy (npm test installs Debian's haproxy when it may; or set HAPROXY_PATH)",
};

const isRoot = process.getuid?.() === 0;

/** PostgreSQL's own server programs, to run a private server that a test may kill, freeze or restart. */
export const POSTGRES_BIN = fs.existsSync("/usr/lib/postgresql")
  ? (fs
      .readdirSync("/usr/lib/postgresql")
      .map((version) => `/usr/lib/postgresql/${version}/bin`)
      .find((bin) => fs.existsSync(`${bin}/initdb`)) ?? null)
  : null;
export const privatePostgres: Requirement = {
  // As root, the server runs as the postgres user (PostgreSQL refuses root).
  met: POSTGRES_BIN !== null && (!isRoot || spawnSync("id", ["-u", "postgres"]).status === 0),
  reason: "needs PostgreSQL's server programs (Debian's postgresql package) to run a private server",
};

/** util-linux's `script`: runs a command on a terminal of its own and keeps what it drew. */
export const SCRIPT = onPath("script");
export const terminalRecorder: Requirement = {
  met: SCRIPT !== null,
  reason: "needs util-linux's `script` (Debian's bsdutils package) to give a command a terminal",
};

export const REDIS_SERVER = onPath("redis-server");
export const privateRedis: Requirement = {
  met: REDIS_SERVER !== null,
  reason: "needs redis-server (Debian's redis-server package) to run a private server",
};

/** A small file system to fill up: a tmpfs mount, which needs root. */
export const mountableTmpfs: Requirement = {
  met: isRoot && onPath("mount") !== null,
  reason: "needs root, to mount a small tmpfs that the test fills up",
};

/**
 * CI's second pass (TEST_SERVICES_PASS=1, scripts/test.mjs) repeats only what
 * PostgreSQL or Redis can change. The embedded-database runs inside the files
 * it repeats gave their answer in the first pass, on the same engine: they
 * are left out there, as the end-to-end suite is, and the pass says so.
 */
export const SERVICES_PASS = process.env.TEST_SERVICES_PASS === "1";

/** `engines` without the embedded database's run in CI's second pass (see SERVICES_PASS). */
export function enginesToRun<Engine extends { name: string }>(engines: Engine[]): Engine[] {
  return SERVICES_PASS ? engines.filter((engine) => engine.name !== "PGlite") : engines;
}

/** `describe` for a suite on the embedded database only: left out of CI's second pass (see SERVICES_PASS). */
export function describeOnEmbedded(name: string, body: () => void, options: { timeout?: number } = {}) {
  if (!SERVICES_PASS) describe(name, options, () => body());
}

/**
 * `describe(name, body)` when every requirement is met; otherwise one skipped
 * test under that name whose note says what is missing.
 */
export function describeWhen(
  requirements: Requirement[],
  name: string,
  body: () => void,
  options: { timeout?: number } = {},
) {
  const missing = requirements.filter((requirement) => !requirement.met);
  if (missing.length === 0) {
    describe(name, options, () => body());
    return;
  }
  describe(name, () => {
    it("cannot run on this machine", (context) => {
      context.skip(missing.map((requirement) => requirement.reason).join("; "));
    });
  });
}

/**
 * Skips one test whose need the machine does not meet, saying why on the
 * run's output (a skip with no printed reason reads as a test that ran).
 */
export function skipBecause(
  context: { skip(note?: string): never; task: { name: string } },
  reason: string,
): never {
  console.info(`skipped "${context.task.name}": ${reason}`);
  return context.skip(reason);
}
