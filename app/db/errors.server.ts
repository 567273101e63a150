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
