/**
 * Cart and checkout benchmark (issue 23): `npm run bench -- shop`.
 *
 * On a scratch PostgreSQL database with the synthetic catalogue the api bench
 * uses (100,000 products) and a million units of each on hand, many guest
 * shoppers (bench/shoppers.ts), each with their own address and cart cookie,
 * add baskets of 1 to 4 products — half of them one of 5 popular products —
 * at 50 connections; then those carts are checked out at 20 connections, each
 * with a fresh Idempotency-Key, so half the checkouts take stock from the
 * same 5 rows (the worst case of contention a real shop sees). Afterwards the
 * database must add up exactly: one order per 201, each product's units on
 * hand plus ordered equal to what it started with. Any 5xx, unexpected 409,
 * unanswered request or wrong order fails the run (exit code 1) and is
 * printed. Figures go to bench/RESULTS.md, between the shop-bench markers;
 * BENCH_RECORD=0 prints them only (for a smoke run).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { randomSource } from "../tests/support/random-source";
import { startShopProcess } from "../tests/support/shop-process";
import { dropScratchDatabase, scratchDatabase } from "./scratch-database";
import {
  basketOf,
  type Figures,
  type ShopClient,
  type Shopper,
  shopClient,
  shopperStream,
  Tally,
} from "./shoppers";
import { replaceSection, runInfo, runInfoLine } from "./workload";

const PRODUCTS = Number(process.env.BENCH_SHOP_PRODUCTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const RECORD = process.env.BENCH_RECORD !== "0";
const RESULTS = path.resolve("bench/RESULTS.md");
const DATABASE = "backline_shop_bench";
const ADD_CONNECTIONS = 50;
const CHECKOUT_CONNECTIONS = 20;
/** Units on hand of every product at the start: plenty, so every checkout can succeed. */
const START_STOCK = 1_000_000;
const HOT_PRODUCTS = 5;
const HOT_SHARE = 0.5;
const TARGETS = { addP99: 30, checkoutP99: 150 };

/** The carts waiting to be checked out, oldest first. */
class CartQueue {
  private readonly shoppers: Shopper[] = [];
  private next = 0;
  push(shopper: Shopper) {
    this.shoppers.push(shopper);
  }
  take(): Shopper | undefined {
    return this.shoppers[this.next++];
  }
  get waiting() {
    return this.shoppers.length - Math.min(this.next, this.shoppers.length);
  }
}

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

/**
 * Shoppers adding their baskets, `connections` at a time, while `going()`:
 * each shopper's clicks one after the other, as a person makes them. A
 * shopper whose every click was answered 200 joins `ready`, to check out.
 */
async function adding(
  client: ShopClient,
  nextShopper: () => Shopper,
  connections: number,
  going: () => boolean,
  ready: CartQueue,
): Promise<Tally> {
  const tally = new Tally(200);
  tally.start();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (going()) {
        const shopper = nextShopper();
        let complete = true;
        for (const add of shopper.adds) {
          if (!going()) {
            complete = false;
            break;
          }
          const answer = await client.add(shopper, add);
          tally.record(answer);
          if (answer.status !== 200) {
            tally.fail(`add ${JSON.stringify(add)}: ${answer.status} ${answer.body.slice(0, 300)}`);
            complete = false;
            break;
          }
        }
        if (complete) ready.push(shopper);
      }
    }),
  );
  tally.stop();
  return tally;
}

/** The units each 201 ordered, by product: what the database must hold in order_lines. */
type Ordered = Map<number, number>;

/**
 * Checkouts of ready carts, `connections` at a time, for `seconds` or until
 * no cart is left. Each 201's lines must be the shopper's basket.
 */
async function checkingOut(
  client: ShopClient,
  ready: CartQueue,
  connections: number,
  seconds: number,
  ordered: Ordered,
) {
  const tally = new Tally(201);
  let ranOut = false;
  const deadline = performance.now() + seconds * 1000;
  tally.start();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const shopper = ready.take();
        if (!shopper) {
          ranOut = true;
          return;
        }
        const answer = await client.checkout(shopper);
        tally.record(answer);
        if (answer.status !== 201) {
          tally.fail(`checkout ${shopper.address}: ${answer.status} ${answer.body.slice(0, 300)}`);
          continue;
        }
        const { order } = JSON.parse(answer.body) as {
          order: { lines: { productId: number; quantity: number }[] };
        };
        const basket = basketOf(shopper);
        const matches =
          order.lines.length === basket.size &&
          order.lines.every((line) => basket.get(line.productId) === line.quantity);
        if (!matches) {
          tally.fail(`order of ${shopper.address} is not its cart: ${JSON.stringify(order.lines)}`);
        }
        for (const line of order.lines) {
          ordered.set(line.productId, (ordered.get(line.productId) ?? 0) + line.quantity);
        }
      }
    }),
  );
  tally.stop();
  return { tally, ranOut };
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
      `select l.product_id, sum(l.quantity)::int as ordered, s.on_hand
         from order_lines l join stock_levels s using (product_id)
        group by l.product_id, s.on_hand`,
    );
    // Every product, ordered or not: a unit taken without an order line shows here.
    const unbalanced = await client.query<{ count: number }>(
      `select count(*)::int as count
         from stock_levels s
         left join (select product_id, sum(quantity) as q from order_lines group by product_id) o using (product_id)
        where s.on_hand + coalesce(o.q, 0) <> $1`,
      [START_STOCK],
    );
    const { orders, bare } = counts.rows[0] as { orders: number; bare: number };
    const problems: string[] = [];
    if (orders !== placed) problems.push(`${orders} orders in the database for ${placed} answers 201`);
    if (bare > 0) problems.push(`${bare} orders without lines`);
    const wrong = (unbalanced.rows[0] as { count: number }).count;
    if (wrong > 0) problems.push(`${wrong} products whose units on hand + ordered ≠ ${START_STOCK}`);
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

