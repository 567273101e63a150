/**
 * Two (or more) builds of the shop, side by side on the same data, under the
 * realistic API mix (bench/workload.ts): `npx tsx bench/compare-builds.ts
 * <label>=<build dir> <label>=<build dir> …`, for example
 * `before=/tmp/old/build after=build`. Build another commit in a git worktree
 * (`git worktree add /tmp/old <commit> && cd /tmp/old && npm ci && npx react-router build`):
 * its server build imports from the node_modules beside it.
 *
 * Each round runs every build once, the order alternating so that neither
 * always meets a warmer database, and measures two workloads per build: the
 * whole mix (listings, counts, facets and suggestions, as the shop's pages
 * ask them) and listings only (the same visits' `/all-products`). Each shop
 * trusts one proxy (TRUST_PROXY=1) and every visit comes from its own
 * shopper's address (X-Forwarded-For). Every figure is set beside the first
 * build's. The shop's command line is read back from /proc, so a run that
 * would compare a build with itself stops.
 *
 * BENCH_PRODUCTS (default 100,000), BENCH_CONNECTIONS (40), BENCH_ROUNDS (3),
 * BENCH_SECONDS (12 per workload). Writes the "compare-builds" section of
 * bench/RESULTS.md; BENCH_RECORD=0 prints it only (a smoke run).
 */

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { startShopProcess } from "../tests/support/shop-process";
import { dropScratchDatabase, scratchDatabase } from "./scratch-database";
import {
  type ApiCall,
  apiPaths,
  apiRequests,
  distinctShare,
  replaceSection,
  runInfo,
  runInfoLine,
} from "./workload";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const COUNT = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 40);
const RECORD = process.env.BENCH_RECORD !== "0";
const RESULTS = path.resolve("bench/RESULTS.md");
const DATABASE = "backline_compare";

const WORKLOADS: { name: string; only?: readonly ApiCall[] }[] = [
  { name: "whole mix" },
  { name: "listings only", only: ["/all-products"] },
];

interface Build {
  label: string;
  dir: string;
  entry: string;
}

function buildsFrom(argv: string[]): Build[] {
  const builds = argv.map((argument) => {
    const [label, dir] = argument.split("=");
    const entry = dir ? path.resolve(dir, "server/index.js") : "";
    if (!label || !dir || !fs.existsSync(entry)) {
      console.error(`usage: compare-builds.ts <label>=<build dir> …  (${argument}: no build there)`);
      process.exit(2);
    }
    return { label, dir: path.resolve(dir), entry: fs.realpathSync(entry) };
  });
  if (builds.length < 2) {
    console.error("usage: compare-builds.ts <label>=<build dir> <label>=<build dir>");
    process.exit(2);
  }
  const digests = builds.map((build) =>
    createHash("sha256").update(fs.readFileSync(build.entry)).digest("hex"),
  );
  if (new Set(builds.map((build) => build.entry)).size < builds.length) {
    console.error("Two labels name the same build: there would be nothing to compare.");
    process.exit(2);
  }
  if (new Set(digests).size < builds.length) {
    console.warn(
      "Note: two builds' server/index.js are byte for byte the same; their figures should be too.",
    );
  }
  return builds;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, and requests with no answer: a build refusing fast is not a fast build. */
  non2xx: number;
  errors: number;
}

async function load(url: string, seconds: number, nextRequest: ReturnType<typeof apiRequests>) {
  const requests = [
    {
      setupRequest: (request: autocannon.Request) => {
        const { path, address } = nextRequest();
        return { ...request, path, headers: { ...request.headers, "x-forwarded-for": address } };
      },
    },
  ];
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, requests });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** The command line a process runs, from /proc (empty where there is none). */
function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return "";
  }
}

/** What each build's process ran, as read back: the proof the figures are of the builds named. */
const ranAs = new Map<string, string>();

