/**
 * Catalogue benchmark: `npm run bench -- api` (bench/run.ts builds first if needed).
 *
 * Its headline is the realistic mixed workload (bench/workload.ts): a fifth of
 * requests to a few popular URLs, the rest fresh filter/sort/page combinations
 * and search-as-you-type prefixes, for the JSON API and for server-rendered
 * shop pages (a share of them signed in), on 100,000 products in PostgreSQL
 * and in the embedded PGlite. Fixed-URL rows follow, labelled for what they
 * are: the cache-hit ceiling. Figures, the targets they meet or miss, and query
 * plans go to bench/RESULTS.md (the "Catalogue" section, between its markers).
 */
import { fork, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { CookieClient, signUp } from "../tests/support/http-client";
import { type ShopProcess, startShopProcess } from "../tests/support/shop-process";
import { apiPaths, replaceSection, runInfo, runInfoLine, shopPagePaths } from "./workload";

const COUNT = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test";
const TMP = path.resolve("bench/.tmp");
const RESULTS = path.resolve("bench/RESULTS.md");

interface Figures {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requests: number;
  errors: number;
  non2xx: number;
}

interface Load {
  url: string;
  connections: number;
  seconds?: number;
  /** Each request's path; a fixed URL when absent. */
  nextPath?: () => string;
  /** Cookie sent with this share of requests (a signed-in shopper). */
  signedIn?: { cookie: string; share: number };
}

async function load({ url, connections, seconds = SECONDS, nextPath, signedIn }: Load): Promise<Figures> {
  let counter = 0;
  const requests = nextPath
    ? [
        {
          setupRequest(request: autocannon.Request) {
            const headers = { ...request.headers };
            if (signedIn && (counter++ % 100) / 100 < signedIn.share) headers.cookie = signedIn.cookie;
            else delete headers.cookie;
            return { ...request, path: nextPath(), headers };
          },
        },
      ]
    : undefined;
  const options = { url, connections, requests };
  // A short warm-up so the first figures are not JIT and connection set-up.
  await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration: seconds });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

function run(command: string, args: string[], env: Record<string, string>) {
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
  return (Date.now() - started) / 1000;
}

async function scratchPostgres(): Promise<string> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query("drop database if exists backline_bench with (force)");
  await admin.query("create database backline_bench");
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = "/backline_bench";
  return url.toString();
}

async function explain(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // The settings of the shop's own pool (app/db/client.server.ts), so these are the plans it runs.
  await client.query("set max_parallel_workers_per_gather = 0");
  const queries: [string, string][] = [
    [
      "filtered + price-sorted page (category=fitness, band=cycleFit, range=150, sort=dsc)",
      `select p.id, p.name, p.price from products p join (select id from products where category = 'fitness' and band_name = 'cycleFit' and price <= 150 order by price desc, id desc limit 5 offset 0) page on p.id = page.id order by p.price desc, p.id desc`,
    ],
    [
      "search 'blend', ranked",
      `select p.id, p.name from products p join (select id, ts_rank(search_vector, q) as rank from products, (select to_tsquery('english', 'blend:*') || to_tsquery('simple', 'blend:*') as q) query where search_vector @@ q order by rank desc, id limit 5) page on p.id = page.id order by page.rank desc, p.id`,
    ],
    [
      "count with a filter (category=outdoor, range=100)",
      `select count(*) from products where category = 'outdoor' and price <= 100`,
    ],
  ];
  let text = "";
  for (const [title, sql] of queries) {
    const { rows } = await client.query(`explain (analyze, buffers, costs off) ${sql}`);
    text += `\n${title}:\n\`\`\`\n${rows.map((row) => row["QUERY PLAN"]).join("\n")}\n\`\`\`\n`;
  }
  await client.end();
  return text;
}

/** The ceiling: a bare node:http server answering a precomputed body, in its own process. */
async function bareServer(body: string): Promise<{ url: string; stop(): void }> {
  const file = path.join(TMP, "bare-body.json");
  fs.writeFileSync(file, body);
  const child = fork(path.resolve("bench/bare-server.mjs"), [file], {
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve) =>
    child.once("message", (message) => resolve(Number(message))),
  );
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

interface Row {
  workload: string;
  connections: number;
  figures: Figures;
}

function table(rows: Row[]): string {
  let text =
    "| workload | connections | requests/s | p50 ms | p90 ms | p99 ms | max ms | requests | errors / non-2xx |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const { workload, connections, figures: f } of rows) {
    text += `| ${workload} | ${connections} | ${f.rps} | ${f.p50} | ${f.p90} | ${f.p99} | ${f.max} | ${f.requests} | ${f.errors} / ${f.non2xx} |\n`;
  }
  return text;
}

