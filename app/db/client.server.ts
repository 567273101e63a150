import fs from "node:fs";
import path from "node:path";
import { isMainThread } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { logger } from "~/utils/logger.server";
import { lockDataDir } from "./data-dir-lock.server";
import { DEADLOCK_DETECTED, QUERY_CANCELED, SERIALIZATION_FAILURE } from "./errors.server";
import { type Listening, listenForNotifications } from "./notifications.server";
import * as schema from "./schema";

/** The one query interface the shop uses, whichever engine is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction of the shop's database, as `db.transaction(async (tx) => …)` hands it. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** The PostgreSQL pool (null for the embedded database), for libraries that take one. */
  pool: pg.Pool | null;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** Closes the connections; bounded, so a database that stopped answering cannot hold up shutdown. */
  close(): Promise<void>;
  /**
   * Calls `onNotify` on every notification on `channel` (NOTIFY, sent at
   * commit by any process on this database, this one included), and once
   * after each moment when notifications may have been missed (a lost
   * connection to PostgreSQL). Close it before the handle.
   */
  listen(channel: string, onNotify: () => void): Listening;
}

export interface DatabaseOptions {
  /** A postgres:// URL; without it the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Folder of the embedded database, or "memory://" for a throwaway one. */
  dataDir?: string;
  /**
   * A throwaway embedded database's starting content, a dump of another one
   * (PGlite's dumpDataDir): the tests start each from one migrated copy,
   * which is quicker than creating and migrating a database each time.
   */
  startFrom?: Blob;
  poolSize?: number;
  /**
   * For the command-line tools (an import reads and writes a whole catalogue
   * in one transaction): no per-statement time limit, which is for requests.
   */
  longStatements?: boolean;
}

/**
 * Every call to PostgreSQL is bounded in time: a server that stops answering
 * without closing its connections (frozen, or cut off by the network) fails
 * a request in seconds instead of holding it until the server wakes.
 * The server cancels a statement first (it keeps the connection usable); the
 * client gives up a little later if even the cancellation gets no answer.
 */
const POSTGRES_TIMEOUTS = Object.freeze({
  connectMs: 3_000,
  statementMs: 5_000,
  queryMs: 6_000,
  closeMs: 3_000,
});

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl)
    return openPostgres(options.databaseUrl, options.poolSize ?? 10, options.longStatements ?? false);
  return openPglite(options.dataDir ?? "./data", options.startFrom);
}

/** Connection-level failures: the server is down, restarting, frozen or unreachable (not a query's own error). */
const CONNECTION_FAILURE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "57P01",
  "57P02",
  "57P03",
]);
const CONNECTION_FAILURE_MESSAGE =
  /read timeout|connection timeout|Connection terminated|Connection ended|not queryable/i;

/**
 * pg-pool's words when no client of a full pool came free in time: every
 * connection is busy, which says the shop has more work than connections,
 * not that the database stopped answering.
 */
const POOL_QUEUE_TIMEOUT = "timeout exceeded when trying to connect";

function isPoolQueueTimeout(error: unknown): boolean {
  return (error as { message?: unknown } | null)?.message === POOL_QUEUE_TIMEOUT;
}

function isConnectionFailure(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string") return CONNECTION_FAILURE_CODES.has(code);
  return typeof message === "string" && CONNECTION_FAILURE_MESSAGE.test(message);
}

/**
 * PostgreSQL's answers that say it cannot take the work just now, not that
 * the work is wrong: it refuses another connection (53300: its connection
 * limit), a statement ran past its time (57014: logged all the same, in case
 * the statement is what is slow), or two transactions collided and one was
 * chosen to fail (40001, 40P01, 55P03).
 */
const BUSY_CODES = new Set(["53300", QUERY_CANCELED, SERIALIZATION_FAILURE, DEADLOCK_DETECTED, "55P03"]);

/**
 * Whether `error`, or what caused it (drizzle wraps pg's errors), is a
 * failure of the moment rather than of the request: the database down,
 * unreachable or too busy (above), or a connection to another service the
 * request needed that was refused, reset or timed out. The same request, sent
 * again a little later, can succeed.
 */
