/**
 * Catalogue API benchmark: `npm run bench -- api` (bench/run.ts builds first if needed).
 *
 * For a 100,000-product catalogue on PostgreSQL and on PGlite, it runs the
 * production server in its own process and loads it with autocannon on
 * loopback at 10 and 50 connections, with the catalogue cache on (default)
 * and off, beside a bare node:http server returning a same-size precomputed
 * JSON body (the ceiling). Figures and EXPLAIN ANALYZE plans go to
 * bench/RESULTS.md (the "Catalogue API" section, between its markers).
 */
import { fork, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { type ShopProcess, startShopProcess } from "../tests/support/shop-process";

const COUNT = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 6);
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test";
const TMP = path.resolve("bench/.tmp");
const RESULTS = path.resolve("bench/RESULTS.md");

const SCENARIOS = [
  { name: "plain page 1", path: "/all-products" },
  {
    name: "filtered + price-sorted",
    path: "/all-products?category=fitness&band=cycleFit&range=150&sort=dsc",
  },
  { name: "search, typical (~1.5% match)", path: "/all-products?search=yoga%20mat" },
  { name: "search, broad prefix (~22% match)", path: "/all-products?search=blend" },
  { name: "page 1,000", path: "/all-products?page=1000" },
  { name: "/counts with a filter", path: "/counts?category=outdoor&range=100" },
];
const CONNECTIONS = [10, 50];

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, connections: number, duration = DURATION): Promise<Figures> {
  // A short warm-up so the first figures are not JIT and connection set-up.
  await autocannon({ url, connections, duration: 1 });
  const result = await autocannon({ url, connections, duration });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
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
  const queries: [string, string][] = [
    [
      "filtered + price-sorted page (category=fitness, band=cycleFit, range=150, sort=dsc)",
      `select p.id, p.name, p.price from products p join (select id from products where category = 'fitness' and band_name = 'cycleFit' and price <= 150 order by price desc, id desc limit 5 offset 0) page on p.id = page.id order by p.price desc, p.id desc`,
    ],
    [
      "page 1,000 of the unfiltered list",
      `select p.id, p.name from products p join (select id from products order by id limit 5 offset 4995) page on p.id = page.id order by p.id`,
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

function table(rows: { scenario: string; connections: number; figures: Figures }[]): string {
  let text =
    "| scenario | connections | requests/s | p50 ms | p99 ms | errors / non-2xx |\n|---|---:|---:|---:|---:|---:|\n";
  for (const { scenario, connections, figures } of rows) {
    text += `| ${scenario} | ${connections} | ${figures.rps} | ${figures.p50} | ${figures.p99} | ${figures.errors} / ${figures.non2xx} |\n`;
  }
  return text;
}

async function benchEngine(engine: string, env: Record<string, string>) {
  console.log(`\n== ${engine}: generating ${COUNT} products`);
  const seconds = run(
    "npx",
    ["tsx", "scripts/db-generate-catalog.ts", "--count", String(COUNT), "--replace"],
    env,
  );
  const sections: string[] = [
    `Catalogue of ${COUNT.toLocaleString("en-US")} products generated in ${seconds.toFixed(1)} s.\n`,
  ];
  for (const cacheSeconds of ["10", "0"]) {
    const shop: ShopProcess = await startShopProcess({
      ...env,
      SEED_DEMO_CATALOG: "0",
      CATALOG_CACHE_SECONDS: cacheSeconds,
      LOG_LEVEL: "error",
    });
    const rows = [];
    try {
      for (const scenario of SCENARIOS) {
        for (const connections of CONNECTIONS) {
          const figures = await load(`${shop.url}${scenario.path}`, connections);
          console.log(engine, `cache=${cacheSeconds}`, scenario.name, connections, figures);
          rows.push({ scenario: `${scenario.name} \`${scenario.path}\``, connections, figures });
        }
      }
      if (cacheSeconds === "10") {
        const ssr = await load(`${shop.url}/`, 10);
        rows.push({ scenario: "shop page `/` (server-rendered HTML)", connections: 10, figures: ssr });
      }
    } finally {
      await shop.stop();
    }
    sections.push(
      `\n#### ${engine}, catalogue cache ${cacheSeconds === "0" ? "off (every request reads the database)" : "on (CATALOG_CACHE_SECONDS=10, the default)"}\n\n${table(rows)}`,
    );
  }
  return sections.join("\n");
}

async function main() {
  fs.mkdirSync(TMP, { recursive: true });
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const startedAt = new Date().toISOString();

  // The ceiling first, with a body the size of page 1's JSON.
  const pgUrl = await scratchPostgres();
  const sample = await startShopProcess({ DATABASE_URL: pgUrl, LOG_LEVEL: "error" });
  const body = await (await fetch(`${sample.url}/all-products`)).text();
  await sample.stop();
  const bare = await bareServer(body);
  const ceilingRows = [];
  for (const connections of CONNECTIONS) {
    ceilingRows.push({
      scenario: `bare node:http, precomputed ${body.length}-byte JSON`,
      connections,
      figures: await load(bare.url, connections),
    });
  }
  bare.stop();

  const postgres = await benchEngine("PostgreSQL", { DATABASE_URL: pgUrl });
  const plans = await explain(pgUrl);
  const pgliteDir = path.join(TMP, "pglite");
  fs.rmSync(pgliteDir, { recursive: true, force: true });
  const pglite = await benchEngine("PGlite", { DATA_DIR: pgliteDir });

  const section = [
    "<!-- api-bench:start -->",
    "## Catalogue API",
    "",
    `Command: \`npm run bench\` (bench/api.ts). Run ${startedAt} on ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; autocannon and the server on loopback, each in its own process; ${DURATION} s per row after a 1 s warm-up.`,
    "",
    "#### Ceiling",
    "",
    table(ceilingRows),
    postgres,
    "",
    pglite,
    "",
    "#### Query plans on PostgreSQL (EXPLAIN ANALYZE, 100k products)",
    plans,
    "<!-- api-bench:end -->",
  ].join("\n");

  const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8") : "# Benchmark results\n";
  const marked = /<!-- api-bench:start -->[\s\S]*<!-- api-bench:end -->/;
  fs.writeFileSync(
    RESULTS,
    marked.test(previous) ? previous.replace(marked, section) : `${previous.trimEnd()}\n\n${section}\n`,
  );
  console.log(`\nRecorded in ${RESULTS}`);

  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query("drop database if exists backline_bench with (force)");
  await admin.end();
}

await main();