interface Row {
  workload: string;
  connections: number;
  figures: Figures;
}

/** The api bench's columns; non-2xx (5xx among them) apart from the unanswered, each status counted. */
function table(rows: Row[]): string {
  const statuses = (f: Figures) => {
    const listed = Object.entries(f.unexpected).map(([status, count]) => `${status}×${count}`);
    return listed.length > 0 ? ` (${listed.join(", ")})` : "";
  };
  let text =
    "| workload | connections | requests/s | p50 ms | p90 ms | p99 ms | max ms | requests | errors | non-2xx (5xx) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const { workload, connections, figures: f } of rows) {
    text += `| ${workload} | ${connections} | ${f.rps} | ${f.p50} | ${f.p90} | ${f.p99} | ${f.max} | ${f.requests} | ${f.errors}${f.errors > 0 ? " unanswered" : ""} | ${f.non2xx} (${f.serverErrors})${statuses(f)} |\n`;
  }
  return text;
}

const mark = (met: boolean) => (met ? "✅ met" : "❌ missed");

/** What one run measured, for the report. */
interface Run {
  add: Figures;
  checkout: Figures;
  /** The checkouts ran out of prepared carts before their seconds were up. */
  ranOut: boolean;
  /** Carts filled, unmeasured, between the two measured runs. */
  filled: number;
  /** Every failure of every run, warm-ups included: the first few of them, and how many. */
  failures: string[];
  failureCount: number;
}

/** The shoppers' two runs against one shop: add-to-cart, then checkout of those carts. */
async function measure(
  client: ShopClient,
  nextShopper: () => Shopper,
  ordered: Ordered,
): Promise<Run & { placed: number }> {
  const ready = new CartQueue();
  const until = (seconds: number) => {
    const deadline = performance.now() + seconds * 1000;
    return () => performance.now() < deadline;
  };
  console.log(`\n== adding to carts, ${ADD_CONNECTIONS} connections, ${SECONDS} s after 2 s of warm-up`);
  const warmAdd = await adding(client, nextShopper, ADD_CONNECTIONS, until(2), ready);
  const add = await adding(client, nextShopper, ADD_CONNECTIONS, until(SECONDS), ready);
  console.log(add.figures(), `${ready.waiting} carts ready`);

  console.log(`\n== checking out, ${CHECKOUT_CONNECTIONS} connections, ${SECONDS} s after 1 s of warm-up`);
  const warm = await checkingOut(client, ready, CHECKOUT_CONNECTIONS, 1, ordered);
  // Carts for the measured seconds at half again the warm-up's pace; any missing are filled unmeasured.
  const needed = Math.ceil(warm.tally.figures().rps * SECONDS * 1.5);
  const before = ready.waiting;
  let fill: Tally | null = null;
  if (before < needed) {
    console.log(`filling ${needed - before} more carts (unmeasured)`);
    fill = await adding(client, nextShopper, ADD_CONNECTIONS, () => ready.waiting < needed, ready);
  }
  const filled = ready.waiting - before;
  const checkout = await checkingOut(client, ready, CHECKOUT_CONNECTIONS, SECONDS, ordered);
  console.log(checkout.tally.figures(), checkout.ranOut ? "— ran out of carts" : "");
  const tallies = [warmAdd, add, warm.tally, ...(fill ? [fill] : []), checkout.tally];
  return {
    add: add.figures(),
    checkout: checkout.tally.figures(),
    ranOut: checkout.ranOut,
    filled,
    failures: tallies.flatMap((tally) => tally.failures).slice(0, 10),
    failureCount: tallies.reduce((sum, tally) => sum + tally.failureCount, 0),
    placed: warm.tally.count(201) + checkout.tally.count(201),
  };
}

type Books = Awaited<ReturnType<typeof books>>;

