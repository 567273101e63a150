import type { drizzleAdapter } from "better-auth/adapters/drizzle";

const DAY = 60 * 60 * 24;
/** A session ends this long after its sign-in however active it stays (the sliding expiry is 7 days). */
export const SESSION_ABSOLUTE_LIFETIME_SECONDS = 30 * DAY;

type AdapterFactory = ReturnType<typeof drizzleAdapter>;
type Adapter = ReturnType<AdapterFactory>;
type TransactionAdapter = Parameters<Parameters<Adapter["transaction"]>[0]>[0];

/** Whether a session signed in at `createdAt` is past the absolute lifetime. */
export function pastAbsoluteLifetime(createdAt: Date | string, now = Date.now()): boolean {
  return now - new Date(createdAt).getTime() > SESSION_ABSOLUTE_LIFETIME_SECONDS * 1000;
}

/**
 * Better Auth's database adapter, made to report every session it reads as
 * expiring no later than 30 days after its sign-in. Better Auth checks a
 * session's expiry on every read (its getSession, the middleware of every
 * endpoint that needs a session, the OAuth callback, session lists) and
 * deletes and refuses an expired one: applying the absolute lifetime where
 * the row is read puts it on all of those paths at once, and on any that a
 * later version adds, instead of after each call the shop happens to make
 * (where a page rendered in parallel with the root's check slipped past it).
 */
export function withAbsoluteSessionLifetime(factory: AdapterFactory): AdapterFactory {
  return (options) => endSessionsAtAbsoluteLifetime(factory(options));
}

function endSessionsAtAbsoluteLifetime<T extends Adapter | TransactionAdapter>(adapter: T): T {
  // Changed in place: Better Auth keys what it knows of an adapter (its schema check) by the object.
  const { findOne, findMany } = adapter;
  adapter.findOne = (async (query: Parameters<Adapter["findOne"]>[0]) =>
    clamp(query.model, await findOne(query))) as Adapter["findOne"];
  adapter.findMany = (async (query: Parameters<Adapter["findMany"]>[0]) =>
    (await findMany(query)).map((row) => clamp(query.model, row))) as Adapter["findMany"];
  if ("transaction" in adapter) {
    const { transaction } = adapter as Adapter;
    (adapter as Adapter).transaction = (work) =>
      transaction((trx) => work(endSessionsAtAbsoluteLifetime(trx)));
  }
  return adapter;
}

/** A session row with its expiry brought forward to the end of its absolute lifetime. */
function clamp<Row>(model: string, row: Row): Row {
  if (model !== "session" || !row || typeof row !== "object") return row;
  const { createdAt, expiresAt } = row as { createdAt?: unknown; expiresAt?: unknown };
  if (!(createdAt instanceof Date) || !(expiresAt instanceof Date)) return row;
  const end = new Date(createdAt.getTime() + SESSION_ABSOLUTE_LIFETIME_SECONDS * 1000);
  return end < expiresAt ? { ...row, expiresAt: end } : row;
}
