import type { CatalogIndex } from "./catalog-index.server";
import { LiveIndex, MAX_CHANGES } from "./index-changes.server";
import type { CatalogChanges } from "./index-read.server";

export interface CatalogIndexKeeping {
  /** Reads a whole new index from the database; null when there is none to read. */
  read(): Promise<CatalogIndex | null>;
  /** What changed after a revision: at most `atMost` products, or "everything". */
  changes(since: number, atMost: number): Promise<CatalogChanges>;
  /** Called when the index in use changes (answers made before may be out of date). */
  onReplaced(): void;
  /** Called once a whole index read is in use: the one before it and what the read left behind are garbage now. */
  onRead(): void;
  /** Called when changes were applied without reading the catalogue again. */
  onApplied(applied: { revision: number; products: number; milliseconds: number }): void;
  onFailure(error: unknown, message: string): void;
}

/** A failed or empty read is tried again after this long, not on every request. */
const RETRY_AFTER_MS = 5_000;

/**
 * Keeps one index in use and current, with one source of news: `changed()`,
 * called for every catalogue change the database announces (LISTEN/NOTIFY)
 * and once after the announcements may have been missed (a reconnection).
 * Each time it reads what changed since the revision it holds and applies
 * just those products (index-changes.server.ts); when everything may have
 * changed, or too much, it reads the whole index again in the background
 * while the one it has goes on answering — never none once there was one.
 * While none was ever read, `current()` gives null and SQL answers.
 */
export function keepCatalogIndex(keeping: CatalogIndexKeeping) {
  let live: LiveIndex | null = null;
  let reading: Promise<void> | null = null;
  let applying: Promise<void> | null = null;
  /** A change was announced that is not applied yet. */
  let announced = false;
  /** Counts clear()s: a read or apply that began before one is not put in use. */
  let clears = 0;
  let retryAt = Number.NEGATIVE_INFINITY;
  let retryTimer: NodeJS.Timeout | undefined;

  const retryLater = () => {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(changed, RETRY_AFTER_MS);
    retryTimer.unref();
  };

  const readAgain = () => {
    if (reading || performance.now() < retryAt) return;
    const started = clears;
    const thisRead: Promise<void> = keeping
      .read()
      .then((read) => {
        if (started !== clears) return;
        // None to read: SQL answers, and it is asked again later, not per request.
        if (!read) {
          retryAt = performance.now() + RETRY_AFTER_MS;
          return;
        }
        live = LiveIndex.of(read);
        keeping.onReplaced();
        keeping.onRead();
      })
      .catch((error: unknown) => {
        if (started !== clears) return;
        // The index in use (if any) goes on answering; the read is tried again.
        retryAt = performance.now() + RETRY_AFTER_MS;
        keeping.onFailure(error, "catalogue index read failed");
        retryLater();
      })
      .finally(() => {
        if (reading === thisRead) reading = null;
        // What changed while it was read is caught up at once.
        if (started === clears && live) changed();
      });
    reading = thisRead;
  };

  /** Applies what changed since the index in use, until nothing announced is left. */
  const apply = async () => {
    while (announced && live && !reading) {
      announced = false;
      const from = live;
      const started = clears;
      const begun = performance.now();
      try {
        const changes = await keeping.changes(from.revision, MAX_CHANGES - from.changeCount);
        if (started !== clears || live !== from) continue;
        if (changes.everything) {
          readAgain();
        } else if (changes.revision > from.revision) {
          live = from.with(changes.ids, changes.rows, changes.revision);
          keeping.onReplaced();
          keeping.onApplied({
            revision: changes.revision,
            products: changes.ids.length,
            milliseconds: Math.round(performance.now() - begun),
          });
        }
      } catch (error) {
        keeping.onFailure(error, "catalogue changes could not be read; trying again");
        // Tried again by the timer, not at once: a database that keeps failing must not spin this loop.
        announced = false;
        retryLater();
        return;
      }
    }
  };

  function changed() {
    announced = true;
    if (!live) {
      readAgain();
      return;
    }
    if (applying) return;
    applying = apply().finally(() => {
      applying = null;
      // Announced while the last read of changes was under way: its products may be newer.
      if (announced && live && !reading) changed();
    });
  }

  return {
    /** The index to answer from, or null while SQL must answer (none read yet). */
    current(): LiveIndex | null {
      if (!live) readAgain();
      return live;
    },
    /** A change to the catalogue was announced (or may have been missed): apply it. */
    changed,
    /** Resolves once the read and the changes under way (if any) are done. */
    async ready(): Promise<void> {
      if (!live) readAgain();
      while (reading || applying) {
        await reading;
        await applying;
      }
    },
    /** Drops the index: SQL answers until a new one is read. */
    clear() {
      clears++;
      live = null;
      reading = null;
      applying = null;
      announced = false;
      retryAt = Number.NEGATIVE_INFINITY;
      clearTimeout(retryTimer);
    },
    /** The index in use, for benchmarks and logs. */
    peek: () => live,
  };
}
