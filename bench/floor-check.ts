/**
 * Whether the floor server (bench/floor-server.mjs) still runs the shop's
 * statements: both run with bench/statement-capture.mjs loaded, one guest
 * adds two products (the first twice) and checks out against each, one
 * request at a time, and the statements each request caused are compared in
 * order (comments and white space aside). Any difference is printed with
 * both texts: copy the shop's into the floor. Background work begun by no
 * request (start-up, the catalogue's reads) is left out.
 *
 * `npm run bench -- shop` runs it first; on its own: `npx tsx bench/floor-check.ts`
 * (after `npx react-router build`), on a small scratch catalogue.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { startShopProcess } from "../tests/support/shop-process";
import { dropScratchDatabase, scratchDatabase } from "./scratch-database";
import { type Shopper, shopClient } from "./shoppers";

const FLOOR_SERVER = path.resolve("bench/floor-server.mjs");
const CAPTURE = pathToFileURL(path.resolve("bench/statement-capture.mjs")).href;

export interface FloorProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts the floor server on `databaseUrl`, in plain Node (none of the bench's own loaders). */
export async function startFloorProcess(env: Record<string, string>): Promise<FloorProcess> {
  const child: ChildProcess = spawn(process.execPath, [FLOOR_SERVER], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (message) => resolve(Number(message)));
    child.once("exit", (code) => reject(new Error(`the floor server exited (${code}) before listening`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? -1,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** One request's statements, in the order they reached PostgreSQL. */
interface Captured {
  route: string;
  statements: string[];
}

/** A statement as compared: its text without `--` comments, white space collapsed. */
const normalised = (text: string) =>
  text
    .replace(/--[^\n]*/g, "")
    .replace(/\s+/g, " ")
    .trim();

/**
 * Waits for the mail sender a checkout woke to finish: its last statement
 * (when the next message is due) written by a request after `from`. An add's
 * statements are all written before its answer (the capture writes each one
 * as it is sent), so an add needs no wait.
 */
async function mailSenderDone(file: string, from: number) {
  const done = (line: string) => line.includes('"request":null') === false && line.includes("min(greatest(");
  for (let looked = 0; looked < 400; looked++) {
    const lines = fs.readFileSync(file).subarray(from).toString("utf8").split("\n");
    if (lines.some(done)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the checkout's mail sender never finished (no statement for the next message due)");
}

/** One guest's adds and checkout against `url`; the statements each request caused. */
async function scenario(url: string, file: string, productIds: readonly number[]): Promise<Captured[]> {
  const [first, second] = productIds as [number, number];
  const from = fs.statSync(file).size;
  const client = shopClient(url, 1);
  const shopper: Shopper = { address: "198.18.250.1", cookie: null, adds: [] };
  try {
    for (const add of [
      { productId: first, quantity: 1 },
      { productId: second, quantity: 2 },
      { productId: first, quantity: 1 },
    ]) {
      const answer = await client.add(shopper, add);
      if (answer.status !== 200) throw new Error(`add answered ${answer.status}: ${answer.body}`);
    }
    const answer = await client.checkout(shopper);
    if (answer.status !== 201) throw new Error(`checkout answered ${answer.status}: ${answer.body}`);
    await mailSenderDone(file, from);
  } finally {
    client.close();
  }
  const byRequest = new Map<number, Captured>();
  const lines = fs.readFileSync(file).subarray(from).toString("utf8").split("\n").filter(Boolean);
  for (const line of lines) {
    const { request, route, text } = JSON.parse(line) as {
      request: number | null;
      route: string;
      text: string;
    };
    if (request === null) continue;
    const captured = byRequest.get(request) ?? { route, statements: [] };
    captured.statements.push(normalised(text));
    byRequest.set(request, captured);
  }
  return [...byRequest.entries()].sort(([a], [b]) => a - b).map(([, captured]) => captured);
}

/** The differences between the two lists, each naming the request and both texts; empty when none. */
function differences(shop: Captured[], floor: Captured[]): string[] {
  const found: string[] = [];
  for (let at = 0; at < Math.max(shop.length, floor.length); at++) {
    const mine = shop[at];
    const theirs = floor[at];
    const label = `request ${at + 1} (${mine?.route ?? theirs?.route})`;
    if (mine?.route !== theirs?.route) {
      found.push(
        `${label}: the shop answered ${mine?.route ?? "nothing"}, the floor ${theirs?.route ?? "nothing"}`,
      );
      continue;
    }
    const count = Math.max(mine?.statements.length ?? 0, theirs?.statements.length ?? 0);
    for (let statement = 0; statement < count; statement++) {
      const a = mine?.statements[statement];
      const b = theirs?.statements[statement];
      if (a !== b)
        found.push(
          `${label}, statement ${statement + 1}:\n  shop:  ${a ?? "(none)"}\n  floor: ${b ?? "(none)"}`,
        );
    }
  }
  return found;
}

export interface FloorCheck {
  /** Statements per request of the scenario (3 adds, 1 checkout), as the shop ran them. */
  shop: Captured[];
  differences: string[];
}

/**
 * Runs the scenario against the built shop and the floor on `databaseUrl`
 * (its products `productIds`, two of them in stock), each with the capture
 * loaded, one after the other; the shop from BUILD_DIR or build/.
 */
async function checkFloor(databaseUrl: string, productIds: readonly number[]): Promise<FloorCheck> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "backline-floor-check-"));
  const capture = (name: string) => ({
    NODE_OPTIONS: `--import=${CAPTURE}`,
    STATEMENT_CAPTURE_FILE: path.join(folder, `${name}.jsonl`),
  });
  try {
    const shopEnv = capture("shop");
    const shop = await startShopProcess({
      DATABASE_URL: databaseUrl,
      SEED_DEMO_CATALOG: "0",
      LOG_LEVEL: "info",
      TRUST_PROXY: "1",
      ...shopEnv,
    });
    let shopStatements: Captured[];
    try {
      await shop.waitForOutput(/catalogue index read/, 5 * 60_000);
      shopStatements = await scenario(shop.url, shopEnv.STATEMENT_CAPTURE_FILE, productIds);
    } finally {
      await shop.stop();
    }
    const floorEnv = capture("floor");
    const floor = await startFloorProcess({ DATABASE_URL: databaseUrl, ...floorEnv });
    let floorStatements: Captured[];
    try {
      floorStatements = await scenario(floor.url, floorEnv.STATEMENT_CAPTURE_FILE, productIds);
    } finally {
      await floor.stop();
    }
    return { shop: shopStatements, differences: differences(shopStatements, floorStatements) };
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** A sentence for the report: how many statements the floor mirrors, or that it drifted. */
export function floorCheckSummary(check: FloorCheck): string {
  const counts = (route: string) =>
    check.shop
      .filter((captured) => captured.route.endsWith(route))
      .map((captured) => captured.statements.length);
  const adds = counts("/api/cart/lines");
  const checkouts = counts("/api/checkout");
  const what = `adds ${adds.join(", ")} statements each, the checkout of its cart ${checkouts.join(", ")} (its transaction, the lookups before it and the mail sender's work it wakes)`;
  return check.differences.length === 0
    ? `The floor runs the shop's statements, checked in this run (bench/floor-check.ts): ${what}.`
    : `**The floor's statements differ from the shop's** in ${check.differences.length} places (bench/floor-check.ts): its figures are not the floor of this shop's work.`;
}

/** The check on a scratch catalogue of its own (200 products), so that its two orders touch no measured books. */
export async function checkFloorOnScratch(): Promise<FloorCheck> {
  const databaseUrl = await scratchDatabase("backline_floor_check");
  try {
    const generated = spawnSync(
      "npx",
      ["tsx", "scripts/db-generate-catalog.ts", "--count", "200", "--replace"],
      // The generator's own configuration only: a test runner's environment (Vite's BASE_URL) is not the shop's.
      {
        stdio: "inherit",
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl },
      },
    );
    if (generated.status !== 0) throw new Error("generating the catalogue failed");
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query("update stock_levels set on_hand = 1000");
    const { rows } = await client.query<{ id: number }>("select id from products order by id limit 2");
    await client.end();
    return await checkFloor(
      databaseUrl,
      rows.map((row) => row.id),
    );
  } finally {
    await dropScratchDatabase("backline_floor_check");
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const check = await checkFloorOnScratch();
  console.log(floorCheckSummary(check));
  for (const difference of check.differences) console.log(`\n${difference}`);
  if (check.differences.length > 0) process.exitCode = 1;
}
