import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createAuthRateLimiter, DEFAULT_RATE_LIMITS } from "./rate-limit.server";

const limits = {
  signUpPerAddress: { points: 3, duration: 60 },
  signUpPerAccount: { points: 2, duration: 60 },
  loginPerAddress: { points: 4, duration: 60 },
  loginFailuresPerAccount: { points: 2, duration: 120 },
  googlePerAddress: { points: 2, duration: 30 },
};

describe("default limits", () => {
  it("limit sign-up, login and the Google start per address, and logins per account", () => {
    expect(DEFAULT_RATE_LIMITS.signUpPerAddress.points).toBeLessThanOrEqual(20);
    expect(DEFAULT_RATE_LIMITS.loginFailuresPerAccount.points).toBeLessThanOrEqual(10);
    expect(DEFAULT_RATE_LIMITS.googlePerAddress.points).toBeLessThanOrEqual(60);
  });
});

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

  it("locks an account after repeated failed logins from any address, and a success clears it", async () => {
    const limiter = createAuthRateLimiter({ limits });
    expect((await limiter.login("192.0.2.1", "victim@example.com")).allowed).toBe(true);
    await limiter.loginFailed("victim@example.com");
    await limiter.loginFailed("victim@example.com");
    const locked = await limiter.login("192.0.2.99", "victim@example.com");
    expect(locked).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
    if (!locked.allowed) expect(locked.retryAfterSeconds).toBeGreaterThan(100);
    // Other accounts are unaffected.
    expect((await limiter.login("192.0.2.99", "other@example.com")).allowed).toBe(true);

    const other = createAuthRateLimiter({ limits });
    await other.loginFailed("someone@example.com");
    await other.loginSucceeded("someone@example.com");
    await other.loginFailed("someone@example.com");
    expect((await other.login("192.0.2.5", "someone@example.com")).allowed).toBe(true);
  });

  it("limits login attempts per address, whatever the accounts", async () => {
    const limiter = createAuthRateLimiter({ limits });
    for (let i = 0; i < 4; i++)
      expect((await limiter.login("192.0.2.7", `a${i}@example.com`)).allowed).toBe(true);
    expect((await limiter.login("192.0.2.7", "a9@example.com")).allowed).toBe(false);
  });
});

/**
 * Like the database tests: Redis joins when TEST_REDIS_URL is set (e.g.
 * redis://127.0.0.1:6379; .ci/run sets it), each run under its own key prefix.
 */
const redisServers = process.env.TEST_REDIS_URL ? [{ name: "Redis", url: process.env.TEST_REDIS_URL }] : [];

describe.each(redisServers)("auth rate limiter on $name", ({ url }) => {
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

  it("shares counters between processes", async () => {
    const keyPrefix = `backline-test:${randomBytes(6).toString("hex")}`;
    const first = createAuthRateLimiter({ redis: await connect(), limits, keyPrefix });
    const second = createAuthRateLimiter({ redis: await connect(), limits, keyPrefix });
    expect((await first.googleStart("203.0.113.50")).allowed).toBe(true);
    expect((await second.googleStart("203.0.113.50")).allowed).toBe(true);
    const refused = await first.googleStart("203.0.113.50");
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeLessThanOrEqual(30);

    await first.loginFailed("shared@example.com");
    await second.loginFailed("shared@example.com");
    expect((await second.login("203.0.113.51", "shared@example.com")).allowed).toBe(false);
  });

  it("falls back to counting in memory when Redis is unreachable", async () => {
    const unreachable = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    unreachable.on("error", () => {});
    const limiter = createAuthRateLimiter({ redis: unreachable, limits });
    expect((await limiter.googleStart("203.0.113.60")).allowed).toBe(true);
    expect((await limiter.googleStart("203.0.113.60")).allowed).toBe(true);
    expect((await limiter.googleStart("203.0.113.60")).allowed).toBe(false);
    unreachable.disconnect();
  });
});
