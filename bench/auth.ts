/**
 * Accounts benchmark: `npx tsx bench/auth.ts` (or `npm run bench -- auth`).
 *
 * - the time of one password hash with the shop's argon2id parameters;
 * - sign-ins per second of one process: in-process (the auth service on an
 *   in-memory PGlite) and over HTTP (the production build, its own process);
 * - the event loop's p99 delay while 10 logins run at once (hashing runs on
 *   libuv's thread pool and must not block the loop: target <= 20 ms);
 * - 50 simultaneous sign-ups with one email: exactly one account, no 5xx —
 *   in-process with rate limits out of the way (all 50 reach the database),
 *   and over HTTP on PGlite and PostgreSQL with the real limits.
 *
 * Figures go to bench/RESULTS.md, the "Accounts" section between its markers.
 */

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { eq } from "drizzle-orm";
import pg from "pg";
import { users } from "../app/db/schema";
import { createAuthService } from "../app/features/auth/auth.server";
import { hashPassword, PASSWORD_HASH_PARAMETERS } from "../app/features/auth/password-hasher.server";
import { createAuthRateLimiter } from "../app/features/auth/rate-limit.server";
import { recordingMail } from "../tests/support/recording-mailer";
import { type ShopProcess, startShopProcess } from "../tests/support/shop-process";
import {
  openPgliteTestDatabase,
  openPostgresTestDatabase,
  type TestDatabase,
} from "../tests/support/test-database";
import { runInfo, runInfoLine } from "./workload";

const RESULTS = path.resolve("bench/RESULTS.md");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test";
const PASSWORD = "Str0ng!Pass";

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function hashTimes() {
  await hashPassword(PASSWORD); // warm-up
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const start = performance.now();
    await hashPassword(PASSWORD);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p95: percentile(times, 95) };
}

/** The event loop's delay (ms, 1 ms resolution) while `work` runs. */
async function loopDelayDuring(work: () => Promise<void>) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await work();
  histogram.disable();
  return { p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
}

async function hashingAlone() {
  return loopDelayDuring(async () => {
    for (let round = 0; round < 10; round++)
      await Promise.all(Array.from({ length: 10 }, () => hashPassword(PASSWORD)));
  });
}

async function inProcess(engine: TestDatabase) {
  const unlimited = { points: 1_000_000, duration: 60 };
  const auth = createAuthService({
    db: engine.db,
    secret: randomBytes(32).toString("base64url"),
    baseUrl: "http://localhost:3000",
    google: null,
    limiter: createAuthRateLimiter({
      limits: {
        signUpPerAddress: unlimited,
        signUpPerAccount: unlimited,
        loginPerAddress: unlimited,
        loginPerAccountAndAddress: unlimited,
        loginPerAccountFromUnknownDevices: unlimited,
        loginPerKnownDevice: unlimited,
      },
    }),
    mail: recordingMail(engine.db).queue,
  });
  // Every request from one address, as a single client would send them.
  const visitor = () => auth.for({ request: new Request("http://localhost:3000/"), address: "127.0.0.1" });
  const email = "bench@example.com";
  const signedUp = await visitor().credentials.signUp({
    name: "Bench",
    email,
    photo: "https://e.com/b.png",
    password: PASSWORD,
  });
  if (!signedUp.ok) throw new Error("bench sign-up failed");
  const logIn = async () => {
    const result = await visitor().credentials.logIn({ email, password: PASSWORD });
    if (!result.ok) throw new Error("bench login failed");
  };

  // Sign-ins per second: 10 at a time for SECONDS.
  let count = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (performance.now() < deadline) {
        await logIn();
        count++;
      }
    }),
  );
  const loginsPerSecond = count / ((performance.now() - start) / 1000);

  // Event-loop delay: idle, then while rounds of 10 simultaneous logins run.
  const idle = await loopDelayDuring(() => new Promise((resolve) => setTimeout(resolve, 2000)));
  const busy = await loopDelayDuring(async () => {
    for (let round = 0; round < 10; round++) await Promise.all(Array.from({ length: 10 }, logIn));
  });

  // 50 sign-ups with one new email at the same moment, every one reaching the database.
  const raceEmail = "race@example.com";
  const outcomes = await Promise.allSettled(
    Array.from({ length: 50 }, (_, i) =>
      visitor().credentials.signUp({
        name: `Racer ${i}`,
        email: raceEmail,
        photo: "https://e.com/r.png",
        password: PASSWORD,
      }),
    ),
  );
  const accounts = (await engine.db.select().from(users).where(eq(users.email, raceEmail))).length;
  const created = outcomes.filter((o) => o.status === "fulfilled" && o.value.ok).length;
  const taken = outcomes.filter(
    (o) => o.status === "fulfilled" && !o.value.ok && o.value.reason === "email-taken",
  ).length;
  const thrown = outcomes.filter((o) => o.status === "rejected").length;
  return {
    label: engine.name,
    loginsPerSecond,
    idleP99: idle.p99,
    busyP99: busy.p99,
    busyMax: busy.max,
    race: { accounts, created, taken, thrown },
  };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
