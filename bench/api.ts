/**
 * Catalogue benchmark: `npm run bench -- api` (bench/run.ts builds first if needed).
 *
 * Its headline is the realistic mixed workload (bench/workload.ts): shoppers'
 * visits, a twentieth to a few popular listings, the rest fresh filters
 * (several brands or categories, price caps), sorts, deep pages and typed
 * searches, for the JSON API (listings, counts, facets, suggestions, each
 * visit from its own address) and for server-rendered shop pages (a share of
 * them signed in), on 100,000 products in PostgreSQL
 * and in the embedded PGlite. Fixed-URL rows follow, labelled for what they
 * are: the cache-hit ceiling. Figures, the targets they meet or miss, and query
 * plans go to bench/RESULTS.md (the "Catalogue" section, between its markers).
 */
import fs from "node:fs";
import path from "node:path";
import { productHref } from "../app/features/catalog/browsing/catalog-url";
import { CookieClient, signUp } from "../tests/support/http-client";
import { randomSource } from "../tests/support/random-source";
import { type ShopProcess, startShopProcess } from "../tests/support/shop-process";
import { bareServer, explain, type Load, load as loadWith, type Row, run, table } from "./api-load";
import { DIRECTUS_VERSION, directusPath, startDirectus, stopAll } from "./directus";
import { dropScratchDatabase, scratchDatabase } from "./scratch-database";
import {
  apiPaths,
  apiRequests,
  distinctShare,
  replaceSection,
  runInfo,
  runInfoLine,
  shopPagePaths,
} from "./workload";

/**
 * Catalogue sizes, comma-separated: the first gets every row (both engines,
 * the cache-hit ceiling, query plans), the others PostgreSQL's mixed
 * workloads beside the peer.
 */
const SIZES = (process.env.BENCH_PRODUCTS ?? "100000,1000000").split(",").map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
/** A load run of SECONDS unless the row says otherwise. */
const load = (options: Load) => loadWith({ seconds: SECONDS, ...options });
const TMP = path.resolve("bench/.tmp");
const RESULTS = path.resolve("bench/RESULTS.md");

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
  /** The share of distinct URLs among the first 20,000 of each mix. */
  distinct: { api: number; pages: number };
  searchUncached10?: Row;
}

const MIXED_API =
  "mixed API: shoppers' visits, 5% popular, the rest fresh multi-select filters, price caps, sorts, deep pages and typed searches (some misspelt); listings + counts (+ facets), suggestions as typed";
/** Directus has no facets or suggestions: its rows send the same visits' listings and counts only. */
const PEER_CALLS = ["/all-products", "/counts"] as const;
const MIXED_PAGES = "mixed pages: shop pages `/` in the same mix and product pages (1 in 7), 30% signed in";
const SEARCH_ONLY = "search as you type (prefixes of 2+ letters, fresh), /all-products + /counts";

/** What the shop logged when its search index was read: products, lexemes, megabytes, milliseconds. */
interface IndexRead {
  megabytes: number;
  milliseconds: number;
}

/**
 * Addresses of product pages to open, read from the shop's own API: a few
 * thousand products from pages across the whole catalogue.
 */
async function productPageAddresses(shop: ShopProcess): Promise<string[]> {
  const { count } = (await (await fetch(`${shop.url}/counts`)).json()) as { count: number };
  const random = randomSource(5);
  const addresses: string[] = [];
  for (let read = 0; read < 30; read++) {
    const page = 1 + random.int(Math.max(1, Math.floor(count / 100)));
    const response = await fetch(`${shop.url}/all-products?size=100&sort=asc&page=${page}`);
    const products = (await response.json()) as { id: number; name: string }[];
    addresses.push(...products.map((product) => productHref(product)));
  }
  return addresses;
}

/** Starts a shop and waits until its search index is read, so every row measures the index, not start-up. */
async function startIndexedShop(
  env: Record<string, string>,
): Promise<{ shop: ShopProcess; index: IndexRead }> {
  const shop = await startShopProcess({
    ...env,
    SEED_DEMO_CATALOG: "0",
    LOG_LEVEL: "info",
    TRUST_PROXY: "1",
  });
  const line = await shop.waitForOutput(/catalogue index read/, 15 * 60_000);
  return { shop, index: JSON.parse(line) as IndexRead };
}

