import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { lockDataDir } from "./data-dir-lock.server";
import * as schema from "./schema";

/** The one query interface the shop uses, whichever engine is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL; without it the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Folder of the embedded database, or "memory://" for a throwaway one. */
  dataDir?: string;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.dataDir ?? "./data");
}

async function openPostgres(connectionString: string, max: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5000,
    // Many short queries at once, not one big one: parallel workers only add
    // start-up cost and compete with the other connections for the cores
    // (a broad search measured 111 ms with workers, 24 ms without).
    options: "-c max_parallel_workers_per_gather=0",
  });
  // An idle client losing its server must not crash the process; the next
  // query simply gets a fresh connection.
  pool.on("error", () => {});
  const db = drizzlePostgres({ client: pool, schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const inMemory = dataDir.startsWith("memory://");
  // PGlite has no multi-process locking of its own: two processes writing one
  // folder corrupt it, so the second one is refused before it opens anything.
  const lock = inMemory ? undefined : lockDataDir(dataDir);
  try {
    const client = await PGlite.create(dataDir);
    const db = drizzlePglite({ client, schema }) as unknown as Database;
    return {
      db,
      kind: "pglite",
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: async () => {
        await client.close();
        lock?.release();
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}
