import type { PGlite } from "@electric-sql/pglite";
import type { Logger } from "drizzle-orm/logger";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type pg from "pg";
import type { Database } from "~/db/client.server";
import * as schema from "~/db/schema";
import type { TestDatabase } from "./test-database";

/**
 * How the database would run the statements the shop sends: a test records
 * them as sent (drizzle's query log), then asks for each one's plan, to show
 * it reads an index rather than a whole table.
 */
export interface Recorded {
  query: string;
  params: unknown[];
}

/** The same database, with every statement sent through it written down. */
export function recordingDatabase(engine: TestDatabase, recorded: Recorded[]): Database {
  const logger: Logger = { logQuery: (query, params) => recorded.push({ query, params }) };
  const client = (engine.db as unknown as { $client: unknown }).$client;
  return (engine.kind === "pglite"
    ? drizzlePglite({ client: client as PGlite, schema, logger })
    : drizzlePostgres({ client: client as pg.Pool, schema, logger })) as unknown as Database;
}

/** The plan of one statement, as text, with sorts and sequential scans made to cost more than any index. */
export async function planOf(engine: TestDatabase, { query, params }: Recorded): Promise<string> {
  const settings = "set enable_sort = off; set enable_seqscan = off;";
  if (engine.kind === "pglite") {
    const client = (engine.db as unknown as { $client: PGlite }).$client;
    await client.exec(settings);
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`explain ${query}`, params);
    await client.exec("reset enable_sort; reset enable_seqscan;");
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  }
  const connection = await (engine.db as unknown as { $client: pg.Pool }).$client.connect();
  try {
    await connection.query(settings);
    const { rows } = await connection.query<{ "QUERY PLAN": string }>(`explain ${query}`, params);
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  } finally {
    await connection.query("reset enable_sort; reset enable_seqscan;");
    connection.release();
  }
}
