/**
 * Storefront benchmark: `npx tsx bench/storefront.ts` (after a build), or
 * `npm run bench -- storefront`.
 *
 * 1. Weight: the JavaScript and CSS the shop page loads (every script and
 *    stylesheet its server-rendered HTML references), raw and gzipped.
 * 2. Lighthouse (mobile preset: emulated phone, simulated slow 4G and CPU
 *    slow-down) in Debian's Chromium, three runs, median by performance.
 * 3. Server-rendered throughput: autocannon at 10 connections on shop URLs,
 *    against a 100,000-product catalogue on PostgreSQL (a scratch database
 *    `backline_storefront_bench` on BENCH_DATABASE_URL / TEST_DATABASE_URL,
 *    default postgres://postgres@127.0.0.1:5432/test, dropped afterwards).
 *
 * Weight and Lighthouse run against the built server on a fresh embedded
 * database with the demo catalogue: the shop a newcomer opens.
 *
 * Options:
 *   --base-url <url>   measure a running shop instead (nothing is started,
 *                      nothing recorded unless --record)
 *   --record           write the "Storefront" section of bench/RESULTS.md
 *                      (default when no --base-url is given)
 *   --skip-lighthouse, --skip-load
 *   BENCH_SECONDS (default 10), BENCH_PRODUCTS (default 100000), BUILD_DIR,
 *   CHROMIUM_PATH (default /usr/bin/chromium)
 */

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import autocannon from "autocannon";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import pg from "pg";
import { CHROMIUM_FLAGS } from "../tests/support/chromium";
import { startShopProcess } from "../tests/support/shop-process";
import { runInfo, runInfoLine, shopperAddresses } from "./workload";

const { values: options } = parseArgs({
  options: {
    "base-url": { type: "string" },
    record: { type: "boolean", default: false },
    "skip-lighthouse": { type: "boolean", default: false },
    "skip-load": { type: "boolean", default: false },
  },
});

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test";
const RESULTS = path.resolve("bench/RESULTS.md");
const TMP = path.resolve("bench/.tmp");
const RECORD = options.record || !options["base-url"];

/**
 * Budgets from the storefront issue; JavaScript lowered from 150 to 115 KiB by
 * issue 21, then restated as 135 KiB by issue 32: React 19 and React Router 8
 * alone are about 108 KiB of it, and 115 could not be met on this stack
 * (docs/decisions/0017).
 */
const BUDGET = {
  jsGzipKb: 135,
  cssGzipKb: 20,
  performance: 95,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
};

const CHROME_FLAGS = ["--headless=new", ...CHROMIUM_FLAGS];

const LOAD_SCENARIOS = [
  { name: "first page", path: "/" },
  { name: "filtered + price-sorted", path: "/?band=cycleFit&category=fitness&range=150&sort=dsc" },
  { name: "search", path: "/?search=blend" },
  { name: "page 1,000", path: "/?page=1000" },
] as const;

const kb = (bytes: number) => bytes / 1024;
const fmt = (value: number, digits = 1) => value.toFixed(digits);

interface Asset {
  url: string;
  kind: "js" | "css";
  raw: number;
  gzip: number;
}

