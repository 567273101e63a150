import path from "node:path";
import lockfile from "proper-lockfile";
import { logger } from "~/utils/logger.server";

export class DataDirInUseError extends Error {
  override name = "DataDirInUseError";
}

export interface DataDirLock {
  release(): Promise<void>;
}

const LOCK = "backline.lock";

/**
 * How the lock tells a live holder from a dead one: the holder refreshes the
 * lock's time every UPDATE_MS; a lock not refreshed for STALE_MS belongs to a
 * process that is gone (a crash, a kill -9) and is taken over. Time, not a
 * PID, so it holds across PID namespaces (two containers sharing a volume,
 * where a PID means nothing to the other side). STALE_MS also bounds how
 * long a single embedded-database statement may hold the event loop.
 */
const STALE_MS = 10_000;
const UPDATE_MS = 2_500;

const isLocked = (error: unknown) => (error as NodeJS.ErrnoException).code === "ELOCKED";

/**
 * Claims DATA_DIR for this process (proper-lockfile: an atomically created
 * lock directory whose time the holder keeps fresh). A lock left by a process
 * that stopped is taken over once it is stale; a live one stops start-up with
 * a clear message. If this process ever loses its lock (its refreshes were
 * held up past the stale time and another process took over), it stops at
 * once rather than write beside the other: two writers corrupt PGlite.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const folder = path.resolve(dataDir);
  const options: lockfile.LockOptions = {
    realpath: false,
    lockfilePath: path.join(folder, LOCK),
    stale: STALE_MS,
    update: UPDATE_MS,
    onCompromised(error) {
      logger.fatal(
        { reason: error.message },
        `lost the lock on ${folder}: stopping, so that two processes never write one database`,
      );
      process.exit(1);
    },
  };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(folder, options).catch(async (error: unknown) => {
      if (!isLocked(error)) throw error;
      // Fresh, but perhaps left by a process that has just died: wait until it would be stale.
      logger.info(
        `the database folder ${folder} is locked; waiting up to ${STALE_MS / 1000} s in case its process has stopped`,
      );
      const retries = { retries: STALE_MS / 1000 + 2, factor: 1, minTimeout: 1_000, maxTimeout: 1_000 };
      return lockfile.lock(folder, { ...options, retries });
    });
  } catch (error) {
    if (!isLocked(error)) throw error;
    throw new DataDirInUseError(
      `The database folder ${folder} is already in use by another Backline process. ` +
        "Stop that process, or start this one with a different DATA_DIR.",
    );
  }
  return { release: () => release().catch(() => undefined) };
}

/**
 * Whether a live process (a running shop) holds DATA_DIR now: for commands
 * that would rather say so at once than wait out a lock that may be stale.
 */
export async function isDataDirInUse(dataDir: string): Promise<boolean> {
  const folder = path.resolve(dataDir);
  return lockfile
    .check(folder, { realpath: false, lockfilePath: path.join(folder, LOCK), stale: STALE_MS })
    .catch(() => false);
}
