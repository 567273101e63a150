/**
 * Catalogue changes reaching running shops: `npm run bench -- index-changes`.
 *
 * On a generated catalogue in PostgreSQL (100,000 and 1,000,000 products by
 * default; BENCH_PRODUCTS=100000 for one size), two shop processes share the
 * database, as behind a load balancer. Each is started alone, and its start-up
 * is recorded: how long until /healthz said 200, how long its search index
 * took to read, and its resident memory then and at its peak.
 * Then BENCH_SAVES (10) times an owner saves one product's price through the
 * back office's form (POST /admin/products/<id> on the first process, as a
 * browser sends it), timed from the save's answer; then BENCH_CHANGES (20)
 * times one product's price is changed in one transaction; for each process the benchmark waits for its "catalogue changes
 * applied to the index" line, asks /all-products for the cheapest product (the
 * changed one, at a price below every other) and records the time from the
 * commit until that answer, and the CPU the process spent meanwhile (read from
 * the process itself, bench/event-loop-probe.mjs). Then one statement changes
 * BENCH_BATCH_CHANGES (1,000) products, still applied as changes, and one
 * changes BENCH_IMPORT_CHANGES (5,000), as an import does, past what a process
 * lays over its index: it reads the whole index again in the background.
 * Writes the "index-changes" section of bench/RESULTS.md.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { type ShopProcess, spawnShopProcess } from "../tests/support/shop-process";
import { ownerSession, timeSave } from "./back-office-saves";
import { appliedAt, cheapest, probes, type Served } from "./index-changes-measures";
import { dropScratchDatabase, scratchDatabase } from "./scratch-database";
import { replaceSection, runInfo, runInfoLine } from "./workload";

const SIZES = (process.env.BENCH_PRODUCTS ?? "100000,1000000").split(",").map(Number);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 20);
const SAVES = Number(process.env.BENCH_SAVES ?? 10);
const BATCH = Number(process.env.BENCH_BATCH_CHANGES ?? 1_000);
const IMPORT = Number(process.env.BENCH_IMPORT_CHANGES ?? 5_000);
const RESULTS = path.resolve("bench/RESULTS.md");
const DATABASE = "backline_bench_index_changes";
const PROCESSES = 2;

const INDEX_READ = /"msg":"catalogue index read"/;
const READ_RELEASED = /"msg":"memory of the index read released"/;
const readAt = (revision: number) => new RegExp(`"revision":${revision},.*"msg":"catalogue index read"`);

/** A process's memory from /proc, in MiB: resident now, and the most it ever was. */
function memoryMiB(pid: number): { resident: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { resident: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

interface StartUp {
  healthySeconds: number;
  readSeconds: number;
  indexMegabytes: number;
  residentMiB: number;
  peakMiB: number;
}

/** A shop on the database, started alone; resolves once its index is read and /healthz says 200. */
async function startShop(databaseUrl: string): Promise<{ shop: ShopProcess; startUp: StartUp }> {
  const began = performance.now();
  const shop = await spawnShopProcess({
    DATABASE_URL: databaseUrl,
    SEED_DEMO_CATALOG: "0",
    LOG_LEVEL: "info",
    NODE_OPTIONS: `--import=${path.resolve("bench/event-loop-probe.mjs")}`,
  });
  await shop.ready(15 * 60_000);
  const healthySeconds = (performance.now() - began) / 1000;
  const read = JSON.parse(await shop.waitForOutput(INDEX_READ)) as {
    milliseconds: number;
    megabytes: number;
  };
  // The shop collects what the read left behind right after it, and says what it holds then
  // (product-search.server.ts): the same figure /proc gives from then on.
  const released = JSON.parse(await shop.waitForOutput(READ_RELEASED)) as { residentMegabytes: number };
  const residentMiB = released.residentMegabytes;
  const memory = memoryMiB(shop.pid);
  return {
    shop,
    startUp: {
      healthySeconds,
      readSeconds: read.milliseconds / 1000,
      indexMegabytes: read.megabytes,
      residentMiB,
      peakMiB: memory.peak,
    },
  };
}

/**
 * Runs `write` in one transaction, then waits, for each process, for the log
 * line of the revision it made (`line`), then for an answer showing it.
 */
async function timeChange(
  client: pg.Client,
  shops: ShopProcess[],
  probe: ReturnType<typeof probes>,
  write: () => Promise<unknown>,
  line: (revision: number) => RegExp,
  expected: { id: number; price: number },
): Promise<Served[]> {
  // Resets each process's probe: the next sample covers this change alone.
  await Promise.all(shops.map((_, at) => probe(at)));
  await client.query("begin");
  await write();
  const { rows } = await client.query<{ revision: string }>("select revision from catalog_revisions");
  const committing = performance.now();
  await client.query("commit");
  const revision = Number(rows[0]?.revision);
  return Promise.all(
    shops.map(async (shop, at) => {
      const logged = JSON.parse(await shop.waitForOutput(line(revision), 15 * 60_000)) as {
        milliseconds: number;
      };
      const answer = await cheapest(shop);
      const servedMs = performance.now() - committing;
      if (answer.id !== expected.id || answer.price !== expected.price) {
        throw new Error(
          `after its line for revision ${revision}, ${shop.url} answered ${JSON.stringify(answer)}, not ${JSON.stringify(expected)}`,
        );
      }
      const { cpuMs, max } = await probe(at);
      return { servedMs, appliedMs: logged.milliseconds, cpuMs, loopMaxMs: max };
    }),
  );
}

/** How many times each process read its whole index. */
const indexReads = (shops: ShopProcess[]) =>
  shops.map(
    (shop) =>
      shop
        .output()
        .split("\n")
        .filter((line) => INDEX_READ.test(line)).length,
  );

interface SizeResult {
  products: number;
  generatedSeconds: number;
  startUps: StartUp[];
  saves: Served[];
  readsAfterSaves: number[];
  singles: Served[];
  readsAfterSingles: number[];
  batch: Served[];
  readsAfterBatch: number[];
  imported: Served[];
  readsAfterImport: number[];
  /** Each process's peak resident memory over the whole run, rebuild included. */
  peakMiB: number[];
}

async function measureSize(products: number): Promise<SizeResult> {
  const databaseUrl = await scratchDatabase(DATABASE);
  const generating = performance.now();
  const generated = spawnSync(
    "npx",
    ["tsx", "scripts/db-generate-catalog.ts", "--count", String(products), "--replace"],
    { stdio: "inherit", env: { ...process.env, DATABASE_URL: databaseUrl } },
  );
  if (generated.status !== 0) throw new Error("catalogue generation failed");
  const generatedSeconds = (performance.now() - generating) / 1000;
  // A fresh catalogue is vacuumed and analysed once, as one loaded by an import is in time: every
  // table, variants and stock levels too (their first reads otherwise write each page's hint bits).
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query("vacuum analyze");

  const shops: ShopProcess[] = [];
  try {
    const startUps: StartUp[] = [];
    // One after the other, as in a rolling deploy: each read has the machine to itself.
    for (let started = 0; started < PROCESSES; started++) {
      const { shop, startUp } = await startShop(databaseUrl);
      shops.push(shop);
      startUps.push(startUp);
      console.log(`process ${started + 1}:`, startUp);
    }
    const probe = probes(shops);
    const owner = await ownerSession(shops[0] as ShopProcess, client);
    const { rows } = await client.query<{ least: number; ids: number[] }>(
      `select min(price_minor)::float8 / 100 as least,
              -- Products of one price: a product with options takes its prices from its variants.
              (select array_agg(id) from (select id from products p
                 where not exists (select 1 from product_options o where o.product_id = p.id)
                 order by random() limit $1) chosen) as ids
         from products`,
      [CHANGES + SAVES],
    );
    const { least, ids } = rows[0] as { least: number; ids: number[] };
    if (least <= (CHANGES + SAVES + 2) / 100) throw new Error(`the catalogue has prices down to ${least}`);

    // Each change makes its product the cheapest: 0.32, 0.31, … (the catalogue's start at 5.00),
    // the back office's saves first, then the benchmark's own transactions.
    const saves: Served[] = [];
    for (const [at, id] of ids.slice(0, SAVES).entries()) {
      const price = (CHANGES + SAVES + 2 - at) / 100;
      const served = await timeSave(client, shops, probe, owner, id, price);
      saves.push(...served);
      console.log(`back-office save ${at + 1}/${SAVES}:`, served);
    }
    const readsAfterSaves = indexReads(shops);
    const singles: Served[] = [];
    for (const [at, id] of ids.slice(SAVES).entries()) {
      // Cents in the table; the pages show the dollars (a bench's own figure, not shop arithmetic).
      const cents = CHANGES + 2 - at;
      const price = cents / 100;
      const write = () => client.query("update products set price_minor = $1 where id = $2", [cents, id]);
      const served = await timeChange(client, shops, probe, write, appliedAt, { id, price });
      singles.push(...served);
      console.log(`change ${at + 1}/${CHANGES}:`, served);
    }
    const readsAfterSingles = indexReads(shops);

    const changedTogether = async (count: number, price: number, line: (revision: number) => RegExp) => {
      const { rows: first } = await client.query<{ id: number }>(
        "select id from products where price_minor > 100 order by id limit 1",
      );
      const id = first[0]?.id as number;
      const write = () =>
        client.query(
          "update products set price_minor = $1 where id in (select id from products where id >= $2 order by id limit $3)",
          [Math.round(price * 100), id, count],
        );
      return timeChange(client, shops, probe, write, line, { id, price });
    };
    const batch = await changedTogether(BATCH, 0.02, appliedAt);
    console.log(`${BATCH} products in one statement:`, batch);
    const readsAfterBatch = indexReads(shops);
    const imported = await changedTogether(IMPORT, 0.01, readAt);
    console.log(`${IMPORT} products in one statement:`, imported);
    return {
      products,
      generatedSeconds,
      startUps,
      saves,
      readsAfterSaves,
      singles,
      readsAfterSingles,
      batch,
      readsAfterBatch,
      imported,
      readsAfterImport: indexReads(shops),
      peakMiB: shops.map((shop) => memoryMiB(shop.pid).peak),
    };
  } finally {
    await client.end();
    await Promise.all(shops.map((shop) => shop.stop()));
    await dropScratchDatabase(DATABASE);
  }
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => `${Math.round(value)} ms`;
const cpu = (value: number) => `${value.toFixed(1)} ms`;
const mib = (value: number) => `${Math.round(value)} MiB`;
const mark = (met: boolean) => (met ? "✅ met" : "❌ missed");
const thousands = (value: number) => value.toLocaleString("en-US");

/** One table row of a change: served p50 / max, the process's own time, CPU and event-loop hold. */
function changeRow(label: string, served: Served[], reads: number[], before: number[]) {
  const values = (pick: (one: Served) => number) => served.map(pick);
  const median = (pick: (one: Served) => number) => percentile(values(pick), 0.5);
  const most = (pick: (one: Served) => number) => Math.max(...values(pick));
  const reread = reads.map((count, at) => count - (before[at] ?? 0));
  return `| ${label} | ${ms(median((one) => one.servedMs))} / ${ms(most((one) => one.servedMs))} | ${ms(median((one) => one.appliedMs))} / ${ms(most((one) => one.appliedMs))} | ${cpu(median((one) => one.cpuMs))} / ${cpu(most((one) => one.cpuMs))} | ${ms(most((one) => one.loopMaxMs))} | ${reread.join(", ")} |`;
}

function sizeSection(result: SizeResult): string[] {
  const startRows = result.startUps.map(
    (startUp, at) =>
      `| ${at + 1} | ${startUp.readSeconds.toFixed(1)} s | ${startUp.healthySeconds.toFixed(1)} s | ${startUp.indexMegabytes} MB | ${mib(startUp.residentMiB)} | ${mib(startUp.peakMiB)} | ${mib(result.peakMiB[at] ?? Number.NaN)} |`,
  );
  const ones = result.startUps.map(() => 1);
  return [
    `#### ${thousands(result.products)} products`,
    "",
    `Generated in ${result.generatedSeconds.toFixed(0)} s. Each process started alone (a rolling deploy):`,
    "",
    "| process | index read | /healthz 200 after | index (its own estimate) | RSS once ready | peak RSS at start-up | peak RSS over the run (rebuild included) |",
    "|---:|---:|---:|---:|---:|---:|---:|",
    ...startRows,
    "",
    `From the commit until each process's answer showed the change (p50 / max over ${PROCESSES} processes × the changes), the time the process itself logged, its CPU meanwhile (the confirming request included), the longest its event loop was held, and how many whole-index reads the change caused in each process:`,
    "",
    "| change | served, p50 / max | the process's own time, p50 / max | CPU, p50 / max | event loop held, max | index reads |",
    "|---|---:|---:|---:|---:|---:|",
    changeRow(
      `one price saved in the back office (its form, over HTTP, on process 1), ${SAVES} times`,
      result.saves,
      result.readsAfterSaves,
      ones,
    ),
    changeRow(
      `one price, ${CHANGES} times, one after another`,
      result.singles,
      result.readsAfterSingles,
      result.readsAfterSaves,
    ),
    changeRow(
      `${thousands(BATCH)} products in one statement`,
      result.batch,
      result.readsAfterBatch,
      result.readsAfterSingles,
    ),
    changeRow(
      `${thousands(IMPORT)} products in one statement (an import: the index is read again)`,
      result.imported,
      result.readsAfterImport,
      result.readsAfterBatch,
    ),
  ];
}

function targets(results: SizeResult[]): string[] {
  const largest = results.reduce((a, b) => (b.products > a.products ? b : a));
  const savedMax = Math.max(...largest.saves.map((one) => one.servedMs));
  const savedCpu = Math.max(...largest.saves.map((one) => one.cpuMs));
  const noRereadOnSave = largest.readsAfterSaves.every((count) => count === 1);
  const servedMax = Math.max(...largest.singles.map((one) => one.servedMs));
  const noReread = largest.readsAfterSingles.every((count) => count === 1);
  const readMax = Math.max(...largest.startUps.map((startUp) => startUp.readSeconds));
  const residentMax = Math.max(...largest.startUps.map((startUp) => startUp.residentMiB));
  const size = thousands(largest.products);
  return [
    "| target | measured | |",
    "|---|---|---|",
    `| ${size}: one changed price served by every process in under a second, without reading the catalogue again | max ${ms(servedMax)}; whole-index reads after start-up: ${largest.readsAfterSingles.map((count) => count - 1).join(", ")} | ${mark(servedMax < 1000 && noReread)} |`,
    `| ${size}: a price saved in the back office served by every process in under a second, without reading the catalogue again | max ${ms(savedMax)} from the save's answer; CPU per process up to ${cpu(savedCpu)}; whole-index reads after start-up: ${largest.readsAfterSaves.map((count) => count - 1).join(", ")} | ${mark(savedMax < 1000 && noRereadOnSave)} |`,
    `| ${size}: memory ≤ 800 MiB per process | RSS once ready up to ${mib(residentMax)} | ${mark(residentMax <= 800)} |`,
    `| ${size}: the index read at start-up ≤ 20 s | up to ${readMax.toFixed(1)} s | ${mark(readMax <= 20)} |`,
  ];
}

/** A generated catalogue in variants (CATALOG_WITH_VARIANTS=1) is recorded in a section of its own. */
const WITH_VARIANTS = process.env.CATALOG_WITH_VARIANTS === "1";

/** The command as run: the settings that change what is measured, then the benchmark. */
function commandLine(): string {
  const settings = ["CATALOG_WITH_VARIANTS", "BENCH_PRODUCTS", "BENCH_SAVES", "BENCH_CHANGES"]
    .filter((name) => process.env[name] !== undefined)
    .map((name) => `${name}=${process.env[name]} `)
    .join("");
  return `${settings}npm run bench -- index-changes`;
}

async function main() {
  const info = runInfo(commandLine());
  const results: SizeResult[] = [];
  for (const products of SIZES) results.push(await measureSize(products));
  const section = [
    WITH_VARIANTS
      ? "## Catalogue changes reaching running shops — on a catalogue where a third of products have 2–12 variants"
      : "## Catalogue changes reaching running shops",
    "",
    runInfoLine(info),
    `Sizes: ${SIZES.map(thousands).join(" and ")} products on PostgreSQL, ${PROCESSES} shop processes on the database (default configuration, \`LOG_LEVEL=info\`). Each change is committed by the benchmark in one transaction; a process has served it once it logged the change's revision and its \`/all-products?sort=asc&size=1\` answered the changed product at its new price (the lowest in the catalogue). CPU and event-loop figures are read by the process itself (bench/event-loop-probe.mjs); RSS once ready as the process states it right after collecting what its index read left behind (the figure /proc gives from then on), peaks from /proc.`,
    "",
    ...targets(results),
    "",
    ...results.flatMap((result) => [...sizeSection(result), ""]),
  ].join("\n");
  const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8") : "# Benchmark results\n";
  fs.writeFileSync(
    RESULTS,
    replaceSection(previous, WITH_VARIANTS ? "index-changes-bench-variants" : "index-changes-bench", section),
  );
  console.log(`\n${section}\n\nRecorded in ${RESULTS}`);
}

await main();
