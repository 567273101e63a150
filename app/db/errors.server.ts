/** PostgreSQL's codes for the constraint failures the shop answers (the same on PGlite). */
export const UNIQUE_VIOLATION = "23505";
export const CHECK_VIOLATION = "23514";
/** A transaction PostgreSQL ended to break a lock cycle, or could not serialise: safe to run again. */
export const DEADLOCK_DETECTED = "40P01";
export const SERIALIZATION_FAILURE = "40001";
/** A statement that ran past statement_timeout (waiting on a lock, most often). */
export const QUERY_CANCELED = "57014";

/**
 * Whether a statement failed with PostgreSQL error `code` — on `constraint`,
 * when one is named — however the query builder wrapped the driver's error.
 */
export function failedWith(error: unknown, code: string, constraint?: string): boolean {
  for (
    let current = error;
    current && typeof current === "object";
    current = (current as { cause?: unknown }).cause
  ) {
    const found = current as { code?: unknown; constraint?: unknown };
    if (found.code === code && (constraint === undefined || found.constraint === constraint)) return true;
  }
  return false;
}

/**
 * The SQLSTATE of PostgreSQL's refusal of a value the statement carried —
 * class 22, data exception: NUL in text (22021), a bad escape or a lone
 * surrogate in jsonb (22P05, 22P02), text that is not a number (22P02), too
 * long (22001), out of range (22003) — however the query builder wrapped
 * it; null for any other failure. The request sent a value the database
 * cannot take, which its schema should have refused: the client's mistake.
 */
export function refusedValueCode(error: unknown): string | null {
  for (
    let current = error;
    current && typeof current === "object";
    current = (current as { cause?: unknown }).cause
  ) {
    const { code } = current as { code?: unknown };
    if (typeof code === "string" && /^22[0-9A-Z]{3}$/.test(code)) return code;
  }
  return null;
}

/** Whether PostgreSQL ended the transaction to break a lock cycle, or could not serialise it: nothing was written. */
export function failedOnLockCycle(error: unknown): boolean {
  return failedWith(error, DEADLOCK_DETECTED) || failedWith(error, SERIALIZATION_FAILURE);
}

/** Runs `work` (a transaction) again, up to `attempts` times in all, while PostgreSQL ends it for a lock cycle. */
export async function retryingLockCycles<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!failedOnLockCycle(error) || attempt >= attempts) throw error;
    }
  }
}
