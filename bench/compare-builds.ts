/**
 * Two builds of the shop, side by side on the same data, under the realistic
 * mixed API workload: `npx tsx bench/compare-builds.ts <label>=<build dir> <label>=<build dir>`
 * (for example `before=/tmp/old/build after=build`; build the old commit in a
 * git worktree first). Rounds alternate the order, so neither build always
 * runs on a warmer database. Writes the "compare-builds" section of
 * bench/RESULTS.md. Used to decide whether the JSON API needs a fast path in
 * front of React Router (docs/decisions/0013).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { startShopProcess } from "../tests/support/shop-process";
import { apiPaths, replaceSection, runInfo, runInfoLine } from "./workload";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const COUNT = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const RESULTS = path.resolve("bench/RESULTS.md");

const builds = process.argv.slice(2).map((argument) => {
  const [label, dir] = argument.split("=");
  if (!label || !dir || !fs.existsSync(path.join(dir, "server/index.js"))) {
    console.error(`usage: compare-builds.ts <label>=<build dir> …  (${argument}: no build there)`);
    process.exit(2);
  }
  return { label, dir: path.resolve(dir) };
});
if (builds.length < 2) {
  console.error("usage: compare-builds.ts <label>=<build dir> <label>=<build dir>");
  process.exit(2);
}

const info = runInfo(`npx tsx bench/compare-builds.ts ${process.argv.slice(2).join(" ")}`);
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query("drop database if exists backline_compare with (force)");
await admin.query("create database backline_compare");
await admin.end();
const databaseUrl = new URL(ADMIN_URL);
databaseUrl.pathname = "/backline_compare";
spawnSync("tsx", ["scripts/db-generate-catalog.ts", "--count", String(COUNT), "--replace"], {
  stdio: "inherit",
  env: { ...process.env, DATABASE_URL: databaseUrl.toString() },
});

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

async function measure(buildDir: string, seed: number): Promise<Figures> {
  process.env.BUILD_DIR = buildDir;
  const shop = await startShopProcess({
    DATABASE_URL: databaseUrl.toString(),
    SEED_DEMO_CATALOG: "0",
    LOG_LEVEL: "error",
  });
  try {
    const next = apiPaths({ seed });
    const requests = [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: next() }) }];
    await autocannon({ url: shop.url, connections: 50, duration: 2, requests });
    const result = await autocannon({ url: shop.url, connections: 50, duration: SECONDS, requests });
    return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 };
  } finally {
    await shop.stop();
  }
}

const rows: { round: number; label: string; figures: Figures }[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 === 1 ? builds : [...builds].reverse();
  for (const build of order) {
    const figures = await measure(build.dir, 100 + round);
    rows.push({ round, label: build.label, figures });
    console.log(round, build.label, figures);
  }
}

const mean = (values: number[]) => Math.round(values.reduce((sum, value) => sum + value, 0) / values.length);
const summary = builds.map(({ label }) => {
  const mine = rows.filter((row) => row.label === label).map((row) => row.figures);
  return `| ${label} | ${mine.map((figures) => figures.rps).join(", ")} | ${mean(mine.map((f) => f.rps))} | ${mine.map((figures) => figures.p99).join(", ")} | ${mean(mine.map((f) => f.p99))} |`;
});
const section = [
  "## Two builds side by side (the realistic mixed API workload)",
  "",
  runInfoLine(info),
  `${COUNT.toLocaleString("en-US")} products on PostgreSQL; 50 connections; ${ROUNDS} rounds of ${SECONDS} s per build after a 2 s warm-up, the order alternating; each round a fresh sequence of the mix (the same for both builds).`,
  "",
  "| build | requests/s per round | mean | p99 ms per round | mean |",
  "|---|---|---:|---|---:|",
  ...summary,
].join("\n");
const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8") : "# Benchmark results\n";
fs.writeFileSync(RESULTS, replaceSection(previous, "compare-builds", section));
console.log(`\nRecorded in ${RESULTS}`);

const cleanup = new pg.Client({ connectionString: ADMIN_URL });
await cleanup.connect();
await cleanup.query("drop database if exists backline_compare with (force)");
await cleanup.end();
