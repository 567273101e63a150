import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll } from "vitest";
import { type Database, type DatabaseHandle, openDatabase } from "~/db/client.server";
import { migrateDatabase } from "~/db/migrate.server";
import { pgliteTemplate } from "./pglite-template";
import { describeWhen, postgresServer, SERVICES_PASS } from "./requirements";

/**
 * Fresh, migrated, empty databases for integration tests, one per engine the
 * shop supports, so every database test runs against both:
 *
 * - always PGlite, in memory (nothing on disk, gone when closed);
 * - PostgreSQL too when TEST_DATABASE_URL is set (e.g.
 *   postgres://postgres@127.0.0.1:5432/test). Each call then creates its own
 *   database `backline_test_<random>` on that server and drops it on close, so
 *   test files running in parallel never see each other's rows. The user in
 *   the URL needs the CREATEDB privilege.
 *
 * Typical use, one set per test file:
 *
 *   const engines = await openTestDatabases();
 *   afterAll(() => Promise.all(engines.map((engine) => engine.close())));
 *   describe.each(engines)("… on $name", (engine) => { … engine.db … });
 *   reportPostgresSkipped("… on $name");
 */
export interface TestDatabase {
  /** For test titles: "PGlite" or "PostgreSQL". */
  name: "PGlite" | "PostgreSQL";
  kind: DatabaseHandle["kind"];
  handle: DatabaseHandle;
  db: Database;
  /** Closes the connection and, on PostgreSQL, drops the throwaway database. */
  close(): Promise<void>;
}

/**
 * Every engine to test: PGlite, plus PostgreSQL when TEST_DATABASE_URL is set
 * (PostgreSQL alone in CI's second pass, requirements.ts's SERVICES_PASS).
 * Called at a test file's top level: they are closed after its last test.
 */
export async function openTestDatabases(): Promise<TestDatabase[]> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  // Without PostgreSQL the services pass would run no engine at all, and say nothing.
  if (SERVICES_PASS && !serverUrl) throw new Error("TEST_SERVICES_PASS=1 needs TEST_DATABASE_URL");
  const engines = SERVICES_PASS ? [] : [await openPgliteTestDatabase()];
  if (serverUrl) {
    try {
      engines.push(await openPostgresTestDatabase(serverUrl));
    } catch (error) {
      await Promise.all(engines.map((engine) => engine.close()));
      throw error;
    }
  }
  afterAll(() => Promise.all(engines.map((engine) => engine.close())));
  return engines;
}

/**
 * Without TEST_DATABASE_URL, the PostgreSQL run of a `describe.each(engines)`
 * suite does not exist: this reports it as skipped, with the reason.
 */
export function reportPostgresSkipped(title: string) {
  if (!postgresServer.met) describeWhen([postgresServer], title.replace("$name", "PostgreSQL"), () => {});
}

/**
 * An empty, migrated in-memory PGlite database: a copy of the migrated one the
 * test run's global set-up made (pglite-template.ts), or made here.
 */
export async function openPgliteTestDatabase(): Promise<TestDatabase> {
  const handle = await openDatabase({ dataDir: "memory://", startFrom: pgliteTemplate() });
  // Nothing to do on a copy of the migrated database, but it says so cheaply.
  await migrateOrClose(handle);
  return { name: "PGlite", kind: handle.kind, handle, db: handle.db, close: () => handle.close() };
}

/**
 * An empty, migrated database of its own on the PostgreSQL server of
 * `serverUrl`; the database named in the URL is only used to create and drop it.
 */
export async function openPostgresTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const scratch = await createScratchPostgres(serverUrl);
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase({ databaseUrl: scratch.url, poolSize: 4 });
    await migrateOrClose(handle);
  } catch (error) {
    await scratch.drop();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    name: "PostgreSQL",
    kind: handle.kind,
    handle,
    db: handle.db,
    close() {
      closing ??= handle.close().then(() => scratch.drop());
      return closing;
    },
  };
}

export interface ScratchPostgres {
  /** Connection string of the new, empty database. */
  url: string;
  /** Drops the database, ending any connection still open to it. */
  drop(): Promise<void>;
}

/**
 * An empty database of its own on the server of `serverUrl` (default
 * TEST_DATABASE_URL), for tests that hand a DATABASE_URL to a shop process.
 */
export async function createScratchPostgres(
  serverUrl = process.env.TEST_DATABASE_URL,
): Promise<ScratchPostgres> {
  if (!serverUrl) throw new Error("TEST_DATABASE_URL is not set");
  const databaseName = `backline_test_${randomBytes(6).toString("hex")}`;
  await onServer(serverUrl, `create database "${databaseName}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  return { url: url.toString(), drop: () => dropDatabase(serverUrl, databaseName) };
}

async function migrateOrClose(handle: DatabaseHandle): Promise<void> {
  try {
    await migrateDatabase(handle);
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function dropDatabase(serverUrl: string, databaseName: string): Promise<void> {
  // FORCE (PostgreSQL 13+) ends any connection a failed test left behind.
  return onServer(serverUrl, `drop database if exists "${databaseName}" with (force)`);
}

/** Runs one statement on the server's own database (CREATE/DROP DATABASE cannot be parameterised). */
async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
