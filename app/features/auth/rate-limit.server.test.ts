import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { describeWhen, postgresServer, redisServer } from "../../../tests/support/requirements";
import { openPostgresTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { type AuthRateLimiter, createAuthRateLimiter, type LoginAttempt } from "./rate-limit.server";

const limits = {
  signUpPerAddress: { points: 3, duration: 60 },
  signUpPerAccount: { points: 2, duration: 60 },
  loginPerAddress: { points: 40, duration: 60 },
  loginPerAccountAndAddress: { points: 5, duration: 15 * 60 },
  loginPerAccountFromUnknownDevices: { points: 8, duration: 60 * 60 },
  loginPerKnownDevice: { points: 5, duration: 15 * 60 },
  googlePerAddress: { points: 2, duration: 30 },
};

/** A login attempt whose password turned out wrong: nothing is reported back. */
const fail = (limiter: AuthRateLimiter, address: string, email: string, device: string | null = null) =>
  limiter.login(address, email, device);

const allowed = (attempt: LoginAttempt) => attempt.allowed;

describe("auth rate limiter (in memory)", () => {
  it("refuses sign-ups over the per-address limit with the seconds to wait", async () => {
    const limiter = createAuthRateLimiter({ limits });
    for (let i = 0; i < 3; i++)
      expect(await limiter.signUp("203.0.113.1", `user${i}@example.com`)).toEqual({ allowed: true });
    const refused = await limiter.signUp("203.0.113.1", "user9@example.com");
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThan(50);
    expect(await limiter.signUp("203.0.113.2", "user10@example.com")).toEqual({ allowed: true });
  });

  it("refuses sign-ups for one email from many addresses", async () => {
    const limiter = createAuthRateLimiter({ limits });
    expect((await limiter.signUp("198.51.100.1", "Same@Example.com")).allowed).toBe(true);
    expect((await limiter.signUp("198.51.100.2", "same@example.com")).allowed).toBe(true);
    expect((await limiter.signUp("198.51.100.3", "same@example.com")).allowed).toBe(false);
  });

  it("counts IPv6 addresses of one /64 together", async () => {
    const limiter = createAuthRateLimiter({ limits });
    expect((await limiter.googleStart("2001:db8:1:2::1")).allowed).toBe(true);
    expect((await limiter.googleStart("2001:db8:1:2::ffff")).allowed).toBe(true);
    expect((await limiter.googleStart("2001:db8:1:2:aaaa::1")).allowed).toBe(false);
    expect((await limiter.googleStart("2001:db8:1:3::1")).allowed).toBe(true);
  });

  it("counts simultaneous login attempts before any password is checked: 30 at once, 5 get through", async () => {
    const limiter = createAuthRateLimiter({ limits });
    const attempts = await Promise.all(
      Array.from({ length: 30 }, () => fail(limiter, "192.0.2.10", "victim@example.com")),
    );
    expect(attempts.filter(allowed)).toHaveLength(5);
  });

  it("five failures lock that address out of the account for 15 minutes, never the owner elsewhere", async () => {
    const limiter = createAuthRateLimiter({ limits });
    for (let i = 0; i < 5; i++)
      expect(allowed(await fail(limiter, "192.0.2.1", "owner@example.com"))).toBe(true);
    const locked = await fail(limiter, "192.0.2.1", "owner@example.com");
    expect(locked).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
    if (!locked.allowed) expect(locked.retryAfterSeconds).toBeGreaterThan(14 * 60);
    // The owner, from their own address, is not locked out; nor is the guesser from other accounts.
    expect(allowed(await fail(limiter, "198.51.100.7", "owner@example.com"))).toBe(true);
    expect(allowed(await fail(limiter, "192.0.2.1", "someone-else@example.com"))).toBe(true);
  });

  it("a guesser with many addresses runs out of the account's budget; the owner's known device still gets in", async () => {
    const limiter = createAuthRateLimiter({ limits });
    for (let i = 0; i < 8; i++)
      expect(allowed(await fail(limiter, `203.0.113.${100 + i}`, "owner@example.com"))).toBe(true);
    expect(allowed(await fail(limiter, "203.0.113.200", "owner@example.com"))).toBe(false);
    // A browser that signed in to the account before (device cookie) is limited on its own.
    const fromKnownDevice = await limiter.login("198.51.100.7", "owner@example.com", "device-1");
    expect(allowed(fromKnownDevice)).toBe(true);
  });

  it("a guesser at one address, refused after five tries, leaves the account's budget for everyone else", async () => {
    const limiter = createAuthRateLimiter({ limits });
    for (let i = 0; i < 40; i++) await fail(limiter, "192.0.2.66", "owner@example.com");
    expect(allowed(await fail(limiter, "192.0.2.66", "owner@example.com"))).toBe(false);
    // The owner on a new device, elsewhere, is not locked out by that one address.
    expect(allowed(await fail(limiter, "198.51.100.20", "owner@example.com"))).toBe(true);
  });

  it("a known device is limited too, and a success clears its failures", async () => {
    const limiter = createAuthRateLimiter({ limits });
    for (let i = 0; i < 5; i++) await fail(limiter, "198.51.100.8", "owner@example.com", "device-2");
    expect(allowed(await fail(limiter, "198.51.100.8", "owner@example.com", "device-2"))).toBe(false);

    const other = createAuthRateLimiter({
      limits: { ...limits, loginPerAccountFromUnknownDevices: { points: 100, duration: 60 * 60 } },
    });
    for (let i = 0; i < 4; i++) await fail(other, "198.51.100.9", "owner@example.com");
    const success = await other.login("198.51.100.9", "owner@example.com", null);
    if (!success.allowed) throw new Error("the fifth attempt should be allowed");
    await success.succeeded();
    for (let i = 0; i < 5; i++)
      expect(allowed(await fail(other, "198.51.100.9", "owner@example.com"))).toBe(true);
  });

  it("limits login attempts per address, whatever the accounts", async () => {
    const limiter = createAuthRateLimiter({
      limits: { ...limits, loginPerAddress: { points: 4, duration: 60 } },
    });
    for (let i = 0; i < 4; i++)
      expect(allowed(await fail(limiter, "192.0.2.7", `a${i}@example.com`))).toBe(true);
    expect(allowed(await fail(limiter, "192.0.2.7", "a9@example.com"))).toBe(false);
  });

  it("keeps counters in memory without Redis or PostgreSQL", () => {
    expect(createAuthRateLimiter({ limits }).store).toBe("memory");
  });
});

/** Two shop processes' limiters on one store: what one counts, the other sees. */
function sharesCounters(makeLimiter: () => Promise<AuthRateLimiter>) {
  return async () => {
    const first = await makeLimiter();
    const second = await makeLimiter();
    expect((await first.googleStart("203.0.113.50")).allowed).toBe(true);
    expect((await second.googleStart("203.0.113.50")).allowed).toBe(true);
    const refused = await first.googleStart("203.0.113.50");
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeLessThanOrEqual(30);

    // Ten simultaneous guesses split over both processes: still only five are checked.
    const attempts = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        fail(i % 2 ? first : second, "203.0.113.51", "shared@example.com"),
      ),
    );
    expect(attempts.filter(allowed)).toHaveLength(5);
  };
}