let addressCounter = 0;
const nextAddress = () => {
  addressCounter++;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

async function post(shop: ShopProcess, pathname: string, fields: Record<string, string>) {
  const response = await fetch(`${shop.url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    // One trusted proxy hop (TRUST_PROXY=1): each request its own client address.
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": nextAddress() },
    body: form(fields),
  });
  await response.arrayBuffer();
  return response.status;
}

async function overHttp(label: string, env: Record<string, string>) {
  const shop = await startShopProcess({ TRUST_PROXY: "1", SEED_DEMO_CATALOG: "0", ...env });
  try {
    const email = `bench-${randomBytes(4).toString("hex")}@example.com`;
    const first = await post(shop, "/sign-up", {
      name: "Bench",
      email,
      photo: "https://e.com/b.png",
      password: PASSWORD,
    });
    if (first !== 302) throw new Error(`sign-up answered ${first}`);

    let count = 0;
    const statuses = new Map<number, number>();
    const deadline = performance.now() + SECONDS * 1000;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (performance.now() < deadline) {
          const status = await post(shop, "/login", { email, password: PASSWORD, redirectTo: "/" });
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status === 302) count++;
        }
      }),
    );
    const loginsPerSecond = count / ((performance.now() - start) / 1000);

    const raceEmail = `race-${randomBytes(4).toString("hex")}@example.com`;
    const raceStatuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(shop, "/sign-up", {
          name: `Racer ${i}`,
          email: raceEmail,
          photo: "https://e.com/r.png",
          password: PASSWORD,
        }),
      ),
    );
    const histogram = new Map<number, number>();
    for (const status of raceStatuses) histogram.set(status, (histogram.get(status) ?? 0) + 1);
    // Exactly one account: exactly one sign-up succeeded, and its password logs in.
    const canLogIn =
      (await post(shop, "/login", { email: raceEmail, password: PASSWORD, redirectTo: "/" })) === 302;
    return {
      label,
      loginsPerSecond,
      loginStatuses: [...statuses].map(([s, n]) => `${n}× ${s}`).join(", "),
      race: [...histogram]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${n}× ${s}`)
        .join(", "),
      created: histogram.get(302) ?? 0,
      serverErrors: raceStatuses.filter((s) => s >= 500).length,
      canLogIn,
    };
  } finally {
    await shop.stop();
  }
}