/** A shopper's session cookie, for the signed-in share of page renders. */
async function signedInCookie(shop: ShopProcess): Promise<string> {
  const client = new CookieClient();
  const response = await signUp(client, shop.url, `bench-${Date.now()}@example.com`);
  if (response.status !== 302) throw new Error(`bench sign-up answered ${response.status}`);
  return client.cookieHeader(shop.url);
}

interface Measured {
  api50: Row;
  pages10: Row;
  searchUncached10?: Row;
}

const MIXED_API =
  "mixed API: 20% popular, the rest fresh filters/sorts/pages and typed search prefixes, page + count";
const MIXED_PAGES = "mixed shop pages `/`, same mix, 30% signed in";
const SEARCH_ONLY = "search as you type (prefixes of 2+ letters, fresh), /all-products + /counts";

async function mixedWorkloads(engine: string, env: Record<string, string>, withUncachedSearch: boolean) {
  const rows: Row[] = [];
  const shop = await startShopProcess({
    ...env,
    SEED_DEMO_CATALOG: "0",
    LOG_LEVEL: "error",
    TRUST_PROXY: "1",
  });
  let measured: Measured;
  try {
    const api50: Row = {
      workload: MIXED_API,
      connections: 50,
      figures: await load({ url: shop.url, connections: 50, nextPath: apiPaths({ seed: 7 }) }),
    };
    rows.push(api50);
    const cookie = await signedInCookie(shop);
    const pages10: Row = {
      workload: MIXED_PAGES,
      connections: 10,
      figures: await load({
        url: shop.url,
        connections: 10,
        nextPath: shopPagePaths({ seed: 11 }),
        signedIn: { cookie, share: 0.3 },
      }),
    };
    rows.push(pages10);
    measured = { api50, pages10 };
  } finally {
    await shop.stop();
  }
  if (withUncachedSearch) {
    const uncached = await startShopProcess({
      ...env,
      SEED_DEMO_CATALOG: "0",
      LOG_LEVEL: "error",
      CATALOG_CACHE_SECONDS: "0",
    });
    try {
      const searchUncached10: Row = {
        workload: `${SEARCH_ONLY}, **cache off**`,
        connections: 10,
        figures: await load({
          url: uncached.url,
          connections: 10,
          nextPath: apiPaths({ seed: 13, searchOnly: true }),
        }),
      };
      const api50Uncached: Row = {
        workload: `${MIXED_API}, **cache off**`,
        connections: 50,
        figures: await load({ url: uncached.url, connections: 50, nextPath: apiPaths({ seed: 7 }) }),
      };
      rows.push(searchUncached10, api50Uncached);
      measured.searchUncached10 = searchUncached10;
    } finally {
      await uncached.stop();
    }
  }
  for (const row of rows) console.log(engine, row.workload, row.connections, row.figures);
  return { rows, measured };
}

const CEILING_SCENARIOS = [
  { name: "page 1", path: "/all-products" },
  {
    name: "filtered + price-sorted",
    path: "/all-products?category=fitness&band=cycleFit&range=150&sort=dsc",
  },
  { name: "broad search", path: "/all-products?search=blend" },
  { name: "count with a filter", path: "/counts?category=outdoor&range=100" },
];

async function cacheHitCeiling(env: Record<string, string>): Promise<Row[]> {
  const shop = await startShopProcess({ ...env, SEED_DEMO_CATALOG: "0", LOG_LEVEL: "error" });
  const rows: Row[] = [];
  try {
    for (const scenario of CEILING_SCENARIOS) {
      rows.push({
        workload: `cache-hit ceiling: ${scenario.name}, one URL repeated \`${scenario.path}\``,
        connections: 50,
        figures: await load({ url: `${shop.url}${scenario.path}`, connections: 50, seconds: 5 }),
      });
    }
  } finally {
    await shop.stop();
  }
  return rows;
}

const mark = (met: boolean) => (met ? "✅ met" : "❌ missed");