/** Every script and stylesheet the shop page's HTML makes the browser load. */
async function pageAssets(baseUrl: string): Promise<Asset[]> {
  const html = await (await fetch(`${baseUrl}/`)).text();
  const found = new Map<string, Asset["kind"]>();
  for (const match of html.matchAll(/<link[^>]+>/g)) {
    const tag = match[0];
    const href = tag.match(/href="([^"]+)"/)?.[1];
    if (!href) continue;
    if (/rel="modulepreload"/.test(tag)) found.set(href, "js");
    if (/rel="stylesheet"/.test(tag)) found.set(href, "css");
  }
  for (const match of html.matchAll(/<script[^>]+src="([^"]+)"/g)) if (match[1]) found.set(match[1], "js");
  // The hydration script imports the entry and route modules by path.
  for (const match of html.matchAll(/import(?:\(| [^"]*from )"(\/assets\/[^"]+\.js)"/g))
    if (match[1]) found.set(match[1], "js");

  const assets: Asset[] = [];
  for (const [href, kind] of found) {
    const body = Buffer.from(await (await fetch(new URL(href, baseUrl))).arrayBuffer());
    assets.push({ url: href, kind, raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length });
  }
  return assets.sort((a, b) => b.gzip - a.gzip);
}

interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  cls: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  scriptTransferKb: number;
  failing: string[];
}

async function runLighthouse(
  url: string,
  runs = 3,
): Promise<{ median: LighthouseFigures; all: LighthouseFigures[] }> {
  const all: LighthouseFigures[] = [];
  fs.mkdirSync(TMP, { recursive: true });
  for (let run = 1; run <= runs; run++) {
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
    try {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: "html",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
      });
      if (!result) throw new Error("Lighthouse returned nothing");
      const { lhr } = result;
      fs.writeFileSync(path.join(TMP, `lighthouse-${run}.html`), String(result.report));
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const scripts = (
        lhr.audits["resource-summary"]?.details as {
          items?: { resourceType: string; transferSize: number }[];
        }
      )?.items?.find((item) => item.resourceType === "script");
      const failing = Object.values(lhr.categories)
        .flatMap((category) => category.auditRefs)
        .filter((ref) => ref.weight > 0)
        .map((ref) => lhr.audits[ref.id])
        .filter(
          (audit) =>
            audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== "informative",
        )
        .map((audit) => `${audit?.id} (${audit?.displayValue ?? audit?.score})`);
      const figures: LighthouseFigures = {
        performance: score("performance"),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        seo: score("seo"),
        cls: numeric("cumulative-layout-shift"),
        lcpMs: numeric("largest-contentful-paint"),
        fcpMs: numeric("first-contentful-paint"),
        tbtMs: numeric("total-blocking-time"),
        scriptTransferKb: kb(scripts?.transferSize ?? 0),
        failing,
      };
      console.log(`Lighthouse run ${run}:`, figures);
      all.push(figures);
    } finally {
      chrome.kill();
    }
  }
  const sorted = [...all].sort((a, b) => a.performance - b.performance);
  return { median: sorted[Math.floor(sorted.length / 2)] as LighthouseFigures, all };
}

interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  throughputKb: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, connections = 10): Promise<LoadFigures> {
  // Each request from one of many shoppers (the shop trusts one proxy here): from one address, the
  // search row would measure the per-client limit on searches, not the page.
  const nextShopper = shopperAddresses();
  const requests = [
    {
      setupRequest: (request: autocannon.Request) => ({
        ...request,
        headers: { ...request.headers, "x-forwarded-for": nextShopper() },
      }),
    },
  ];
  await autocannon({ url, connections, duration: 2, requests });
  const result = await autocannon({ url, connections, duration: DURATION, requests });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    throughputKb: result.throughput.average / 1024,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function loadTable(baseUrl: string): Promise<string> {
  let text =
    "| page | connections | requests/s | p50 ms | p99 ms | KiB/s | errors / non-2xx |\n|---|---:|---:|---:|---:|---:|---:|\n";
  for (const scenario of LOAD_SCENARIOS) {
    const figures = await load(`${baseUrl}${scenario.path}`);
    console.log(scenario.name, figures);
    text += `| ${scenario.name} \`${scenario.path}\` | 10 | ${figures.rps} | ${figures.p50} | ${figures.p99} | ${fmt(figures.throughputKb, 0)} | ${figures.errors} / ${figures.non2xx} |\n`;
  }
  return text;
}

async function onPostgres(sql: string) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** SSR throughput on a large PostgreSQL catalogue, cache on (default) and off. */
async function postgresLoad(): Promise<string> {
  await onPostgres("drop database if exists backline_storefront_bench with (force)");
  await onPostgres("create database backline_storefront_bench");
  const url = new URL(ADMIN_URL);
  url.pathname = "/backline_storefront_bench";
  const env = { DATABASE_URL: url.toString() };
  try {
    console.log(`\n== generating ${PRODUCTS} products on PostgreSQL`);
    for (const script of [
      ["scripts/db-migrate.ts"],
      ["scripts/db-generate-catalog.ts", "--count", String(PRODUCTS), "--replace"],
    ]) {
      const result = spawnSync("tsx", script, { stdio: "inherit", env: { ...process.env, ...env } });
      if (result.status !== 0) throw new Error(`tsx ${script.join(" ")} failed`);
    }
    const sections: string[] = [];
    for (const cacheSeconds of ["10", "0"]) {
      const shop = await startShopProcess({
        ...env,
        SEED_DEMO_CATALOG: "0",
        CATALOG_CACHE_SECONDS: cacheSeconds,
        LOG_LEVEL: "error",
        TRUST_PROXY: "1",
      });
      try {
        const title =
          cacheSeconds === "0"
            ? "catalogue cache off: each fixed URL read from PostgreSQL every time"
            : "cache-hit ceiling: each fixed URL repeated inside the 10 s catalogue cache (not real traffic; the realistic mix is in the Catalogue section)";
        sections.push(
          `#### ${PRODUCTS.toLocaleString("en-US")} products on PostgreSQL, ${title}\n\n${await loadTable(shop.url)}`,
        );
      } finally {
        await shop.stop();
      }
    }
    return sections.join("\n");
  } finally {
    await onPostgres("drop database if exists backline_storefront_bench with (force)");
  }
}

function verdict(ok: boolean): string {
  return ok ? "✅" : "❌";
}

async function main() {
  const info = runInfo("npm run bench -- storefront");
  const baseUrl = options["base-url"]?.replace(/\/$/, "");
  const shop = baseUrl ? undefined : await startShopProcess({ LOG_LEVEL: "error" });
  // Lighthouse treats localhost as a secure origin, as a real shop on HTTPS would be.
  const target = baseUrl ?? shop?.url.replace("127.0.0.1", "localhost") ?? "";
  const lines: string[] = [];
  try {
    const assets = await pageAssets(target);
    const total = (kind: Asset["kind"], key: "raw" | "gzip") =>
      assets.filter((asset) => asset.kind === kind).reduce((sum, asset) => sum + asset[key], 0);
    const jsGzip = kb(total("js", "gzip"));
    const cssGzip = kb(total("css", "gzip"));
    console.log(
      assets
        .map((asset) => `${asset.url}: ${fmt(kb(asset.raw))} KiB, gzip ${fmt(kb(asset.gzip))} KiB`)
        .join("\n"),
    );
    console.log(`JS ${fmt(jsGzip)} KiB gzip, CSS ${fmt(cssGzip)} KiB gzip`);

    lines.push(
      "#### Weight of the shop page `/`",
      "",
      "Every script and stylesheet its HTML makes the browser load (module preloads, the hydration entry, stylesheets), gzip level 9.",
      "",
      "| asset | raw KiB | gzip KiB |",
      "|---|---:|---:|",
      ...assets.map((asset) => `| \`${asset.url}\` | ${fmt(kb(asset.raw))} | ${fmt(kb(asset.gzip))} |`),
      `| **JavaScript total** | ${fmt(kb(total("js", "raw")))} | **${fmt(jsGzip)}** (budget ${BUDGET.jsGzipKb}) ${verdict(jsGzip <= BUDGET.jsGzipKb)} |`,
      `| **CSS total** | ${fmt(kb(total("css", "raw")))} | **${fmt(cssGzip)}** (budget ${BUDGET.cssGzipKb}) ${verdict(cssGzip <= BUDGET.cssGzipKb)} |`,
      "",
    );

    if (!options["skip-lighthouse"]) {
      const { median, all } = await runLighthouse(`${target}/`);
      lines.push(
        "#### Lighthouse, mobile preset (median of 3 runs by performance score)",
        "",
        "| category | score | target |",
        "|---|---:|---:|",
        `| Performance | ${median.performance} | ≥ ${BUDGET.performance} ${verdict(median.performance >= BUDGET.performance)} |`,
        `| Accessibility | ${median.accessibility} | ${BUDGET.accessibility} ${verdict(median.accessibility >= BUDGET.accessibility)} |`,
        `| Best Practices | ${median.bestPractices} | ${BUDGET.bestPractices} ${verdict(median.bestPractices >= BUDGET.bestPractices)} |`,
        `| SEO | ${median.seo} | ${BUDGET.seo} ${verdict(median.seo >= BUDGET.seo)} |`,
        // A shift too small for three decimals is still a shift: print enough digits to show it.
        `| CLS | ${median.cls === 0 ? "0" : median.cls.toPrecision(2)} | 0 ${verdict(median.cls === 0)} |`,
        "",
        `LCP ${fmt(median.lcpMs / 1000, 2)} s, FCP ${fmt(median.fcpMs / 1000, 2)} s, TBT ${fmt(median.tbtMs, 0)} ms (simulated Moto G Power on slow 4G); scripts on the wire ${fmt(median.scriptTransferKb)} KiB. ` +
          `All runs (perf/a11y/bp/seo): ${all.map((run) => `${run.performance}/${run.accessibility}/${run.bestPractices}/${run.seo}`).join(", ")}.` +
          (median.failing.length > 0 ? ` Audits below full marks: ${median.failing.join(", ")}.` : ""),
        "",
      );
    }
  } finally {
    await shop?.stop();
  }

  if (!options["skip-load"]) {
    if (baseUrl) {
      lines.push(`#### Server-rendered throughput against ${baseUrl}`, "", await loadTable(baseUrl));
    } else {
      lines.push(await postgresLoad());
    }
  }

  const section = [
    "<!-- storefront-bench:start -->",
    "## Storefront",
    "",
    `${runInfoLine(info)} ${spawnSync(CHROMIUM, ["--version"]).stdout?.toString().trim() || "Chromium"}; production build, server and load generator on loopback, ${DURATION} s per load row after a 2 s warm-up.${baseUrl ? ` Against ${baseUrl}.` : ""}${process.env.BENCH_NOTE ? ` ${process.env.BENCH_NOTE}` : ""}`,
    "",
    ...lines,
    "<!-- storefront-bench:end -->",
  ].join("\n");
  console.log(`\n${section}`);

  if (RECORD) {
    const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8") : "# Benchmark results\n";
    const marked = /<!-- storefront-bench:start -->[\s\S]*<!-- storefront-bench:end -->/;
    fs.writeFileSync(
      RESULTS,
      marked.test(previous) ? previous.replace(marked, section) : `${previous.trimEnd()}\n\n${section}\n`,
    );
    console.log(`\nRecorded in ${RESULTS}`);
  }
}

await main();
