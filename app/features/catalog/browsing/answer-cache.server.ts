import { LRUCache } from "lru-cache";
import { etagOf } from "~/utils/http.server";

/**
 * An answer as the catalogue hands it out: the value for pages, and its JSON
 * and ETag, computed once per answer, for the API (and for weighing it).
 */
export interface CatalogAnswer<T> {
  value: T;
  json: string;
  etag: string;
}

export function answer<T>(value: T): CatalogAnswer<T> {
  const json = JSON.stringify(value);
  return { value, json, etag: etagOf(json) };
}

/**
 * What an answer costs in memory: its JSON text plus the objects it was made
 * from, which take about as much again (measured by bench/memory.ts).
 */
function answerBytes(cached: CatalogAnswer<unknown>): number {
  return cached.json.length * 3 + 256;
}

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * When an answer is kept, by what made it:
 * - `database`: every answer the database made (a page or count while the
 *   index is read, a product page, the sitemap), for the cache's seconds —
 *   shoppers ask for the same pages, and a query costs milliseconds;
 * - `slow-index`: an answer of the in-memory index only when making it took
 *   `keepIndexAnswersFromMs` or more (a broad search on a large catalogue):
 *   most take well under a millisecond, less than the cache's bookkeeping for
 *   them (in the benchmark at 100k products the mixed API was faster with
 *   the cache off for them);
 * - `last-known`: kept as the `database` policy, and the last one read is
 *   given when a new read fails (the brands and categories' labels, so the
 *   filter panel still names its choices while the database is down).
 * Every key carries the search index's generation: answers made before the
 * catalogue changed are not found again (and expire on time).
 */
export type CachePolicy = "database" | "slow-index" | "last-known";

export interface AnswerCacheOptions {
  /** Seconds an answer is reused; 0 keeps none. */
  seconds: number;
  /** Memory the cached answers may take, in bytes (default 64 MiB). */
  maxBytes?: number;
  /** The `slow-index` policy's threshold (default 1 ms). */
  keepIndexAnswersFromMs?: number;
}

/**
 * The catalogue's one cache of answers, in memory: lru-cache bounds it by
 * bytes (least recently used answers go first, expired ones are released on
 * time) and lets concurrent requests for one answer share one read; a failed
 * read is not remembered.
 */
export function createAnswerCache(options: AnswerCacheOptions) {
  type Load = () => Promise<CatalogAnswer<unknown>>;
  const cache =
    options.seconds > 0
      ? new LRUCache<string, CatalogAnswer<unknown>, Load>({
          max: 50_000,
          maxSize: options.maxBytes ?? DEFAULT_CACHE_BYTES,
          sizeCalculation: answerBytes,
          ttl: options.seconds * 1000,
          // Expired answers are dropped on time, not when next asked for.
          ttlAutopurge: true,
          // Dropping an expired answer aborts a read of its successor already under way (lru-cache
          // then rejects it with "deleted": a 503 under load): let that read finish and answer.
          ignoreFetchAbort: true,
          // The process's clock, read when used (so a test's fake clock is honoured too).
          perf: { now: () => performance.now() },
          fetchMethod: (_key, _stale, { context }) => context(),
        })
      : undefined;
  const keepFromMs = options.keepIndexAnswersFromMs ?? 1;
  const lastKnown = new Map<string, CatalogAnswer<unknown>>();

  const fetched = async <T>(key: string, load: () => Promise<T>): Promise<CatalogAnswer<T>> => {
    const compute = async () => answer(await load());
    if (!cache) return compute();
    return (await cache.fetch(key, { context: compute })) as CatalogAnswer<T>;
  };

  return {
    /** The answer under `key` (with its generation), made by `load` when it is not kept, as `policy` says. */
    async remember<T>(
      policy: CachePolicy,
      key: string,
      generation: number,
      load: () => T | Promise<T>,
    ): Promise<CatalogAnswer<T>> {
      const keyed = `${generation}:${key}`;
      if (policy === "database") return fetched(keyed, async () => load());
      if (policy === "last-known") {
        try {
          const read = await fetched(keyed, async () => load());
          lastKnown.set(key, read);
          return read;
        } catch (error) {
          const known = lastKnown.get(key);
          if (known) return known as CatalogAnswer<T>;
          throw error;
        }
      }
      const kept = cache?.get(keyed);
      if (kept) return kept as CatalogAnswer<T>;
      const started = performance.now();
      const made = answer(await load());
      if (cache && performance.now() - started >= keepFromMs) cache.set(keyed, made);
      return made;
    },
    /** Forgets every kept answer (not the last-known ones: they stand in while reads fail). */
    clear: () => cache?.clear(),
    /** What the cache holds now, for tests and benchmarks. */
    usage: () => ({ entries: cache?.size ?? 0, bytes: cache?.calculatedSize ?? 0 }),
  };
}
