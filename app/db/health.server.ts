import type { DatabaseHandle } from "./client.server";

/** How long a health check waits for the database before calling it down. */
const PING_TIMEOUT_MS = 2_000;

/** Whether the database answers a trivial query within a short time (a frozen one does not). */
export async function databaseAnswers(
  database: DatabaseHandle,
  timeoutMs = PING_TIMEOUT_MS,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      database.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("database ping timed out")), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
