/**
 * Memory under traffic that no cache can hold: `npm run bench -- memory`.
 *
 * On 100,000 products in PostgreSQL, it asks the shop for thousands of
 * distinct 100-product pages (the largest answers the API gives) and reads the
 * server process's resident memory (VmRSS) before, right after, and once the
 * cached answers have expired — with the default cache limit, and with a far
 * bigger one to show that the limit is what bounds the process. Before the
 * cache was bounded by bytes, 5,000 such pages grew the process by ~450 MiB.
 * Writes the "Memory" section of bench/RESULTS.md.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { type ShopProcess, startShopProcess } from "../tests/support/shop-process";
import { replaceSection, runInfo, runInfoLine } from "./workload";

const COUNT = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const PAGES = Number(process.env.BENCH_MEMORY_PAGES ?? 5_000);
const CONCURRENCY = 8;
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test";
const RESULTS = path.resolve("bench/RESULTS.md");
const CACHE_SECONDS = 10;

/** Resident memory of a process, in MiB, from /proc. */
function residentMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

async function scratchDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query("drop database if exists backline_bench_memory with (force)");
  await admin.query("create database backline_bench_memory");
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = "/backline_bench_memory";
  return url.toString();
}

/** Distinct 100-product pages: every page of the unfiltered list, then of each sort. */
function distinctPages(count: number): string[] {
  const sorts = ["", "&sort=asc", "&sort=dsc", "&sort=date-added"];
  const pagesPerSort = Math.ceil(COUNT / 100);
  const paths: string[] = [];
  for (const sort of sorts) {
    for (let page = 1; page <= pagesPerSort && paths.length < count; page++) {
      paths.push(`/all-products?size=100&page=${page}${sort}`);
    }
  }
  return paths.slice(0, count);
}

async function fetchAll(shop: ShopProcess, paths: string[]): Promise<number> {
  let next = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < paths.length) {
        const response = await fetch(`${shop.url}${paths[next++]}`);
        await response.arrayBuffer();
        if (!response.ok) failures++;
      }
    }),
  );
  return failures;
}

interface Measurement {
  limitMiB: number;
  before: number;
  after: number;
  expired: number;
  failures: number;
}

async function measure(databaseUrl: string, limitMiB: number): Promise<Measurement> {
  const shop = await startShopProcess({
    DATABASE_URL: databaseUrl,
    SEED_DEMO_CATALOG: "0",
    LOG_LEVEL: "error",
    CATALOG_CACHE_MAX_MB: String(limitMiB),
    CATALOG_CACHE_SECONDS: String(CACHE_SECONDS),
  });
  try {
    // Warm-up: code paths compiled, pool connected, a few pages cached and gone.
    await fetchAll(shop, distinctPages(50));
    await sleep((CACHE_SECONDS + 1) * 1000);
    const before = residentMiB(shop.pid);
    const failures = await fetchAll(shop, distinctPages(PAGES));
    const after = residentMiB(shop.pid);
    // Past the cache time every answer has expired and been dropped.
    await sleep((CACHE_SECONDS + 2) * 1000);
    await fetch(`${shop.url}/healthz`);
    const expired = residentMiB(shop.pid);
    return { limitMiB, before, after, expired, failures };
  } finally {
    await shop.stop();
  }
}

async function main() {
  const info = runInfo("npm run bench -- memory");
  const databaseUrl = await scratchDatabase();
  const generated = spawnSync(
    "npx",
    ["tsx", "scripts/db-generate-catalog.ts", "--count", String(COUNT), "--replace"],
    { stdio: "inherit", env: { ...process.env, DATABASE_URL: databaseUrl } },
  );
  if (generated.status !== 0) throw new Error("catalogue generation failed");

  const rows = [await measure(databaseUrl, 64), await measure(databaseUrl, 512)];
  for (const row of rows) console.log(row);

  const growth = (row: Measurement) => row.after - row.before;
  const bounded = rows[0] as Measurement;
  // The cache weighs an answer at 3× its JSON; the heap around it adds some: 2× the limit is generous.
  const met = growth(bounded) <= 2 * bounded.limitMiB && bounded.failures === 0;
  const section = [
    "## Memory under distinct large pages",
    "",
    runInfoLine(info),
    `${COUNT.toLocaleString("en-US")} products on PostgreSQL; ${PAGES.toLocaleString("en-US")} distinct \`/all-products?size=100&page=N\` answers (every page, then every page of each sort), ${CONCURRENCY} at a time; resident memory (VmRSS) of the shop process; cache time ${CACHE_SECONDS} s.`,
    "",
    "| `CATALOG_CACHE_MAX_MB` | RSS before | RSS after the pages | growth | RSS after the answers expired | failed requests |",
    "|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (row) =>
        `| ${row.limitMiB} | ${row.before.toFixed(0)} MiB | ${row.after.toFixed(0)} MiB | ${growth(row).toFixed(0)} MiB | ${row.expired.toFixed(0)} MiB | ${row.failures} |`,
    ),
    "",
    `Target — memory bounded under any traffic (growth within 2× the cache limit with the default 64 MiB): ${growth(bounded).toFixed(0)} MiB, ${met ? "✅ met" : "❌ missed"}. Before the cache was bounded by bytes, the same traffic grew the process by about 450 MiB (issue 7). The larger limit's row shows the limit is what bounds the growth. RSS seldom shrinks once the heap has grown (V8 keeps freed pages for reuse); that expired answers are released is checked by the cache's own test (\`catalog.server.test.ts\`).`,
  ].join("\n");
  const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8") : "# Benchmark results\n";
  fs.writeFileSync(RESULTS, replaceSection(previous, "memory-bench", section));
  console.log(`\nRecorded in ${RESULTS}`);

  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query("drop database if exists backline_bench_memory with (force)");
  await admin.end();
}

await main();
