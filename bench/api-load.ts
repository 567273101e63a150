/**
 * The catalogue benchmark's tools (bench/api.ts): a load run with autocannon
 * and its figures, a table of rows, the bare-server ceiling, query plans.
 */
import { fork, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import type { Throughput } from "./shoppers";
import { type ApiRequest, shopperAddresses } from "./workload";

const TMP = path.resolve("bench/.tmp");

export interface Figures extends Throughput {
  errors: number;
  /** Of the errors, requests with no answer within autocannon's 10 s timeout. */
  timeouts: number;
  non2xx: number;
  /** Of the non-2xx answers, those with a 5xx status. */
  serverErrors: number;
  /** Each non-2xx status with its count, e.g. "503×2". */
  non2xxStatuses: string;
}

export interface Load {
  url: string;
  connections: number;
  seconds?: number;
  /** Each request's path; a fixed URL when absent. */
  nextPath?: () => string;
  /** Each request's path and shopper's address (the API mix's visits), instead of `nextPath`. */
  nextRequest?: () => ApiRequest;
  /** Cookie sent with this share of requests (a signed-in shopper). */
  signedIn?: { cookie: string; share: number };
}

export async function load({
  url,
  connections,
  seconds = 15,
  nextPath,
  nextRequest,
  signedIn,
}: Load): Promise<Figures> {
  let counter = 0;
  // Each request from one of many shoppers, as the shop sees them behind a proxy (TRUST_PROXY=1).
  const nextShopper = shopperAddresses();
  const next = nextRequest ?? (nextPath ? () => ({ path: nextPath(), address: nextShopper() }) : undefined);
  const requests = next
    ? [
        {
          setupRequest(request: autocannon.Request) {
            const { path, address } = next();
            const headers = { ...request.headers, "x-forwarded-for": address };
            if (signedIn && (counter++ % 100) / 100 < signedIn.share) headers.cookie = signedIn.cookie;
            else delete headers.cookie;
            return { ...request, path, headers };
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
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    serverErrors: Object.entries(result.statusCodeStats ?? {})
      .filter(([status]) => status.startsWith("5"))
      .reduce((sum, [, stats]) => sum + (stats?.count ?? 0), 0),
    non2xxStatuses: Object.entries(result.statusCodeStats ?? {})
      .filter(([status]) => !status.startsWith("2"))
      .map(([status, { count }]) => `${status}×${count}`)
      .join(", "),
  };
}

export function run(command: string, args: string[], env: Record<string, string>) {
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
  return (Date.now() - started) / 1000;
}

export async function explain(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // The settings of the shop's own pool (app/db/client.server.ts), so these are the plans it runs.
  await client.query("set max_parallel_workers_per_gather = 0");
  const queries: [string, string][] = [
    [
      "filtered + price-sorted page (category=fitness, band=cycleFit, range=150, sort=dsc)",
      `select p.id, p.name, p.price_minor from products p join (select id from products where category = 'fitness' and band_name = 'cycleFit' and price_minor <= 15000 order by price_minor desc, id desc limit 5 offset 0) page on p.id = page.id order by p.price_minor desc, p.id desc`,
    ],
    [
      "search 'blend', name matches first, then best rated",
      `select p.id, p.name from products p join (select id, search_vector @@ (to_tsquery('english', 'blend:*A') || to_tsquery('simple', 'blend:*A')) as in_name from products where search_vector @@ (to_tsquery('english', 'blend:*') || to_tsquery('simple', 'blend:*')) order by in_name desc, ratings desc, creation_date desc, id limit 5) page on p.id = page.id order by page.in_name desc, p.ratings desc, p.creation_date desc, p.id`,
    ],
    [
      "count with a filter (category=outdoor, range=100)",
      `select count(*) from products where category = 'outdoor' and price_minor <= 10000`,
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
export async function bareServer(body: string): Promise<{ url: string; stop(): void }> {
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

export interface Row {
  workload: string;
  connections: number;
  figures: Figures;
}

export function table(rows: Row[]): string {
  let text =
    "| workload | connections | requests/s | p50 ms | p90 ms | p99 ms | max ms | requests | errors / non-2xx |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const { workload, connections, figures: f } of rows) {
    text += `| ${workload} | ${connections} | ${f.rps} | ${f.p50} | ${f.p90} | ${f.p99} | ${f.max} | ${f.requests} | ${f.errors}${f.timeouts ? ` (${f.timeouts} timed out)` : ""} / ${f.non2xx}${f.non2xxStatuses ? ` (${f.non2xxStatuses})` : ""} |\n`;
  }
  return text;
}
