/**
 * Cart and checkout benchmark (issues 23 and 32): `npm run bench -- shop`.
 *
 * On a scratch PostgreSQL database with the synthetic catalogue the api bench
 * uses (100,000 products) and a million units of each on hand, many guest
 * shoppers (bench/shoppers.ts), each with their own address and cart cookie,
 * add baskets of 1 to 4 products — half of them one of 5 popular products —
 * and check them out with a fresh Idempotency-Key each, so half the checkouts
 * take stock from the same 5 rows (the worst case of contention a real shop
 * sees). Each is measured against the shop and, in the same run, on the same
 * database and with the same client, against the floor of the work
 * (bench/floor-server.mjs: node:http + pg running the shop's statements,
 * checked first by bench/floor-check.ts):
 *
 * - saturation (closed loop): adds at 50 connections, then checkouts of those
 *   carts at 20; the shop's throughput against the floor's (target: ≥ 50 %);
 * - latency at a fixed pace (open loop, bench/shop-load.ts): 200 adds/s, then
 *   50 checkouts/s (after 5 s and 1 s at that pace), each latency from
 *   when its request was due (targets:
 *   p99 ≤ 30 ms and ≤ 150 ms for the shop; the floor's for reference).
 *
 * One server runs at a time (each sends its own confirmation emails before it
 * stops; each starts after a VACUUM (ANALYZE), as autovacuum would have run): saturation in rounds (BENCH_SHOP_ROUNDS, 3), each server first in
 * turn, each figure its server's median round; then the fixed pace, floor and
 * shop. Afterwards the
 * database must add up exactly: one order per 201, each product's units on
 * hand plus ordered equal to what it started with. Any 5xx, unexpected 409,
 * unanswered request or wrong order fails the run (exit code 1) and is
 * printed. Figures go to bench/RESULTS.md, between the shop-bench markers;
 * BENCH_RECORD=0 prints them only (for a smoke run); BENCH_SHOP_NODE_OPTIONS is
 * passed to the shop's processes as NODE_OPTIONS (a CPU profile, say).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { randomSource } from "../tests/support/random-source";
import { startShopProcess } from "../tests/support/shop-process";
import { checkFloorOnScratch, type FloorCheck, floorCheckSummary, startFloorProcess } from "./floor-check";
import { dropScratchDatabase, scratchDatabase, settleLikeAutovacuum } from "./scratch-database";
import {
  adding,
  addingOnSchedule,
  CartQueue,
  checkingOut,
  checkingOutOnSchedule,
  type Ordered,
} from "./shop-load";
import {
  type Figures,
  type ShopClient,
  type Shopper,
  shopClient,
  shopperStream,
  type Tally,
} from "./shoppers";
import { replaceSection, runInfo, runInfoLine } from "./workload";

const PRODUCTS = Number(process.env.BENCH_SHOP_PRODUCTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const RECORD = process.env.BENCH_RECORD !== "0";
const RESULTS = path.resolve("bench/RESULTS.md");
const DATABASE = "backline_shop_bench";
const ADD_CONNECTIONS = 50;
const CHECKOUT_CONNECTIONS = 20;
/** Sockets the open-loop client may open: enough that a late server, not the client, holds requests back. */
const OPEN_LOOP_SOCKETS = 1_000;
/** Units on hand of every product at the start: plenty, so every checkout can succeed. */
const START_STOCK = 1_000_000;
const HOT_PRODUCTS = 5;
const HOT_SHARE = 0.5;
const TARGETS = { shareOfFloor: 0.5, addRate: 200, addP99: 30, checkoutRate: 50, checkoutP99: 150 };

