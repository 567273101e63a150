import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "~/utils/logger.server";
import { describeWhen, postgresServer } from "../../tests/support/requirements";
import { isTransientFailure, openDatabase } from "./client.server";

/**
 * The PostgreSQL pool's outage bookkeeping, with pg's own query replaced: what the log says
 * when the server goes away and comes back. (The real outages run in tests/integration/faults.test.ts.)
 */
describe("the PostgreSQL pool through an outage", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  function deferred<T>() {
    let resolve!: (value: T) => void;
    const promise = new Promise<T>((done) => {
      resolve = done;
    });
    return { promise, resolve };
  }

  it("does not take a late answer to a query sent before the failure as the database coming back", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const answers = [
      deferred<unknown>(), // in flight when the server shuts down, answered just after
      { promise: Promise.reject(Object.assign(new Error("terminating connection"), { code: "57P01" })) },
      deferred<unknown>(), // sent once the retry interval is over: the server is back
    ];
    for (const answer of answers) answer.promise.catch(() => {});
    let sent = 0;
    vi.spyOn(pg.Pool.prototype, "query").mockImplementation((() => answers[sent++]?.promise) as never);
    const warnings = vi.spyOn(logger, "warn").mockImplementation(() => {});
    const infos = vi.spyOn(logger, "info").mockImplementation(() => {});
    const { pool, close } = await openDatabase({ databaseUrl: "postgres://nobody@127.0.0.1:1/none" });
    try {
      const inFlight = pool?.query("select 1");
      await expect(pool?.query("select 1")).rejects.toMatchObject({ code: "57P01" });
      expect(warnings).toHaveBeenCalledWith(expect.anything(), expect.stringMatching(/not answering/));

      (answers[0] as ReturnType<typeof deferred>).resolve({ rows: [] });
      await inFlight;
      expect(infos).not.toHaveBeenCalledWith("PostgreSQL answers again");
      // Until the retry interval is over, queries fail at once without reaching the server.
      await expect(pool?.query("select 1")).rejects.toThrow(/not answering/);
      expect(sent).toBe(2);

      vi.setSystemTime(Date.now() + 2_001);
      const retried = pool?.query("select 1");
      (answers[2] as ReturnType<typeof deferred>).resolve({ rows: [] });
      await retried;
      expect(infos).toHaveBeenCalledWith("PostgreSQL answers again");
    } finally {
      await close();
    }
  });
});

/**
 * What the HTTP layer answers 503 (try again) instead of 500: the database
 * refusing work for now, seen in PostgreSQL's own errors, not the request
 * being wrong.
 */
describeWhen([postgresServer], "the database busy or down, told from a wrong request", () => {
  const url = process.env.TEST_DATABASE_URL as string;

  it("keeps a query waiting for a client of a full pool past the connect timeout, and never calls PostgreSQL down for it", async () => {
    const warnings = vi.spyOn(logger, "warn");
    const { pool, close } = await openDatabase({ databaseUrl: url, poolSize: 1 });
    if (!pool) throw new Error("a PostgreSQL database has a pool");
    const held = await pool.connect();
    try {
      // pg-pool's own timer: it gives up on its queue after the connect timeout (3 s).
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const waiting = pool.query("select 2 as answer");
      await vi.advanceTimersByTimeAsync(3_500);
      held.release();
      await expect(waiting).resolves.toMatchObject({ rows: [{ answer: 2 }] });
      await expect(pool.query("select 3 as answer")).resolves.toMatchObject({ rows: [{ answer: 3 }] });
      expect(warnings).not.toHaveBeenCalledWith(expect.anything(), expect.stringMatching(/not answering/));
      // Still a failure of the moment (503) when the wait runs out for good, never a request's own fault.
      expect(isTransientFailure(new Error("timeout exceeded when trying to connect"))).toBe(true);
    } finally {
      vi.useRealTimers();
      vi.restoreAllMocks();
      await close();
    }
  });

  it("counts PostgreSQL refusing another connection, drizzle's wrapping and all, but not a broken rule", async () => {
    // A role of the test's own allowed one connection: the second is refused with 53300. It has a
    // password, for servers that ask one over TCP (the limit is checked once the login succeeded).
    const role = `busy_${randomBytes(4).toString("hex")}`;
    const password = randomBytes(12).toString("hex");
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create role ${role} login password '${password}' connection limit 1`);
    const asRole = (client: string) => {
      const address = new URL(client);
      address.username = role;
      address.password = password;
      return new pg.Client({ connectionString: address.toString() });
    };
    const first = asRole(url);
    const second = asRole(url);
    try {
      await first.connect();
      const refused = await second.connect().then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toMatchObject({ code: "53300" });
      expect(isTransientFailure(refused)).toBe(true);
      expect(isTransientFailure(new Error("Failed query: select 1", { cause: refused }))).toBe(true);

      const broken = await admin.query("select 1/0").catch((error: unknown) => error);
      expect(broken).toMatchObject({ code: "22012" });
      expect(isTransientFailure(broken)).toBe(false);
      expect(isTransientFailure(new Error("Failed query", { cause: broken }))).toBe(false);
    } finally {
      await first.end().catch(() => {});
      await second.end().catch(() => {});
      await admin.query(`drop role ${role}`);
      await admin.end();
    }
  });
});