async function withPostgres<T>(run: (url: string) => Promise<T>): Promise<T | null> {
  const name = `backline_auth_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    console.log(`PostgreSQL not reachable at ${ADMIN_URL}: skipping the PostgreSQL row`);
    return null;
  }
  await admin.query(`create database "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

const info = runInfo("npm run bench -- auth");
const loadAtStart = os.loadavg()[0] ?? 0;
console.log("hashing…");
const hash = await hashTimes();
console.log(hash);
console.log("hashing alone, 10 at a time…");
const hashLoop = await hashingAlone();
console.log(hashLoop);
console.log("in-process service…");
const inProcessRows = [];
const pgliteEngine = await openPgliteTestDatabase();
inProcessRows.push(await inProcess(pgliteEngine));
await pgliteEngine.close();
const postgresEngine = await openPostgresTestDatabase(ADMIN_URL).catch(() => null);
if (postgresEngine) {
  inProcessRows.push(await inProcess(postgresEngine));
  await postgresEngine.close();
}
console.log(inProcessRows);
console.log("over HTTP on PGlite…");
const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-auth-bench-"));
const httpPglite = await overHttp("PGlite", { DATA_DIR: pgliteDir });
fs.rmSync(pgliteDir, { recursive: true, force: true });
console.log(httpPglite);
console.log("over HTTP on PostgreSQL…");
const httpPostgres = await withPostgres((url) => overHttp("PostgreSQL", { DATABASE_URL: url }));
console.log(httpPostgres);

const p = PASSWORD_HASH_PARAMETERS;
const mark = (met: boolean) => (met ? "✅" : "❌");
const httpRows = [httpPglite, httpPostgres].filter((row) => row !== null);
const section = [
  "<!-- auth-bench:start -->",
  "## Accounts",
  "",
  `${runInfoLine(info)} libuv thread pool ${process.env.UV_THREADPOOL_SIZE ?? 4}; ${SECONDS} s per throughput figure, 10 logins in flight.`,
  "",
  "| Measure | Result | Target |",
  "|---|---|---|",
  `| One password hash, argon2id m=${p.memory / 1024} MiB, t=${p.passes}, p=${p.parallelism} | median ${ms(hash.median)}, p95 ${ms(hash.p95)} | OWASP minimum parameters ✅ |`,
  `| Event-loop delay p99 while 100 hashes run, 10 at a time (hashing alone) | ${ms(hashLoop.p99)} (max ${ms(hashLoop.max)}) | <= 20 ms ${mark(hashLoop.p99 <= 20)} |`,
  ...inProcessRows.map(
    (row) =>
      `| Sign-ins per second, one process, in-process service (${row.label}) | ${row.loginsPerSecond.toFixed(0)}/s | — |`,
  ),
  ...httpRows.map(
    (row) =>
      `| Sign-ins per second, one process, over HTTP (${row.label}; ${row.loginStatuses}) | ${row.loginsPerSecond.toFixed(0)}/s | — |`,
  ),
  ...inProcessRows.map(
    (row) =>
      `| Event-loop delay p99 while 10 logins run at once, in-process (${row.label}; idle p99 ${ms(row.idleP99)}) | ${ms(row.busyP99)} (max ${ms(row.busyMax)}) | <= 20 ms ${mark(row.busyP99 <= 20)} |`,
  ),
  ...inProcessRows.map(
    (row) =>
      `| 50 simultaneous sign-ups, one email, in-process (${row.label}), no rate limit: all reach the database | ${row.race.accounts} account; ${row.race.created} created, ${row.race.taken} "already exists", ${row.race.thrown} errors | 1 account, no errors ${mark(row.race.accounts === 1 && row.race.thrown === 0)} |`,
  ),
  ...httpRows.map(
    (row) =>
      `| 50 simultaneous sign-ups, one email, over HTTP (${row.label}, real rate limits) | ${row.created} created (${row.race}); ${row.serverErrors} × 5xx; the account logs in: ${row.canLogIn ? "yes" : "no"} | 1 account, no 5xx ${mark(row.created === 1 && row.serverErrors === 0 && row.canLogIn)} |`,
  ),
  "",
  "Sign-ins are bound by password hashing on the thread pool (2 cores here): about `threads ÷ hash time`.",
  "Hashing runs on libuv's thread pool and leaves the event loop free (the hashing-alone row). PGlite, unlike",
  "the PostgreSQL driver, executes every SQL statement synchronously on the main thread (WebAssembly), so its",
  "login rows include the embedded database's own time on the loop. Figures on this shared 2-core machine vary",
  `with its load (1-minute load average ${loadAtStart.toFixed(1)} when this run started).`,
  "Over HTTP the 50 same-email sign-ups meet the per-email sign-up limit (5 per hour), so most get 429",
  "before hashing; the in-process row lifts the limits so that all 50 race on the database's unique index.",
  "<!-- auth-bench:end -->",
].join("\n");

const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8") : "# Benchmark results\n";
const marked = /<!-- auth-bench:start -->[\s\S]*<!-- auth-bench:end -->/;
fs.writeFileSync(
  RESULTS,
  marked.test(previous) ? previous.replace(marked, section) : `${previous.trimEnd()}\n\n${section}\n`,
);
console.log(`\nRecorded in ${RESULTS}`);

const postgresRow = inProcessRows.find((row) => row.label === "PostgreSQL");
const failures = [
  hashLoop.p99 > 20 && `event-loop p99 while hashing ${ms(hashLoop.p99)} > 20 ms`,
  postgresRow &&
    postgresRow.busyP99 > 20 &&
    `event-loop p99 during logins on PostgreSQL ${ms(postgresRow.busyP99)} > 20 ms`,
  ...inProcessRows.map(
    (row) =>
      row.race.accounts !== 1 && `${row.race.accounts} accounts from 50 same-email sign-ups on ${row.label}`,
  ),
  ...inProcessRows.map(
    (row) =>
      row.race.thrown > 0 && `${row.race.thrown} same-email sign-ups failed with an error on ${row.label}`,
  ),
  ...httpRows.map((row) => row.serverErrors > 0 && `${row.serverErrors} × 5xx on ${row.label}`),
  ...httpRows.map((row) => row.created !== 1 && `${row.created} accounts over HTTP on ${row.label}`),
].filter(Boolean);
// Recorded above as missed; the other benchmarks still run.
if (failures.length > 0) console.error(`Targets missed: ${failures.join("; ")}`);