/** The synthetic catalogue, every product stocked with one statement; its ids and the popular few. */
async function prepareCatalogue(databaseUrl: string) {
  console.log(`\n== generating ${PRODUCTS} products`);
  const started = performance.now();
  const generated = spawnSync(
    "npx",
    ["tsx", "scripts/db-generate-catalog.ts", "--count", String(PRODUCTS), "--replace"],
    { stdio: "inherit", env: { ...process.env, DATABASE_URL: databaseUrl } },
  );
  if (generated.status !== 0) throw new Error("generating the catalogue failed");
  const generatedSeconds = (performance.now() - started) / 1000;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const stocked = await client.query("update stock_levels set on_hand = $1", [START_STOCK]);
    const { rows } = await client.query<{ id: number }>("select id from products order by id");
    // A product without its stock row would be "sold out" for every shopper: stop here, not mid-run.
    if (stocked.rowCount !== rows.length) {
      throw new Error(`${rows.length} products but ${stocked.rowCount} stock rows`);
    }
    await client.query("vacuum analyze stock_levels");
    const productIds = rows.map((row) => row.id);
    const random = randomSource(23);
    const hotIds = new Set<number>();
    while (hotIds.size < HOT_PRODUCTS) hotIds.add(random.pick(productIds));
    return { productIds, hotIds: [...hotIds], generatedSeconds };
  } finally {
    await client.end();
  }
}

/** What the database holds after the run, checked against what the shop answered. */
async function books(databaseUrl: string, ordered: Ordered, placed: number, hotIds: readonly number[]) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const counts = await client.query<{ orders: number; bare: number }>(
      `select count(*)::int as orders,
              count(*) filter (where not exists (select 1 from order_lines l where l.order_id = o.id))::int as bare
         from orders o`,
    );
    const lines = await client.query<{ product_id: number; ordered: number; on_hand: number }>(
      `select l.product_id, sum(l.quantity)::int as ordered, sum(s.on_hand)::int as on_hand
         from (select product_id, variant_id, sum(quantity) as quantity from order_lines group by product_id, variant_id) l
         join stock_levels s using (variant_id)
        group by l.product_id`,
    );
    // Every variant, ordered or not: a unit taken without an order line shows here.
    const unbalanced = await client.query<{ count: number }>(
      `select count(*)::int as count
         from stock_levels s
         left join (select variant_id, sum(quantity) as q from order_lines group by variant_id) o using (variant_id)
        where s.on_hand + coalesce(o.q, 0) <> $1`,
      [START_STOCK],
    );
    const { orders, bare } = counts.rows[0] as { orders: number; bare: number };
    const problems: string[] = [];
    if (orders !== placed) problems.push(`${orders} orders in the database for ${placed} answers 201`);
    if (bare > 0) problems.push(`${bare} orders without lines`);
    const wrong = (unbalanced.rows[0] as { count: number }).count;
    if (wrong > 0) problems.push(`${wrong} variants whose units on hand + ordered ≠ ${START_STOCK}`);
    const inDatabase = new Map(lines.rows.map((row) => [row.product_id, row.ordered]));
    const differing = [...new Set([...inDatabase.keys(), ...ordered.keys()])].filter(
      (id) => inDatabase.get(id) !== ordered.get(id),
    );
    if (differing.length > 0) {
      problems.push(`${differing.length} products ordered in other amounts than the 201s said`);
    }
    const hot = hotIds.map((id) => {
      const line = lines.rows.find((row) => row.product_id === id);
      return `#${id} ${line?.ordered ?? 0} (${line?.on_hand ?? START_STOCK} left)`;
    });
    return { orders, touched: lines.rows.length, hot, problems };
  } finally {
    await client.end();
  }
}

type Server = "shop" | "floor";

/** The shop (waiting until its search index is read and its memory released, so start-up's work is not measured), or its floor. */
async function startServer(server: Server, databaseUrl: string) {
  if (server === "floor") return startFloorProcess({ DATABASE_URL: databaseUrl });
  const shop = await startShopProcess({
    DATABASE_URL: databaseUrl,
    SEED_DEMO_CATALOG: "0",
    LOG_LEVEL: "info",
    TRUST_PROXY: "1",
    // To profile the shop under this load: BENCH_SHOP_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof".
    NODE_OPTIONS: process.env.BENCH_SHOP_NODE_OPTIONS,
  });
  try {
    // Once the read's leftovers are collected too: that full collection holds the event loop a moment.
    await shop.waitForOutput(/memory of the index read released/, 5 * 60_000);
  } catch (error) {
    await shop.stop();
    throw error;
  }
  return { url: shop.url, pid: shop.pid, stop: async () => void (await shop.stop()) };
}