describeWhen([redisServer], "auth rate limiter on Redis", () => {
  const url = process.env.TEST_REDIS_URL ?? "";
  const clients: Redis[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.quit()));
  });
  const connect = async () => {
    const client = new Redis(url, { maxRetriesPerRequest: 1 });
    clients.push(client);
    await client.ping();
    return client;
  };
  const keyPrefix = `backline-test:${randomBytes(6).toString("hex")}`;

  it(
    "shares counters between processes",
    sharesCounters(async () => createAuthRateLimiter({ redis: await connect(), limits, keyPrefix })),
  );

  it("falls back to counting in memory when Redis is unreachable", async () => {
    const unreachable = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    unreachable.on("error", () => {});
    const limiter = createAuthRateLimiter({ redis: unreachable, limits });
    expect(limiter.store).toBe("redis");
    expect((await limiter.googleStart("203.0.113.60")).allowed).toBe(true);
    expect((await limiter.googleStart("203.0.113.60")).allowed).toBe(true);
    expect((await limiter.googleStart("203.0.113.60")).allowed).toBe(false);
    unreachable.disconnect();
  });
});

describeWhen([postgresServer], "auth rate limiter on PostgreSQL (no Redis)", () => {
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.close();
  });

  it(
    "shares counters between processes through the database",
    sharesCounters(async () => {
      database ??= await openPostgresTestDatabase(process.env.TEST_DATABASE_URL ?? "");
      const limiter = createAuthRateLimiter({ postgres: database.handle.pool, limits });
      expect(limiter.store).toBe("postgres");
      return limiter;
    }),
  );
});
