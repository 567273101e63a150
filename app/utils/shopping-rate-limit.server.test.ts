import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { describeWhen, redisServer } from "../../tests/support/requirements";
import { createShoppingRateLimit } from "./shopping-rate-limit.server";

const limits = { cartChanges: 3, checkouts: 2, duration: 60 };
const aClient = () => `203.0.113.${randomBytes(1)[0]}-${randomBytes(4).toString("hex")}`;

describe("the shopping rate limit in one process", () => {
  it("counts cart changes and checkouts apart, and says when to come back", async () => {
    const limit = createShoppingRateLimit(limits);
    const client = aClient();
    for (let change = 0; change < 3; change++) expect(await limit.admit(client, "cart-change")).toBeNull();
    const refused = await limit.admit(client, "cart-change");
    expect(refused?.retryAfterSeconds).toBeGreaterThan(0);
    // Checkouts have their own share; another client has all of its own.
    expect(await limit.admit(client, "checkout")).toBeNull();
    expect(await limit.admit(aClient(), "cart-change")).toBeNull();
  });
});

describeWhen([redisServer], "the shopping rate limit on Redis", () => {
  const clients: Redis[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.quit()));
  });
  const connect = async () => {
    const client = new Redis(process.env.TEST_REDIS_URL ?? "", { maxRetriesPerRequest: 1 });
    clients.push(client);
    await client.ping();
    return client;
  };

  it("is one share across processes: two shops count one client's checkouts together", async () => {
    const first = createShoppingRateLimit(limits, { redis: await connect() });
    const second = createShoppingRateLimit(limits, { redis: await connect() });
    const client = aClient();
    expect(await first.admit(client, "checkout")).toBeNull();
    expect(await second.admit(client, "checkout")).toBeNull();
    expect(await first.admit(client, "checkout")).not.toBeNull();
    expect(await second.admit(client, "checkout")).not.toBeNull();
  });
});