/** Waits (up to two minutes) until the server has sent every confirmation email; how many are left. */
async function mailSent(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let waited = 0; ; waited += 250) {
      const { rows } = await client.query<{ pending: number }>(
        "select count(*)::int as pending from mail_queue where status = 'pending'",
      );
      const pending = (rows[0] as { pending: number }).pending;
      if (pending === 0 || waited >= 120_000) return pending;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await client.end();
  }
}

/** One session's figures: its adds and its checkouts, and what happened between them. */
interface Measured {
  add: Figures;
  checkout: Figures;
  /** Carts filled, unmeasured, between the adds and the checkouts. */
  filled: number;
  /** The checkouts ran out of prepared carts before their seconds were up. */
  ranOut: boolean;
  /** Every tally of the session, warm-ups included: their failures and 201s count. */
  tallies: Tally[];
}

const until = (seconds: number) => {
  const deadline = performance.now() + seconds * 1000;
  return () => performance.now() < deadline;
};

/** Fills `ready` with carts, unmeasured, until it holds `needed`; the tally, if any were filled. */
async function filledTo(client: ShopClient, nextShopper: () => Shopper, ready: CartQueue, needed: number) {
  if (ready.waiting >= needed) return [];
  console.log(`filling ${needed - ready.waiting} more carts (unmeasured)`);
  return [await adding(client, nextShopper, ADD_CONNECTIONS, () => ready.waiting < needed, ready)];
}

/** Saturation: adds at 50 connections, then checkouts of those carts at 20 (closed loop). */
async function saturation(
  client: ShopClient,
  nextShopper: () => Shopper,
  ordered: Ordered,
): Promise<Measured> {
  const ready = new CartQueue();
  console.log(`adding to carts, ${ADD_CONNECTIONS} connections, ${SECONDS} s after 2 s of warm-up`);
  const warmAdd = await adding(client, nextShopper, ADD_CONNECTIONS, until(2), ready);
  const add = await adding(client, nextShopper, ADD_CONNECTIONS, until(SECONDS), ready);
  console.log(add.figures(), `${ready.waiting} carts ready`);
  console.log(`checking out, ${CHECKOUT_CONNECTIONS} connections, ${SECONDS} s after 1 s of warm-up`);
  const warm = await checkingOut(client, ready, CHECKOUT_CONNECTIONS, 1, ordered);
  // Carts for the measured seconds at half again the warm-up's pace; any missing are filled unmeasured.
  const before = ready.waiting;
  const fill = await filledTo(
    client,
    nextShopper,
    ready,
    Math.ceil(warm.tally.figures().rps * SECONDS * 1.5),
  );
  const filled = ready.waiting - before;
  const checkout = await checkingOut(client, ready, CHECKOUT_CONNECTIONS, SECONDS, ordered);
  console.log(checkout.tally.figures(), checkout.ranOut ? "— ran out of carts" : "");
  return {
    add: add.figures(),
    checkout: checkout.tally.figures(),
    filled,
    ranOut: checkout.ranOut,
    tallies: [warmAdd, add, warm.tally, ...fill, checkout.tally],
  };
}

/**
 * Seconds of adds at the fixed pace before the measured ones. A shop process
 * is still settling for a second or so after it reports ready (its first
 * requests compiled, the last of the index read collected): with one second
 * of warm-up, a freshly started process's catch-up landed in the measured
 * window and gave several of the slowest 1 % of a run (and the floor, which
 * settles sooner, had none). A shop serves for hours; the seconds after a
 * restart are not its latency at 200 adds/s.
 */