async function mixedWorkloads(engine: string, env: Record<string, string>, withUncachedSearch: boolean) {
  const rows: Row[] = [];
  const { shop, index } = await startIndexedShop(env);
  let measured: Measured;
  try {
    const api50: Row = {
      workload: MIXED_API,
      connections: 50,
      figures: await load({ url: shop.url, connections: 50, nextRequest: apiRequests({ seed: 7 }) }),
    };
    rows.push(api50);
    const cookie = await signedInCookie(shop);
    const productPages = await productPageAddresses(shop);
    const pages10: Row = {
      workload: MIXED_PAGES,
      connections: 10,
      figures: await load({
        url: shop.url,
        connections: 10,
        nextPath: shopPagePaths({ seed: 11, productPages }),
        signedIn: { cookie, share: 0.3 },
      }),
    };
    rows.push(pages10);
    measured = {
      api50,
      pages10,
      distinct: {
        api: distinctShare(apiPaths({ seed: 7 })),
        pages: distinctShare(shopPagePaths({ seed: 11, productPages })),
      },
    };
  } finally {
    await shop.stop();
  }
  if (withUncachedSearch) {
    const { shop: uncached } = await startIndexedShop({ ...env, CATALOG_CACHE_SECONDS: "0" });
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
        figures: await load({ url: uncached.url, connections: 50, nextRequest: apiRequests({ seed: 7 }) }),
      };
      rows.push(searchUncached10, api50Uncached);
      measured.searchUncached10 = searchUncached10;
    } finally {
      await uncached.stop();
    }
  }
  for (const row of rows) console.log(engine, row.workload, row.connections, row.figures);
  return { rows, measured, index };
}

/**
 * The same workloads against Directus on the same table: every API path
 * translated to its REST API (bench/directus.ts), which has no answer cache
 * (CACHE_ENABLED=false, its default).
 */
async function peerWorkloads(databaseUrl: string): Promise<Row[]> {
  const directus = await startDirectus(databaseUrl);
  try {
    const rows: Row[] = [];
    for (const { workload, connections, paths } of [
      {
        workload: `${MIXED_API} — its listings and counts only`,
        connections: 50,
        paths: apiPaths({ seed: 7, only: PEER_CALLS }),
      },
      { workload: SEARCH_ONLY, connections: 10, paths: apiPaths({ seed: 13, searchOnly: true }) },
    ]) {
      const nextPath = () => directusPath(paths());
      rows.push({
        workload: `Directus ${DIRECTUS_VERSION}: ${workload}`,
        connections,
        figures: await load({ url: directus.url, connections, nextPath }),
      });
    }
    return rows;
  } finally {
    await directus.stop();
  }
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
  // From many shoppers' addresses, as the mixed rows: from one, the search would meet its per-client limit.
  const shop = await startShopProcess({
    ...env,
    SEED_DEMO_CATALOG: "0",
    LOG_LEVEL: "error",
    TRUST_PROXY: "1",
  });
  const rows: Row[] = [];
  try {
    for (const scenario of CEILING_SCENARIOS) {
      rows.push({
        workload: `cache-hit ceiling: ${scenario.name}, one URL repeated \`${scenario.path}\``,
        connections: 50,
        figures: await load({ url: shop.url, nextPath: () => scenario.path, connections: 50, seconds: 5 }),
      });
    }
  } finally {
    await shop.stop();
  }
  return rows;
}

const mark = (met: boolean) => (met ? "✅ met" : "❌ missed");

/** One catalogue size measured on PostgreSQL: the shop, its peer, and how long generation took. */
interface SizeRun {
  count: number;
  generatedSeconds: number;
  postgres: Awaited<ReturnType<typeof mixedWorkloads>>;
  peer: Awaited<ReturnType<typeof peerWorkloads>>;
}

const percent = (share: number) => `${(share * 100).toFixed(0)}%`;

const thousands = (count: number) => `${Math.round(count / 1000).toLocaleString("en-US")}k`;

function targets(runs: SizeRun[], pglite: Measured): string {
  const [first, ...larger] = runs as [SizeRun, ...SizeRun[]];
  const postgres = first.postgres.measured;
  const everyMixedRow = [
    ...runs.flatMap((run) => [run.postgres.measured.api50, run.postgres.measured.pages10]),
    pglite.api50,
    pglite.pages10,
  ];
  const errors = everyMixedRow.reduce((sum, row) => sum + row.figures.errors + row.figures.serverErrors, 0);
  // A shop page past a listing's last page answers 404 (issue 21): an answer, not a failure.
  const clientErrors = everyMixedRow.reduce(
    (sum, row) => sum + row.figures.non2xx - row.figures.serverErrors,
    0,
  );
  const lines = [
    "| target (2 cores, default configuration, PostgreSQL) | measured | |",
    "|---|---|---|",
    [
      `${thousands(first.count)}: API p99 ≤ 50 ms at 50 connections, realistic mix`,
      `${postgres.api50.figures.p99} ms (${postgres.api50.figures.rps} requests/s)`,
      mark(postgres.api50.figures.p99 <= 50),
    ],
    [
      `${thousands(first.count)}: shop page p99 ≤ 150 ms at 10 connections, realistic mix`,
      `${postgres.pages10.figures.p99} ms (${postgres.pages10.figures.rps} pages/s)`,
      mark(postgres.pages10.figures.p99 <= 150),
    ],
    [
      `${thousands(first.count)}: search of 2+ characters p99 ≤ 25 ms at 10 connections, cache off`,
      `${postgres.searchUncached10?.figures.p99 ?? "—"} ms (${postgres.searchUncached10?.figures.rps ?? "—"} requests/s)`,
      mark((postgres.searchUncached10?.figures.p99 ?? Number.POSITIVE_INFINITY) <= 25),
    ],
    ...larger.flatMap((run) => [
      [
        `${thousands(run.count)}: API p99 ≤ 100 ms at 50 connections, realistic mix`,
        `${run.postgres.measured.api50.figures.p99} ms (${run.postgres.measured.api50.figures.rps} requests/s)`,
        mark(run.postgres.measured.api50.figures.p99 <= 100),
      ],
      [
        `${thousands(run.count)}: pages p99 ≤ 150 ms at 10 connections, mix with product pages`,
        `${run.postgres.measured.pages10.figures.p99} ms (${run.postgres.measured.pages10.figures.rps} pages/s)`,
        mark(run.postgres.measured.pages10.figures.p99 <= 150),
      ],
      [
        `${thousands(run.count)}: generation well under 5 minutes`,
        `${run.generatedSeconds.toFixed(0)} s`,
        mark(run.generatedSeconds < 300),
      ],
    ]),
    [
      "no errors and no 5xx under the mixed workloads",
      `${errors} errors and 5xx (${clientErrors} 4xx: shop pages past a listing's end answer 404)`,
      mark(errors === 0),
    ],
  ];
  return lines.map((line) => (Array.isArray(line) ? `| ${line.join(" | ")} |` : line)).join("\n");
}

