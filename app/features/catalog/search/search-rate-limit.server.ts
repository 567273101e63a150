import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { searchTerms } from "../core/search-words";

/**
 * How many catalogue calls that search one client may make: every
 * /suggestions and /facets call, and every other call or shop page that
 * carries a search. A search's own work is bounded (search-vocabulary.server.ts),
 * and this bounds how many one client sends: a shopper typing with
 * suggestions open sends a few a second, and a script sending a different
 * search each time (which no cache answers) is slowed to the same pace.
 *
 * Counted in this process's memory, on purpose: what it protects is this
 * process's CPU, and a count in Redis or PostgreSQL would cost every
 * catalogue answer (most take well under a millisecond) a round trip. Behind
 * a load balancer a client may make this many in each process.
 */
export interface SearchRateLimits {
  /** Calls per window. */
  points: number;
  /** The window, in seconds. */
  duration: number;
}

export const DEFAULT_SEARCH_RATE_LIMITS: Readonly<SearchRateLimits> = Object.freeze({
  points: 300,
  duration: 60,
});

type SearchAdmission =
  /** Go ahead; call `done` once the answer is read (it lets the next long search have its turn). */
  | { allowed: true; done: () => void }
  /** This client searched more than its share (429), or long searches are queued past LONG_SEARCHES_WAITING (503). */
  | { allowed: false; reason: "client" | "busy"; retryAfterSeconds: number };

export interface SearchRateLimit {
  /**
   * Counts one call from this client (its rate-limit key: an address, or an
   * IPv6 /64), before any work; a long search then waits for its turn.
   */
  admit(clientKey: string, search: string | undefined): Promise<SearchAdmission>;
}

/** What a refused search is answered: 429 past the client's share, 503 while long searches are queued full. */
export function searchRefusal({ reason, retryAfterSeconds }: Extract<SearchAdmission, { allowed: false }>) {
  const headers = { "Retry-After": String(retryAfterSeconds) };
  return reason === "busy"
    ? {
        status: 503,
        code: "searches_busy",
        message: `The shop is busy with long searches. Try fewer words, or again in ${retryAfterSeconds} seconds.`,
        headers,
      }
    : {
        status: 429,
        code: "rate_limited",
        message: `Too many searches. Try again in ${retryAfterSeconds} seconds.`,
        headers,
      };
}

/** A search of more words than this is a long one (shoppers type one to three). */
const LONG_SEARCH_WORDS = 3;

/**
 * The pace of long searches, however many are sent: at most a quarter of the
 * time they are measured to take, and at most 20 a second (a turn measures the
 * search's reading and matching, not the page rendered around it; at 20 a
 * second, a shop page's rendering of the costliest ones takes a fifth of the
 * process at most).
 */
const LONG_SEARCH_PACE: Pace = { share: 0.25, gapMs: 50, longestRestMs: 500 };

/** Long searches waiting for their turn past which another is refused as busy. */
const LONG_SEARCHES_WAITING = 16;

/** Seconds a refused long search is asked to wait. */
const BUSY_RETRY_SECONDS = 2;

const isLong = (search: string | undefined) =>
  search !== undefined && searchTerms(search).length > LONG_SEARCH_WORDS;

export function createSearchRateLimit(
  limits: SearchRateLimits = DEFAULT_SEARCH_RATE_LIMITS,
): SearchRateLimit {
  const limiter = new RateLimiterMemory({ keyPrefix: "catalog-search", ...limits });
  const longSearches = createTurns(LONG_SEARCH_PACE, LONG_SEARCHES_WAITING);
  const nothingToRelease = () => {};
  return {
    async admit(clientKey, search) {
      try {
        await limiter.consume(clientKey);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        const retryAfterSeconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
        return { allowed: false, reason: "client", retryAfterSeconds };
      }
      if (!isLong(search)) return { allowed: true, done: nothingToRelease };
      const done = await longSearches.take();
      return done
        ? { allowed: true, done }
        : { allowed: false, reason: "busy", retryAfterSeconds: BUSY_RETRY_SECONDS };
    },
  };
}

export interface Pace {
  /** The share of the time the work may take. */
  share: number;
  /** The least time between the starts of two turns. */
  gapMs: number;
  /**
   * The longest rest after a turn: a turn's time counts waits for the
   * database and for the event loop too, and one slow answer (a search SQL
   * answers while the index is read) must not hold the others for long.
   */
  longestRestMs: number;
}

/**
 * Turns for costly work, one at a time: after each, the next waits for
 * (1 / share − 1) times as long as it took (longestRestMs at most), and
 * starts `gapMs` after it started at the earliest, so together they take at
 * most `share` of the time their turns measure, however many are sent and
 * from however many addresses; the rest of the time answers everything
 * else. A search's work is bounded on its own (search-vocabulary.server.ts, postings.ts);
 * this bounds how much of it one process does in a second. Past `waiting`
 * waiting, `take` answers null at once: the caller refuses the work.
 */
export function createTurns({ share, gapMs, longestRestMs }: Pace, waiting: number) {
  const queue: (() => void)[] = [];
  let busy = false;
  let restUntil = 0;
  let resting: NodeJS.Timeout | null = null;
  const next = () => {
    if (busy || resting || queue.length === 0) return;
    const rest = restUntil - performance.now();
    if (rest > 0) {
      resting = setTimeout(() => {
        resting = null;
        next();
      }, rest);
      return;
    }
    busy = true;
    (queue.shift() as () => void)();
  };
  return {
    /** Resolves with `done` when it is this caller's turn; null when too many wait. */
    async take(): Promise<(() => void) | null> {
      if (queue.length >= waiting) return null;
      await new Promise<void>((resolve) => {
        queue.push(resolve);
        next();
      });
      const started = performance.now();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const now = performance.now();
        const rest = Math.min((now - started) * (1 / share - 1), longestRestMs);
        restUntil = Math.max(now + rest, started + gapMs);
        busy = false;
        next();
      };
    },
    /** How many wait for their turn. */
    get waiting() {
      return queue.length;
    },
  };
}
