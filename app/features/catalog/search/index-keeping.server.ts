import type { CatalogIndex } from "./catalog-index.server";

export interface CatalogIndexKeeping {
  /** Reads a new index from the database; null when there is none to read. */
  read(): Promise<CatalogIndex | null>;
  /** The catalogue's revision now. */
  revision(): Promise<number>;
  /**
   * How long an index is used before the revision is checked again, in ms
   * (the catalogue's cache time): past it, a changed catalogue is read again
   * in the background while the old index answers. 0 checks before every
   * use, and answers nothing from an index that is out of date.
   */
  freshForMs: number;
  /** Called when a new index is put in use (answers made with the old one may go). */
  onReplaced(): void;
  onFailure(error: unknown, message: string): void;
}

/** A failed or empty read is tried again after this long, not on every request. */
const RETRY_AFTER_MS = 5_000;

/**
 * Keeps one index in use and reads a new one when the catalogue changes.
 * While none is ready (at start-up, after clear(), after a failed read)
 * `current()` gives null and the SQL queries answer instead.
 */
export function keepCatalogIndex(keeping: CatalogIndexKeeping) {
  let index: CatalogIndex | null = null;
  let reading: Promise<void> | null = null;
  /** Counts clear()s: a read that began before one is not put in use. */
  let clears = 0;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let checking = false;
  let retryAt = Number.NEGATIVE_INFINITY;

  const readAgain = () => {
    if (reading || performance.now() < retryAt) return;
    const started = clears;
    const thisRead: Promise<void> = keeping
      .read()
      .then((read) => {
        if (started !== clears) return;
        checkedAt = performance.now();
        // None to read: the SQL queries go on answering, and it is asked again later, not per request.
        if (!read) retryAt = checkedAt + RETRY_AFTER_MS;
        if (!read && !index) return;
        index = read;
        keeping.onReplaced();
      })
      .catch((error: unknown) => {
        if (started !== clears) return;
        // An index that could not be read again is out of date: the SQL queries answer until one is.
        index = null;
        retryAt = performance.now() + RETRY_AFTER_MS;
        keeping.onFailure(error, "catalogue index read failed; the database answers every query");
      })
      .finally(() => {
        if (reading === thisRead) reading = null;
      });
    reading = thisRead;
  };

  let revisionRead: Promise<number> | null = null;
  let nextRevisionRead: Promise<number> | null = null;
  /**
   * The revision, read by a query that starts no earlier than this call:
   * callers that arrive while one is in flight share the next one, so with
   * the cache off a busy shop asks once per round trip, not once per answer.
   */
  const revisionNow = (): Promise<number> => {
    if (!revisionRead) {
      const read: Promise<number> = keeping.revision().finally(() => {
        if (revisionRead === read) revisionRead = null;
      });
      revisionRead = read;
      return read;
    }
    nextRevisionRead ??= revisionRead
      .catch(() => undefined)
      .then(() => {
        nextRevisionRead = null;
        return revisionNow();
      });
    return nextRevisionRead;
  };

  const checkInBackground = () => {
    if (checking) return;
    checking = true;
    checkedAt = performance.now();
    keeping
      .revision()
      .then((revision) => {
        if (index && revision !== index.revision) readAgain();
      })
      .catch((error: unknown) => keeping.onFailure(error, "catalogue revision check failed"))
      .finally(() => {
        checking = false;
      });
  };

  return {
    /** The index to answer from, or null when the SQL queries must answer. */
    async current(): Promise<CatalogIndex | null> {
      if (!index) {
        readAgain();
        return null;
      }
      if (keeping.freshForMs === 0) {
        const revision = await revisionNow();
        if (revision === index.revision) return index;
        readAgain();
        return null;
      }
      if (performance.now() - checkedAt >= keeping.freshForMs) checkInBackground();
      return index;
    },
    /** Resolves once the read in progress (if any) has ended. */
    async ready(): Promise<void> {
      if (!index) readAgain();
      await reading;
    },
    /** Drops the index: the SQL queries answer until a new one is read. */
    clear() {
      clears++;
      index = null;
      reading = null;
      retryAt = Number.NEGATIVE_INFINITY;
    },
    /** The index in use, for benchmarks and logs. */
    peek: () => index,
  };
}
