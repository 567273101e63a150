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