const PACE_WARM_UP_SECONDS = 5;

/** Latency at a fixed pace: adds at 200/s after 5 s at that pace, then checkouts at 50/s after 1 s (open loop). */
async function atPace(client: ShopClient, nextShopper: () => Shopper, ordered: Ordered): Promise<Measured> {
  const ready = new CartQueue();
  console.log(
    `adding to carts at ${TARGETS.addRate}/s, ${SECONDS} s after ${PACE_WARM_UP_SECONDS} s of warm-up`,
  );
  const warmAdd = await addingOnSchedule(client, nextShopper, TARGETS.addRate, PACE_WARM_UP_SECONDS, ready);
  const add = await addingOnSchedule(client, nextShopper, TARGETS.addRate, SECONDS, ready);
  console.log(add.figures(), `${ready.waiting} carts ready`);
  const before = ready.waiting;
  const fill = await filledTo(client, nextShopper, ready, TARGETS.checkoutRate * (SECONDS + 1));
  const filled = ready.waiting - before;
  console.log(`checking out at ${TARGETS.checkoutRate}/s, ${SECONDS} s after 1 s of warm-up`);
  const warm = await checkingOutOnSchedule(client, ready, TARGETS.checkoutRate, 1, ordered);
  const checkout = await checkingOutOnSchedule(client, ready, TARGETS.checkoutRate, SECONDS, ordered);
  console.log(checkout.tally.figures(), checkout.ranOut ? "— ran out of carts" : "");
  return {
    add: add.figures(),
    checkout: checkout.tally.figures(),
    filled,
    ranOut: checkout.ranOut || warm.ranOut,
    tallies: [warmAdd, add, ...fill, warm.tally, checkout.tally],
  };
}

type Load = "saturation" | "pace";

/**
 * Saturation rounds (BENCH_SHOP_ROUNDS): each server's figure is its median
 * round, so one round the machine served slowly (a neighbour on the host, a
 * late flush) moves neither the figure nor the ratio.
 */
const ROUNDS = Number(process.env.BENCH_SHOP_ROUNDS ?? 3);

/** The sessions in the order they run: saturation rounds alternating which server goes first, then the pace. */
const SESSIONS: [Load, Server, number][] = [
  ...Array.from({ length: ROUNDS }, (_, round) =>
    (round % 2 === 0 ? (["shop", "floor"] as const) : (["floor", "shop"] as const)).map(
      (server): [Load, Server, number] => ["saturation", server, round],
    ),
  ).flat(),
  ["pace", "floor", 0],
  ["pace", "shop", 0],
];

/** The round whose figures are the middle ones: the median of an odd number of rounds, the lower of two. */
function medianBy(figures: Figures[]): Figures {
  const sorted = [...figures].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)] as Figures;
}

/** A server's saturation rounds as one: its median add and checkout, every tally, every cart filled. */
function medianRound(rounds: (Measured & { mailLeft: number })[]): Measured & { mailLeft: number } {
  return {
    add: medianBy(rounds.map((round) => round.add)),
    checkout: medianBy(rounds.map((round) => round.checkout)),
    filled: rounds.reduce((sum, round) => sum + round.filled, 0),
    ranOut: rounds.some((round) => round.ranOut),
    tallies: rounds.flatMap((round) => round.tallies),
    mailLeft: rounds.reduce((sum, round) => sum + round.mailLeft, 0),
  };
}

/** One server started, loaded, left to send its emails, and stopped. */
/** The server's autovacuum setting, as the last session found it (for the record). */
let autovacuumOn = true;