function generate(count: number, env: Record<string, string>): number {
  console.log(`\n== generating ${count} products`);
  return run("npx", ["tsx", "scripts/db-generate-catalog.ts", "--count", String(count), "--replace"], env);
}

async function main() {
  fs.mkdirSync(TMP, { recursive: true });
  const info = runInfo("npm run bench -- api");
  const pgUrl = await scratchDatabase("backline_bench");
  const [firstCount, ...largerCounts] = SIZES as [number, ...number[]];

  // The first size: every row.
  const firstSeconds = generate(firstCount, { DATABASE_URL: pgUrl });
  const runs: SizeRun[] = [
    {
      count: firstCount,
      generatedSeconds: firstSeconds,
      postgres: await mixedWorkloads("PostgreSQL", { DATABASE_URL: pgUrl }, true),
      peer: await peerWorkloads(pgUrl),
    },
  ];
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
  const pgliteSeconds = generate(firstCount, { DATA_DIR: pgliteDir });
  const pglite = await mixedWorkloads("PGlite", { DATA_DIR: pgliteDir }, false);
  fs.rmSync(pgliteDir, { recursive: true, force: true });

  // Larger sizes: PostgreSQL's mixed workloads beside the peer.
  for (const count of largerCounts) {
    const generatedSeconds = generate(count, { DATABASE_URL: pgUrl });
    runs.push({
      count,
      generatedSeconds,
      postgres: await mixedWorkloads("PostgreSQL", { DATABASE_URL: pgUrl }, true),
      peer: await peerWorkloads(pgUrl),
    });
  }
  await stopAll();

  const sizeSections = runs.flatMap((sized) => [
    `#### PostgreSQL, ${sized.count.toLocaleString("en-US")} products`,
    "",
    `Generated in ${sized.generatedSeconds.toFixed(1)} s; the shop's search index read in ${(sized.postgres.index.milliseconds / 1000).toFixed(1)} s, holding ${sized.postgres.index.megabytes} MB. The Directus rows ran on the same database right after the shop's. Distinct URLs among the first 20,000: ${percent(sized.postgres.measured.distinct.api)} of the API mix, ${percent(sized.postgres.measured.distinct.pages)} of the page mix.`,
    "",
    table([...sized.postgres.rows, ...sized.peer]),
  ]);
  const section = [
    "## Catalogue: the realistic mixed workload",
    "",
    runInfoLine(info),
    `Sizes: ${SIZES.map((count) => count.toLocaleString("en-US")).join(" and ")} products. Autocannon, the shop and Directus on loopback, each in its own process; ${SECONDS} s per row after a 1 s warm-up; the shop in its default configuration (catalogue cache 10 s, 64 MiB) unless a row says otherwise, each row started once its search index was read. The peer is Directus ${DIRECTUS_VERSION} on the same table, every request translated to its REST API (bench/directus.ts); its search is its own generic one (a substring of any text field).`,
    "",
    "#### Against the targets",
    "",
    targets(runs, pglite.measured),
    "",
    ...sizeSections,
    `#### PGlite (the embedded database), ${firstCount.toLocaleString("en-US")} products`,
    "",
    `Generated in ${pgliteSeconds.toFixed(1)} s; the search index read in ${(pglite.index.milliseconds / 1000).toFixed(1)} s.`,
    "",
    table(pglite.rows),
    `#### Cache-hit ceiling (PostgreSQL, ${firstCount.toLocaleString("en-US")} products): one URL repeated, answered from the cache — not real traffic`,
    "",
    table([...ceiling, bareRow]),
    "#### Query plans on PostgreSQL (EXPLAIN ANALYZE): the SQL queries that answer while the index is read",
    plans,
  ].join("\n");

  const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8") : "# Benchmark results\n";
  fs.writeFileSync(RESULTS, replaceSection(previous, "api-bench", section));
  console.log(`\nRecorded in ${RESULTS}`);

  await dropScratchDatabase("backline_bench");
}

await main();