/** One build's round: its shop started, checked to be that build, both workloads measured. */
async function measure(build: Build, databaseUrl: string, seed: number): Promise<Figures[]> {
  process.env.BUILD_DIR = build.dir;
  const shop = await startShopProcess({
    DATABASE_URL: databaseUrl,
    SEED_DEMO_CATALOG: "0",
    LOG_LEVEL: "info",
    TRUST_PROXY: "1",
  });
  try {
    const command = commandLine(shop.pid);
    if (command && !command.includes(build.entry)) {
      throw new Error(`${build.label}: the shop runs \`${command}\`, not ${build.entry}`);
    }
    ranAs.set(build.label, command || `pid ${shop.pid} (no /proc to read its command line)`);
    // Measured once the search index is read; a build from before the index logs no such line.
    await shop.waitForOutput(/catalogue index read/, 3 * 60_000).catch(() => {
      console.warn(`${build.label}: no "catalogue index read" within 3 minutes; measuring as it is`);
    });
    await load(shop.url, 2, apiRequests({ seed: seed + 1000 }));
    const figures: Figures[] = [];
    for (const workload of WORKLOADS) {
      figures.push(await load(shop.url, SECONDS, apiRequests({ seed, only: workload.only })));
    }
    return figures;
  } finally {
    await shop.stop();
  }
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const ratio = (mine: number, first: number) => (first > 0 ? `${(mine / first).toFixed(2)}×` : "—");

function summary(builds: Build[], rows: { label: string; figures: Figures[] }[]): string[] {
  const lines = [
    "| workload | build | requests/s per round | mean | vs first | p50 ms, mean | p99 ms per round | p99 mean | vs first | non-2xx / errors |",
    "|---|---|---|---:|---:|---:|---|---:|---:|---:|",
  ];
  WORKLOADS.forEach((workload, at) => {
    const of = (label: string) =>
      rows.filter((row) => row.label === label).map((row) => row.figures[at] as Figures);
    const first = of((builds[0] as Build).label);
    for (const { label } of builds) {
      const mine = of(label);
      const rps = mean(mine.map((f) => f.rps));
      const p99 = mean(mine.map((f) => f.p99));
      const refused = mine.reduce((sum, f) => sum + f.non2xx, 0);
      const errors = mine.reduce((sum, f) => sum + f.errors, 0);
      lines.push(
        `| ${workload.name} | ${label} | ${mine.map((f) => f.rps).join(", ")} | ${Math.round(rps)} | ${ratio(rps, mean(first.map((f) => f.rps)))} | ${mean(mine.map((f) => f.p50)).toFixed(1)} | ${mine.map((f) => f.p99).join(", ")} | ${p99.toFixed(1)} | ${ratio(p99, mean(first.map((f) => f.p99)))} | ${refused} / ${errors} |`,
      );
    }
  });
  return lines;
}

async function main() {
  const builds = buildsFrom(process.argv.slice(2));
  const info = runInfo(`npx tsx bench/compare-builds.ts ${process.argv.slice(2).join(" ")}`);
  const databaseUrl = await scratchDatabase(DATABASE);
  const generated = spawnSync(
    "npx",
    ["tsx", "scripts/db-generate-catalog.ts", "--count", String(COUNT), "--replace"],
    { stdio: "inherit", env: { ...process.env, DATABASE_URL: databaseUrl } },
  );
  if (generated.status !== 0) throw new Error("generating the catalogue failed");

  const rows: { round: number; label: string; figures: Figures[] }[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? builds : [...builds].reverse();
      for (const build of order) {
        const figures = await measure(build, databaseUrl, 100 + round);
        rows.push({ round, label: build.label, figures });
        console.log(round, build.label, Object.fromEntries(WORKLOADS.map((w, at) => [w.name, figures[at]])));
      }
    }
  } finally {
    await dropScratchDatabase(DATABASE);
  }

  const distinct = WORKLOADS.map(
    (workload) => `${(distinctShare(apiPaths({ seed: 101, only: workload.only })) * 100).toFixed(0)} %`,
  );
  const section = [
    "## Two builds side by side (the realistic API mix: whole, and listings only)",
    "",
    runInfoLine(info),
    `${COUNT.toLocaleString("en-US")} products on PostgreSQL; ${CONNECTIONS} connections; ${ROUNDS} rounds of ${SECONDS} s per workload per build after a 2 s warm-up, the order of the builds alternating; each round a fresh sequence of the mix, the same for every build. Each shop with TRUST_PROXY=1, each visit from its own shopper's address (X-Forwarded-For). Whole mix: listings, counts, facets and suggestions as the shop's pages ask them (${distinct[0]} distinct URLs among the first 20,000); listings only: the same visits' \`/all-products\` (${distinct[1]}). "vs first" divides by the first build's mean.`,
    "",
    `Builds, as their processes ran: ${builds.map(({ label }) => `${label}: \`${ranAs.get(label)}\``).join("; ")}.`,
    "",
    ...summary(builds, rows),
  ].join("\n");
  if (RECORD) {
    const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8") : "# Benchmark results\n";
    fs.writeFileSync(RESULTS, replaceSection(previous, "compare-builds", section));
    console.log(`\nRecorded in ${RESULTS}`);
  } else {
    console.log(`\n${section}\n\n(BENCH_RECORD=0: not recorded)`);
  }
}

await main();