async function session(
  [load, server, round]: [Load, Server, number],
  databaseUrl: string,
  shopping: { productIds: number[]; hotIds: number[] },
  ordered: Ordered,
): Promise<Measured & { mailLeft: number }> {
  const title = load === "saturation" ? `saturation, round ${round + 1} of ${ROUNDS}` : "fixed pace";
  console.log(`\n== ${title}: the ${server}`);
  autovacuumOn = (await settleLikeAutovacuum(databaseUrl)).autovacuum;
  const running = await startServer(server, databaseUrl);
  const client = shopClient(running.url, load === "saturation" ? ADD_CONNECTIONS : OPEN_LOOP_SOCKETS);
  try {
    // The same baskets for both servers under the same load and round.
    const seed = load === "saturation" ? 23 + 2 * round : 29;
    const nextShopper = shopperStream({ ...shopping, hotShare: HOT_SHARE, seed });
    const measured = await (load === "saturation" ? saturation : atPace)(client, nextShopper, ordered);
    return { ...measured, mailLeft: await mailSent(databaseUrl) };
  } finally {
    client.close();
    await running.stop();
  }
}

interface Row {
  workload: string;
  connections: string;
  figures: Figures;
}

/** The api bench's columns; non-2xx (5xx among them) apart from the unanswered, each status counted. */
function table(rows: Row[]): string {
  const statuses = (f: Figures) => {
    const listed = Object.entries(f.unexpected).map(([status, count]) => `${status}×${count}`);
    return listed.length > 0 ? ` (${listed.join(", ")})` : "";
  };
  let text =
    "| workload | connections or pace | answers/s | p50 ms | p90 ms | p99 ms | max ms | requests | errors | non-2xx (5xx) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const { workload, connections, figures: f } of rows) {
    text += `| ${workload} | ${connections} | ${f.rps} | ${f.p50} | ${f.p90} | ${f.p99} | ${f.max} | ${f.requests} | ${f.errors}${f.errors > 0 ? " unanswered" : ""} | ${f.non2xx} (${f.serverErrors})${statuses(f)} |\n`;
  }
  return text;
}

const mark = (met: boolean) => (met ? "✅ met" : "❌ missed");
const percent = (share: number) => `${Math.round(share * 100)} %`;

type Runs = Record<Load, Record<Server, Measured & { mailLeft: number }>>;
type Books = Awaited<ReturnType<typeof books>>;

/** The section's rows: each workload against the shop, then the floor. */
function rowsOf(runs: Runs): Row[] {
  const adds =
    "add to cart: guest shoppers adding baskets of 1–4 products, each click `POST /api/cart/lines`";
  const checkouts = `checkout: \`POST /api/checkout\` of those carts, each its own Idempotency-Key; ${HOT_SHARE * 100}% hold one of ${HOT_PRODUCTS} popular products`;
  return (["shop", "floor"] as const).flatMap((server) => [
    {
      workload: `${server}: ${adds}`,
      connections: `${ADD_CONNECTIONS}`,
      figures: runs.saturation[server].add,
    },
    {
      workload: `${server}: ${checkouts}`,
      connections: `${CHECKOUT_CONNECTIONS}`,
      figures: runs.saturation[server].checkout,
    },
    { workload: `${server}: ${adds}`, connections: `${TARGETS.addRate}/s`, figures: runs.pace[server].add },
    {
      workload: `${server}: ${checkouts}`,
      connections: `${TARGETS.checkoutRate}/s`,
      figures: runs.pace[server].checkout,
    },
  ]);
}