function section(info: ReturnType<typeof runInfo>, generatedSeconds: number, run: Run, held: Books) {
  const rows: Row[] = [
    {
      workload:
        "add to cart: guest shoppers adding baskets of 1–4 products, each click `POST /api/cart/lines`",
      connections: ADD_CONNECTIONS,
      figures: run.add,
    },
    {
      workload: `checkout: \`POST /api/checkout\` of those carts, each its own Idempotency-Key; ${HOT_SHARE * 100}% hold one of ${HOT_PRODUCTS} popular products`,
      connections: CHECKOUT_CONNECTIONS,
      figures: run.checkout,
    },
  ];
  const clean = run.failureCount === 0 && held.problems.length === 0;
  return [
    "## Cart and checkout (issue 23)",
    "",
    runInfoLine(info),
    `PostgreSQL, the synthetic catalogue of ${PRODUCTS.toLocaleString("en-US")} products (generated in ${generatedSeconds.toFixed(1)} s), ${START_STOCK.toLocaleString("en-US")} units of each on hand. Guest shoppers each with their own address (X-Forwarded-For, TRUST_PROXY=1) and cart cookie, the shop's Origin on every request; baskets of 1–4 products (most of one or two), half of them holding one of ${HOT_PRODUCTS} popular products, so half the checkouts take stock from the same ${HOT_PRODUCTS} rows. A small closed-loop client (bench/shoppers.ts) on keep-alive connections, in the same 2 cores as the shop; ${SECONDS} s per row after a warm-up (2 s of adds, 1 s of checkouts); the shop in its default configuration (database pool of 10).${run.filled > 0 ? ` ${run.filled} carts were filled, unmeasured, between the rows.` : ""}${run.ranOut ? " **The checkouts ran out of prepared carts before their seconds were up.**" : ""}`,
    "",
    "#### Against the targets",
    "",
    "| target (2 cores, default configuration, PostgreSQL) | measured | |",
    "|---|---|---|",
    `| add to cart p99 ≤ ${TARGETS.addP99} ms at ${ADD_CONNECTIONS} connections | ${run.add.p99} ms (${run.add.rps} requests/s) | ${mark(run.add.p99 <= TARGETS.addP99)} |`,
    `| checkout p99 ≤ ${TARGETS.checkoutP99} ms at ${CHECKOUT_CONNECTIONS} connections | ${run.checkout.p99} ms (${run.checkout.rps} orders/s) | ${mark(run.checkout.p99 <= TARGETS.checkoutP99)} |`,
    `| no unanswered request, no 5xx, no 409, every order its cart | ${run.failureCount} failures | ${mark(run.failureCount === 0)} |`,
    `| the books exact: one order per 201, on hand + ordered = ${START_STOCK.toLocaleString("en-US")} for every product | ${held.orders} orders, ${held.touched} products ordered${held.problems.length > 0 ? `; ${held.problems.join("; ")}` : ""} | ${mark(held.problems.length === 0)} |`,
    "",
    table(rows),
    `Units ordered of the ${HOT_PRODUCTS} popular products: ${held.hot.join(", ")}.${clean ? "" : ` First failures: ${run.failures.map((failure) => `\`${failure}\``).join("; ")}`}`,
  ].join("\n");
}

async function main() {
  const info = runInfo("npm run bench -- shop");
  const databaseUrl = await scratchDatabase(DATABASE);
  const { productIds, hotIds, generatedSeconds } = await prepareCatalogue(databaseUrl);
  const shop = await startShopProcess({
    DATABASE_URL: databaseUrl,
    SEED_DEMO_CATALOG: "0",
    LOG_LEVEL: "info",
    TRUST_PROXY: "1",
  });
  const client = shopClient(shop.url, ADD_CONNECTIONS);
  const ordered: Ordered = new Map();
  let run: Awaited<ReturnType<typeof measure>>;
  try {
    // Measured once the search index is read, so that start-up's work is not in the figures.
    await shop.waitForOutput(/catalogue index read/, 5 * 60_000);
    const nextShopper = shopperStream({ productIds, hotIds, hotShare: HOT_SHARE, seed: 23 });
    run = await measure(client, nextShopper, ordered);
  } finally {
    client.close();
    await shop.stop();
  }
  const held = await books(databaseUrl, ordered, run.placed, hotIds);
  await dropScratchDatabase(DATABASE);

  const text = section(info, generatedSeconds, run, held);
  if (RECORD) {
    const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8") : "# Benchmark results\n";
    fs.writeFileSync(RESULTS, replaceSection(previous, "shop-bench", text));
    console.log(`\nRecorded in ${RESULTS}`);
  } else {
    console.log(`\n${text}\n\n(BENCH_RECORD=0: not recorded)`);
  }
  const problems = [
    ...(run.failureCount > 0 ? [`${run.failureCount} failed requests:`, ...run.failures] : []),
    ...held.problems,
    ...(run.ranOut ? ["the checkouts ran out of prepared carts"] : []),
  ];
  if (problems.length > 0) {
    console.error(`\nThe run failed:\n- ${problems.join("\n- ")}`);
    process.exitCode = 1;
  }
}

await main();
