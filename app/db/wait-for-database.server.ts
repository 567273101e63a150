import { setTimeout as sleep } from "node:timers/promises";
import { logger } from "~/utils/logger.server";
import type { DatabaseHandle } from "./client.server";

/** Connection failures that end by themselves: the server is starting, restarting or not reachable yet. */
const TRANSIENT_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  // PostgreSQL: the database system is starting up / shutting down / in recovery.
  "57P01",
  "57P02",
  "57P03",
  // Too many connections, for now.
  "53300",
  // The shop's own pool, while it waits to try again.
  "BACKLINE_DATABASE_UNAVAILABLE",
]);

export class DatabaseConfigurationError extends Error {
  override name = "DatabaseConfigurationError";
}

/** "127.0.0.1:5432/shop": where DATABASE_URL points, without its credentials. */
function databaseLocation(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port || "5432"}${url.pathname}`;
  } catch {
    return "the DATABASE_URL server";
  }
}

/** Drizzle wraps the driver's error ("Failed query: …"): the driver's own says what happened. */
function driverError(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    const cause = (current as { cause?: unknown } | null)?.cause;
    if (cause === undefined || cause === null) return current;
    current = cause;
  }
  return current;
}

function transient(error: unknown): { transient: boolean; reason: string } {
  const { code, message } = (driverError(error) ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : String(error);
  if (typeof code === "string" && TRANSIENT_CODES.has(code)) return { transient: true, reason: code };
  // pg's own timeouts carry no code.
  if (/timeout|timed out|terminated/i.test(text)) return { transient: true, reason: text };
  return { transient: false, reason: typeof code === "string" ? `${text} (${code})` : text };
}

/**
 * Waits until PostgreSQL answers, for a shop started before its database
 * (a reboot, an orchestrator starting everything at once): each failed try
 * is logged in one line and retried with backoff (1 s, 2 s, 4 s … 30 s)
 * until the database answers or the shop is told to stop. A mistake that
 * waiting cannot fix (a wrong password, a database that does not exist)
 * stops start-up at once, saying which. The embedded database needs no wait.
 */
export async function waitForDatabase(
  database: DatabaseHandle,
  options: { databaseUrl?: string; signal?: AbortSignal; firstDelayMs?: number; maxDelayMs?: number },
): Promise<void> {
  if (database.kind !== "postgres" || !options.databaseUrl) return;
  const where = databaseLocation(options.databaseUrl);
  let delay = options.firstDelayMs ?? 1_000;
  for (let attempt = 1; ; attempt++) {
    try {
      await database.ping();
      if (attempt > 1) logger.info({ database: where }, "PostgreSQL answers; starting");
      return;
    } catch (error) {
      const { transient: retry, reason } = transient(error);
      if (!retry) {
        throw new DatabaseConfigurationError(
          `PostgreSQL at ${where} refused the connection: ${reason}. Check DATABASE_URL.`,
        );
      }
      logger.warn(
        { database: where, reason, attempt, retryInSeconds: delay / 1000 },
        `PostgreSQL at ${where} is not reachable (${reason}); trying again in ${delay / 1000} s`,
      );
      await sleep(delay, undefined, { signal: options.signal }).catch(() => undefined);
      if (options.signal?.aborted)
        throw new DatabaseConfigurationError("stopped while waiting for PostgreSQL");
      delay = Math.min(delay * 2, options.maxDelayMs ?? 30_000);
    }
  }
}