export function isTransientFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const { name, code } = current as { name?: unknown; code?: unknown };
    if (name === "DatabaseUnavailableError" || isConnectionFailure(current) || isPoolQueueTimeout(current))
      return true;
    if (typeof code === "string" && BUSY_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

class DatabaseUnavailableError extends Error {
  override name = "DatabaseUnavailableError";
  /** The code of the failure that made the pool stop trying (ECONNREFUSED, …), when it had one. */
  constructor(
    message: string,
    readonly code = "BACKLINE_DATABASE_UNAVAILABLE",
  ) {
    super(message);
  }
}

/**
 * A pg pool that stops waiting on a database that stopped answering. After a
 * connection-level failure (a timeout, a refused or reset connection), every
 * query fails at once for RETRY_AFTER_MS instead of each waiting out its own
 * timeout; then the next query tries the database again. A frozen database
 * therefore costs one request its timeout, not every request, and the shop
 * notices within RETRY_AFTER_MS that it is back.
 */
class FailFastPool extends pg.Pool {
  static readonly RETRY_AFTER_MS = 2_000;
  /**
   * How long a query may wait for a client of a full pool, in all. pg-pool
   * gives up after connectionTimeoutMillis (meant for connecting), and a
   * burst of checkouts queued behind one product's stock row waits longer
   * than that on a slow machine: the wait is taken again until this much
   * has passed, unless the database is found not answering meanwhile.
   */
  static readonly QUEUE_WAIT_MS = 15_000;
  private failingUntil = 0;
  private failing = false;
  /** Counts the failures seen: an answer proves the database is back only if none came after its query began. */
  private failures = 0;
  private lastReason = "";
  private lastCode: string | undefined;

  private refusal(): DatabaseUnavailableError | null {
    if (Date.now() >= this.failingUntil) return null;
    return new DatabaseUnavailableError(`PostgreSQL is not answering (${this.lastReason})`, this.lastCode);
  }

  private observe(error: unknown) {
    if (!isConnectionFailure(error)) return;
    const { message, code } = error as { message?: unknown; code?: unknown };
    this.lastReason = typeof message === "string" ? message : String(error);
    this.lastCode = typeof code === "string" ? code : undefined;
    this.failures++;
    this.failingUntil = Date.now() + FailFastPool.RETRY_AFTER_MS;
    if (!this.failing) {
      this.failing = true;
      logger.warn(
        { reason: this.lastReason },
        `PostgreSQL is not answering; requests that need it fail fast, and it is tried again every ${FailFastPool.RETRY_AFTER_MS / 1000} s`,
      );
    }
  }

  /**
   * A query sent before a failure may still be answered after it (its connection not yet cut by a
   * shutting-down server): that answer says nothing about the database now, and taking it as
   * recovery would end the outage in the log before it began.
   */
  private recovered(failuresWhenSent: number) {
    if (!this.failing || failuresWhenSent !== this.failures) return;
    this.failing = false;
    logger.info("PostgreSQL answers again");
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded signatures, passed through unchanged
  override query(...args: any[]): any {
    const callback = typeof args.at(-1) === "function" ? args.pop() : undefined;
    const refused = this.refusal();
    const failuresWhenSent = this.failures;
    const result: Promise<unknown> = refused
      ? Promise.reject(refused)
      : (super.query as (...rest: unknown[]) => Promise<unknown>)(...args).then(
          (value) => {
            this.recovered(failuresWhenSent);
            return value;
          },
          (error: unknown) => {
            this.observe(error);
            throw error;
          },
        );
    if (!callback) return result;
    result.then(
      (value) => callback(undefined, value),
      (error) => callback(error),
    );
    return undefined;
  }

  /** A client of the pool, waiting in its queue for up to QUEUE_WAIT_MS while every client is busy. */
  private async checkOut(started: number): Promise<pg.PoolClient> {
    for (;;) {
      try {
        return await super.connect();
      } catch (error) {
        const waitedEnough = performance.now() - started >= FailFastPool.QUEUE_WAIT_MS;
        // Found down meanwhile: the wait ends here, as a busy pool's answer (503), not one more outage.
        if (!isPoolQueueTimeout(error) || waitedEnough || this.refusal()) throw error;
      }
    }
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded signatures, passed through unchanged
  override connect(...args: any[]): any {
    const callback = typeof args[0] === "function" ? args[0] : undefined;
    const refused = this.refusal();
    const result: Promise<pg.PoolClient> = refused
      ? Promise.reject(refused)
      : this.checkOut(performance.now()).catch((error: unknown) => {
          this.observe(error);
          throw error;
        });
    if (!callback) return result;
    result.then(
      (client) => callback(undefined, client, () => client.release()),
      (error) => callback(error),
    );
    return undefined;
  }
}

function openPostgres(connectionString: string, max: number, longStatements: boolean): DatabaseHandle {
  const pool = new FailFastPool({
    connectionString,
    max,
    connectionTimeoutMillis: POSTGRES_TIMEOUTS.connectMs,
    query_timeout: longStatements ? undefined : POSTGRES_TIMEOUTS.queryMs,
    // TCP keep-alive notices a peer that vanished while a connection sat idle.
    keepAlive: true,
    // Many short queries at once, not one big one: parallel workers only add
    // start-up cost and compete with the other connections for the cores
    // (a broad search measured 111 ms with workers, 24 ms without).
    options: [
      "-c max_parallel_workers_per_gather=0",
      `-c statement_timeout=${longStatements ? 0 : POSTGRES_TIMEOUTS.statementMs}`,
      `-c idle_in_transaction_session_timeout=${POSTGRES_TIMEOUTS.statementMs * (longStatements ? 12 : 2)}`,
    ].join(" "),
  });
  // A connection losing its server (a restart, a crash) must not crash the
  // process: idle ones are reported on the pool, and one that is checked out
  // — inside a transaction, say — on itself. The pool drops it either way and
  // the next query gets a fresh connection.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = drizzlePostgres({ client: pool, schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    pool,
    // A connection of its own, kept up and reconnected (notifications.server.ts).
    listen: (channel, onNotify) => listenForNotifications(connectionString, channel, onNotify),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => withinTime(pool.end(), POSTGRES_TIMEOUTS.closeMs),
  };
}

async function openPglite(dataDir: string, startFrom?: Blob): Promise<DatabaseHandle> {
  if (dataDir.startsWith("memory://"))
    return pgliteHandle(await PGlite.create(dataDir, { loadDataDir: startFrom }));
  makePrivate(dataDir);
  // PGlite has no multi-process locking of its own: two processes writing one
  // folder corrupt it, so the second one is refused before it opens anything.
  const lock = await lockDataDir(dataDir);
  try {
    const client = await PGlite.create(dataDir).catch((error: unknown) => {
      throw embeddedDatabaseError(error, dataDir);
    });
    // A new database is unpacked with its template's modes (0666): tighten
    // them once; whatever PGlite creates later follows the umask (0600).
    makePrivate(dataDir);
    return pgliteHandle(client, () => lock.release());
  } catch (error) {
    await lock.release();
    throw error;
  }
}

function pgliteHandle(client: PGlite, afterClose?: () => Promise<void>): DatabaseHandle {
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    pool: null,
    // In this process: PGlite delivers its own notifications to its listeners at commit.
    listen(channel, onNotify) {
      const listening = client.listen(channel, () => onNotify());
      return { close: async () => (await listening)() };
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      try {
        await client.close();
      } finally {
        await afterClose?.();
      }
    },
  };
}

/**
 * The embedded database's folder holds every account and password hash: it
 * is readable by the shop's user only (0700), and so is everything the shop
 * writes there (umask 077), even when the folder existed with looser modes.
 */
function makePrivate(dataDir: string) {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Worker threads (some test runners) may not change the umask; the shop's main thread always can.
  if (isMainThread) process.umask(0o077);
  const tighten = (target: string, isDirectory: boolean) => {
    const stat = fs.statSync(target);
    const wanted = isDirectory ? 0o700 : 0o600;
    if ((stat.mode & 0o777) !== wanted) fs.chmodSync(target, wanted);
  };
  tighten(dataDir, true);
  for (const entry of fs.readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory() || entry.isFile())
      tighten(path.join(entry.parentPath, entry.name), entry.isDirectory());
  }
}

/** PGlite's file-system errors are Emscripten errno objects: say what they mean. */
export class EmbeddedDatabaseError extends Error {
  override name = "EmbeddedDatabaseError";
}

// Emscripten's errno numbers, as PGlite reports them.
const EMSCRIPTEN_ERRNO: Record<number, string> = {
  2: "permission denied",
  19: "disk quota exceeded",
  51: "no space left on the disk",
  69: "the file system is read-only",
};

function embeddedDatabaseError(error: unknown, dataDir: string): unknown {
  const errno = (error as { errno?: unknown } | null)?.errno;
  if (typeof errno !== "number" || error instanceof Error) return error;
  const cause = EMSCRIPTEN_ERRNO[errno] ?? `file-system error ${errno}`;
  const advice =
    errno === 51 || errno === 19
      ? "Free some space on that disk (or set DATA_DIR to a folder on another disk) and start again."
      : "Check that the shop's user can write to that folder, or set DATA_DIR to one it can.";
  return new EmbeddedDatabaseError(
    `The embedded database in ${path.resolve(dataDir)} cannot be opened: ${cause}. ${advice}`,
  );
}

/** Resolves when `work` does or after `ms`, whichever comes first; never rejects. */
function withinTime(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
