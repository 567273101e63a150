import pg from "pg";

/**
 * The PostgreSQL server the benchmarks use (BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, else the local `test` database): its database in the URL
 * is only used to create and drop databases of their own.
 */
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test";

async function onServer(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** An empty database `name` (one left by an earlier run is dropped first); its connection string. */
export async function scratchDatabase(name: string): Promise<string> {
  await dropScratchDatabase(name);
  await onServer(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops database `name`, ending any connection still open to it. */
export function dropScratchDatabase(name: string): Promise<void> {
  return onServer(`drop database if exists ${name} with (force)`);
}

/**
 * What a running shop's database does between two of a benchmark's sessions
 * on its own, done at once: autovacuum clears the dead rows the last session
 * left (every checkout updates its products' stock rows and deletes its cart's
 * lines) and refreshes the planner's statistics. Without it the next session
 * reads through them: on a server with autovacuum off (this workplace's shared
 * one, 2026-12-07), tens of thousands of dead stock rows piled up over the
 * saturation rounds and the fixed pace that came last fell seconds behind, the
 * floor as much as the shop. Whether the server's autovacuum is on is returned,
 * for the record.
 */
export async function settleLikeAutovacuum(databaseUrl: string): Promise<{ autovacuum: boolean }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("vacuum (analyze)");
    const { rows } = await client.query<{ autovacuum: string }>("show autovacuum");
    return { autovacuum: rows[0]?.autovacuum === "on" };
  } finally {
    await client.end();
  }
}
