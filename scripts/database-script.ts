// Shared frame of the db:* scripts: open the database the shop is configured
// for (getEnv), migrate, do the work, close, and print one clear line. An
// expected failure (bad configuration, DATA_DIR in use, server unreachable)
// exits 1 with its message only; anything else is a bug and keeps its stack.
import path from "node:path";
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { type DatabaseHandle, openDatabase } from "../app/db/client.server";
import { DataDirInUseError, isDataDirInUse } from "../app/db/data-dir-lock.server";
import { migrateDatabase } from "../app/db/migrate.server";
import { ConfigError, getEnv } from "../app/utils/env.server";

/** A failure the user can fix from its message alone, e.g. a bad command-line argument. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A line of a command's report, for the person at the terminal (the logger's JSON lines are the shop's). */
export function report(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * A command's arguments: node:util's parseArgs (strict: an unknown option is
 * a mistake), then `read` turns them into what the command needs. Any
 * mistake — parseArgs's, or a UsageError from `read` — is printed with the
 * usage and sets exit code 1; the command then gets undefined and does nothing.
 */
export function commandLine<O extends ParseArgsOptionsConfig, T>(
  usage: string,
  options: O,
  read: (parsed: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>>) => T,
): T | undefined {
  try {
    let parsed: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>>;
    try {
      parsed = parseArgs({ options, allowPositionals: true, strict: true });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    return read(parsed);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message} (${usage})\n`);
    process.exitCode = 1;
    return undefined;
  }
}

export interface DatabaseScriptOptions {
  /**
   * What the script does, for the message when a running shop holds the
   * embedded database ("run the import"): said at once instead of waiting on
   * the folder's lock. Without it, DataDirInUseError's message after the wait.
   */
  stopTheShopTo?: string;
}

export async function runDatabaseScript(
  work: (database: DatabaseHandle) => Promise<string>,
  options: DatabaseScriptOptions = {},
): Promise<void> {
  try {
    const env = getEnv();
    if (!env.DATABASE_URL && options.stopTheShopTo && (await isDataDirInUse(env.DATA_DIR))) {
      throw new UsageError(
        `The shop is running on the embedded database in ${path.resolve(env.DATA_DIR)}, and only one process may use it at a time. Stop the shop (Ctrl-C in its terminal), ${options.stopTheShopTo}, then start the shop again. (On PostgreSQL, this runs beside the running shop.)`,
      );
    }
    const database = await openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      poolSize: env.DATABASE_POOL_SIZE,
      longStatements: true,
    });
    let message: string;
    try {
      await migrateDatabase(database);
      message = await work(database);
    } finally {
      await database.close();
    }
    report(message);
  } catch (error) {
    process.stderr.write(`${describeFailure(error)}\n`);
    process.exitCode = 1;
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof UsageError) {
    return error.message;
  }
  const reason = databaseFailure(error);
  if (reason) return reason;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Network errors and PostgreSQL's own errors (they carry a code) explain themselves in one line. */
function databaseFailure(error: unknown): string | undefined {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return `Could not reach the database: ${error.errors.map((inner) => (inner as Error).message).join("; ")}`;
  }
  if (!(error instanceof Error)) return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  // Node's network errors: ECONNREFUSED, ENOTFOUND, ETIMEDOUT…
  if (typeof code === "string" && /^E[A-Z]+$/.test(code))
    return `Could not reach the database: ${error.message}`;
  // PostgreSQL's SQLSTATE codes: a wrong database name, password, permission…
  if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return `The database refused: ${error.message}`;
  if (/connection|timeout|terminated/i.test(error.message))
    return `Could not reach the database: ${error.message}`;
  return undefined;
}