function targetLines(runs: Runs, failures: number, held: Books): string[] {
  const { saturation: full, pace } = runs;
  const share = (kind: "add" | "checkout") => full.shop[kind].rps / Math.max(1, full.floor[kind].rps);
  return [
    "| target (2 cores, default configuration, PostgreSQL) | measured | |",
    "|---|---|---|",
    `| add to cart at saturation: the shop ≥ ${percent(TARGETS.shareOfFloor)} of the floor's throughput | ${percent(share("add"))}: ${full.shop.add.rps} against ${full.floor.add.rps} adds/s | ${mark(share("add") >= TARGETS.shareOfFloor)} |`,
    `| checkout at saturation: the shop ≥ ${percent(TARGETS.shareOfFloor)} of the floor's throughput | ${percent(share("checkout"))}: ${full.shop.checkout.rps} against ${full.floor.checkout.rps} orders/s | ${mark(share("checkout") >= TARGETS.shareOfFloor)} |`,
    `| add to cart p99 ≤ ${TARGETS.addP99} ms at ${TARGETS.addRate} adds/s (open loop) | ${pace.shop.add.p99} ms (the floor: ${pace.floor.add.p99} ms) | ${mark(pace.shop.add.p99 <= TARGETS.addP99)} |`,
    `| checkout p99 ≤ ${TARGETS.checkoutP99} ms at ${TARGETS.checkoutRate} orders/s (open loop) | ${pace.shop.checkout.p99} ms (the floor: ${pace.floor.checkout.p99} ms) | ${mark(pace.shop.checkout.p99 <= TARGETS.checkoutP99)} |`,
    `| no unanswered request, no 5xx, no 409, every order its cart (both servers) | ${failures} failures | ${mark(failures === 0)} |`,
    `| the books exact: one order per 201, on hand + ordered = ${START_STOCK.toLocaleString("en-US")} for every product | ${held.orders} orders, ${held.touched} products ordered${held.problems.length > 0 ? `; ${held.problems.join("; ")}` : ""} | ${mark(held.problems.length === 0)} |`,
  ];
}

/** Each saturation round's throughputs, shop against floor, in the order they ran. */
function roundsLine(rounds: Record<Server, Measured[]>): string {
  const each = (kind: "add" | "checkout") =>
    rounds.shop.map((shop, at) => `${shop[kind].rps}/${rounds.floor[at]?.[kind].rps ?? "–"}`).join(", ");
  return `Saturation round by round (shop/floor): adds/s ${each("add")}; orders/s ${each("checkout")}. The rows below give each server's median round.`;
}

function section(
  info: ReturnType<typeof runInfo>,
  generatedSeconds: number,
  runs: Runs,
  floorCheck: FloorCheck,
  held: Books,
  rounds: Record<Server, Measured[]>,
) {
  const all = Object.values(runs).flatMap((byServer) => Object.values(byServer));
  const failures = all.flatMap((run) => run.tallies).reduce((sum, tally) => sum + tally.failureCount, 0);
  const firstFailures = all.flatMap((run) => run.tallies.flatMap((tally) => tally.failures)).slice(0, 10);
  const filled = all.reduce((sum, run) => sum + run.filled, 0);
  const mailLeft = all.reduce((sum, run) => sum + run.mailLeft, 0);
  const clean = failures === 0 && held.problems.length === 0;
  return [
    "## Cart and checkout against the floor of the work (issues 23 and 32)",
    "",
    runInfoLine(info),
    `PostgreSQL, the synthetic catalogue of ${PRODUCTS.toLocaleString("en-US")} products (generated in ${generatedSeconds.toFixed(1)} s), ${START_STOCK.toLocaleString("en-US")} units of each on hand. Guest shoppers each with their own address (X-Forwarded-For, TRUST_PROXY=1) and cart cookie, the shop's Origin on every request; baskets of 1–4 products (most of one or two), half of them holding one of ${HOT_PRODUCTS} popular products, so half the checkouts take stock from the same ${HOT_PRODUCTS} rows. One small client (bench/shoppers.ts, bench/shop-load.ts) on keep-alive connections, in the same 2 cores as the server. Saturation: closed loop, ${SECONDS} s per row after a warm-up (2 s of adds, 1 s of checkouts). Fixed pace: open loop, ${SECONDS} s per row after a warm-up at that pace (${PACE_WARM_UP_SECONDS} s of adds, 1 s of checkouts), each latency from when its request was due. The shop in its default configuration (database pool of 10); the floor (bench/floor-server.mjs) is node:http and pg with the same pool, running the same statements in the same transactions on the same database. Each session starts after a \`VACUUM (ANALYZE)\` of the database, as autovacuum would have run between them (the server's autovacuum: ${autovacuumOn ? "on" : "**off**"}). One server at a time: ${ROUNDS} saturation rounds, each server first in turn, then the fixed pace (floor, shop); each sent its confirmation emails before it stopped${mailLeft > 0 ? ` (**${mailLeft} were left unsent**)` : ""}.${filled > 0 ? ` ${filled} carts were filled, unmeasured, between adds and checkouts.` : ""}${all.some((run) => run.ranOut) ? " **Checkouts ran out of prepared carts before their seconds were up.**" : ""}`,
    "",
    floorCheckSummary(floorCheck),
    "",
    "#### Against the targets",
    "",
    ...targetLines(runs, failures, held),
    "",
    roundsLine(rounds),
    "",
    table(rowsOf(runs)),
    `Units ordered of the ${HOT_PRODUCTS} popular products: ${held.hot.join(", ")}.${clean ? "" : ` First failures: ${firstFailures.map((failure) => `\`${failure}\``).join("; ")}`}`,
  ].join("\n");
}