function targets(postgres: Measured, pglite: Measured): string {
  const lines = [
    "| target (100k products, 2 cores, default configuration) | measured | |",
    "|---|---|---|",
    [
      "API p99 ≤ 50 ms at 50 connections, realistic mix (PostgreSQL)",
      `${postgres.api50.figures.p99} ms (${postgres.api50.figures.rps} requests/s)`,
      mark(postgres.api50.figures.p99 <= 50),
    ],
    [
      "shop page p99 ≤ 150 ms at 10 connections, realistic mix (PostgreSQL)",
      `${postgres.pages10.figures.p99} ms (${postgres.pages10.figures.rps} pages/s)`,
      mark(postgres.pages10.figures.p99 <= 150),
    ],
    [
      "search of 2+ characters p99 ≤ 25 ms at 10 connections, cache off (PostgreSQL)",
      `${postgres.searchUncached10?.figures.p99 ?? "—"} ms`,
      mark((postgres.searchUncached10?.figures.p99 ?? Number.POSITIVE_INFINITY) <= 25),
    ],
    [
      "no errors and no 5xx under the mixed workloads",
      `${[postgres.api50, postgres.pages10, pglite.api50, pglite.pages10].reduce((sum, row) => sum + row.figures.errors + row.figures.non2xx, 0)} errors / non-2xx`,
      mark(
        [postgres.api50, postgres.pages10, pglite.api50, pglite.pages10].every(
          (row) => row.figures.errors + row.figures.non2xx === 0,
        ),
      ),
    ],
  ];
  return lines.map((line) => (Array.isArray(line) ? `| ${line.join(" | ")} |` : line)).join("\n");
}

async function main() {
  fs.mkdirSync(TMP, { recursive: true });
  const info = runInfo("npm run bench -- api");

  const pgUrl = await scratchPostgres();
  console.log(`\n== PostgreSQL: generating ${COUNT} products`);
  const pgSeconds = run(
    "npx",
    ["tsx", "scripts/db-generate-catalog.ts", "--count", String(COUNT), "--replace"],
    {
      DATABASE_URL: pgUrl,
    },
  );
  const postgres = await mixedWorkloads("PostgreSQL", { DATABASE_URL: pgUrl }, true);
  const ceiling = await cacheHitCeiling({ DATABASE_URL: pgUrl });
  const plans = await explain(pgUrl);

  const sample = await startShopProcess({ DATABASE_URL: pgUrl, LOG_LEVEL: "error", SEED_DEMO_CATALOG: "0" });
  const body = await (await fetch(`${sample.url}/all-products`)).text();
  await sample.stop();
  const bare = await bareServer(body);
  const bareRow: Row = {
    workload: `bare node:http, precomputed ${body.length}-byte JSON (the machine's ceiling)`,
    connections: 50,
    figures: await load({ url: bare.url, connections: 50, seconds: 5 }),
  };
  bare.stop();

  const pgliteDir = path.join(TMP, "pglite");
  fs.rmSync(pgliteDir, { recursive: true, force: true });
  console.log(`\n== PGlite: generating ${COUNT} products`);
  const pgliteSeconds = run(
    "npx",
    ["tsx", "scripts/db-generate-catalog.ts", "--count", String(COUNT), "--replace"],
    {
      DATA_DIR: pgliteDir,
    },
  );
  const pglite = await mixedWorkloads("PGlite", { DATA_DIR: pgliteDir }, false);

  const section = [
    "## Catalogue: the realistic mixed workload",
    "",
    runInfoLine(info),
    `${COUNT.toLocaleString("en-US")} products (generated in ${pgSeconds.toFixed(1)} s on PostgreSQL, ${pgliteSeconds.toFixed(1)} s on PGlite); autocannon and the shop on loopback, each in its own process; ${SECONDS} s per row after a 1 s warm-up; default configuration (catalogue cache 10 s, 64 MiB) unless a row says otherwise.`,
    "",
    "#### Against the targets",
    "",
    targets(postgres.measured, pglite.measured),
    "",
    "#### PostgreSQL",
    "",
    table(postgres.rows),
    "#### PGlite (the embedded database)",
    "",
    table(pglite.rows),
    "#### Cache-hit ceiling (PostgreSQL): one URL repeated, answered from the cache — not real traffic",
    "",
    table([...ceiling, bareRow]),
    "#### Query plans on PostgreSQL (EXPLAIN ANALYZE)",
    plans,
  ].join("\n");

  const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8") : "# Benchmark results\n";
  fs.writeFileSync(RESULTS, replaceSection(previous, "api-bench", section));
  console.log(`\nRecorded in ${RESULTS}`);

  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query("drop database if exists backline_bench with (force)");
  await admin.end();
}

await main();