async function main() {
  const info = runInfo("npm run bench -- shop");
  console.log("\n== the floor's statements against a fresh capture of the shop's");
  const floorCheck = await checkFloorOnScratch();
  console.log(floorCheckSummary(floorCheck));
  for (const difference of floorCheck.differences) console.log(difference);
  const databaseUrl = await scratchDatabase(DATABASE);
  const { productIds, hotIds, generatedSeconds } = await prepareCatalogue(databaseUrl);
  const ordered: Ordered = new Map();
  type Rounds = (Measured & { mailLeft: number })[];
  const measured: Record<Load, Record<Server, Rounds>> = {
    saturation: { shop: [], floor: [] },
    pace: { shop: [], floor: [] },
  };
  for (const planned of SESSIONS) {
    measured[planned[0]][planned[1]].push(
      await session(planned, databaseUrl, { productIds, hotIds }, ordered),
    );
  }
  const medians = (byServer: Record<Server, Rounds>) => ({
    shop: medianRound(byServer.shop),
    floor: medianRound(byServer.floor),
  });
  const runs: Runs = { saturation: medians(measured.saturation), pace: medians(measured.pace) };
  const sessions = Object.values(runs).flatMap((byServer) => Object.values(byServer));
  const placed = sessions.flatMap((run) => run.tallies).reduce((sum, tally) => sum + tally.count(201), 0);
  const held = await books(databaseUrl, ordered, placed, hotIds);
  await dropScratchDatabase(DATABASE);

  if (ROUNDS === 0) {
    // A diagnostic run of the fixed pace alone: no saturation to compare, nothing recorded.
    const paced = rowsOf(runs).filter((row) => row.connections.endsWith("/s"));
    console.log(`\nBENCH_SHOP_ROUNDS=0: the fixed pace alone, not recorded.\n${table(paced)}`);
    if (held.problems.length > 0) process.exitCode = 1;
    return;
  }
  const text = section(info, generatedSeconds, runs, floorCheck, held, measured.saturation);
  if (RECORD) {
    const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8") : "# Benchmark results\n";
    fs.writeFileSync(RESULTS, replaceSection(previous, "shop-bench", text));
    console.log(`\nRecorded in ${RESULTS}`);
  } else {
    console.log(`\n${text}\n\n(BENCH_RECORD=0: not recorded)`);
  }
  const failures = sessions.flatMap((run) => run.tallies.flatMap((tally) => tally.failures));
  const problems = [
    ...(failures.length > 0 ? ["failed requests:", ...failures.slice(0, 10)] : []),
    ...held.problems,
    ...(sessions.some((run) => run.ranOut) ? ["the checkouts ran out of prepared carts"] : []),
    ...(floorCheck.differences.length > 0 ? ["the floor's statements differ from the shop's"] : []),
  ];
  if (problems.length > 0) {
    console.error(`\nThe run failed:\n- ${problems.join("\n- ")}`);
    process.exitCode = 1;
  }
}

await main();
