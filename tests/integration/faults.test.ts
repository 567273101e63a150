import { randomBytes } from "node:crypto";
import { EventEmitter, once } from "node:events";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CookieClient, logIn, STRONG_PASSWORD, signUp } from "../support/http-client";
import { createPrivatePostgres, createPrivateRedis, type PrivatePostgres } from "../support/private-servers";
import { describeWhen, privatePostgres, privateRedis } from "../support/requirements";
import { type ShopProcess, spawnShopProcess, startShopProcess } from "../support/shop-process";
import { expectWithinBudget } from "../support/time-budget";

/**
 * Each test starts shop processes and servers of its own and waits on what they
 * do (no fixed waits): on a loaded two-core machine that took up to 30 s.
 */
const PROCESS_TESTS = { timeout: 90_000 };

/**
 * The time limits these tests keep, because there the limit is the behaviour (a frozen database
 * fails a request in seconds instead of hanging it): each is the shop's own timeout with room for a
 * loaded two-core machine, and each run prints the time taken (tests/support/time-budget.ts).
 */
const BUDGET_MS = {
  /** PostgreSQL back: a request tries it again 2 s after a failure (FailFastPool) and it answers. */
  recovery: 5_000,
  /** /healthz while PostgreSQL is frozen: its ping gives up after 2 s. */
  frozenHealth: 4_000,
  /** The first request that needs a frozen PostgreSQL waits out one of its timeouts (3 s to connect, 6 s a query). */
  frozenFirstRequest: 9_000,
  /** The requests after it fail at once, or fall back, while PostgreSQL stays frozen. */
  frozenLater: 3_000,
  /** SIGTERM while PostgreSQL is frozen: closing its connections gives up after 3 s. */
  frozenShutdown: 10_000,
  /**
   * What a frozen Redis may add to a login: its commands give up after 0.5 s, and within one
   * watchdog round (1 s) plus that the client is marked down, so the limiter counts per process
   * at once. Added to the slowest login measured with Redis answering (password hashing is most of
   * a login's time, and it is what a loaded machine slows), with 0.5 s of room.
   */
  frozenRedisLoginExtra: 2_000,
  /** SIGTERM while Redis is frozen: closing the connection gives up after 1 s. */
  frozenRedisShutdown: 5_000,
};

/**
 * What the shop does when the services under it fail, measured against
 * PostgreSQL and Redis servers of the test's own (started, crashed, frozen and
 * restarted here; the machine's shared servers are never touched).
 */

const STACK_TRACE = /\n\s+at .+[(:]\d+|node_modules\//;

/** A client address of its own for each request, so per-address limits never get in the way. */
const someAddress = () =>
  `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + ((randomBytes(1)[0] ?? 0) % 250)}`;

interface Answer {
  at: number;
  status: number;
  body: string;
}

/** Requests a shopper and an API client would send, until told to stop; every answer is kept. */
function shopTraffic(url: string) {
  const signUps: { email: string; status: number }[] = [];
  const answers: Answer[] = [];
  const answered = new EventEmitter();
  let running = true;
  const request = async (path: string, init?: RequestInit) => {
    try {
      const response = await fetch(`${url}${path}`, {
        ...init,
        redirect: "manual",
        signal: AbortSignal.timeout(15_000),
      });
      answers.push({ at: Date.now(), status: response.status, body: await response.text() });
      answered.emit("answer");
      return response.status;
    } catch {
      answers.push({ at: Date.now(), status: 0, body: "" });
      answered.emit("answer");
      return 0;
    }
  };
  const signUpLoop = async () => {
    while (running) {
      const email = `shopper-${randomBytes(6).toString("hex")}@example.com`;
      const status = await request("/sign-up", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": someAddress() },
        body: new URLSearchParams({
          name: "Shopper",
          email,
          photo: "https://example.com/p.png",
          password: STRONG_PASSWORD,
        }),
      });
      signUps.push({ email, status });
      answered.emit("answer");
    }
  };
  const browseLoop = async () => {
    while (running) {
      // A fresh search each time, so the catalogue cache cannot answer for the database.
      const headers = { "X-Forwarded-For": someAddress() };
      await request(`/all-products?search=${randomBytes(3).toString("hex")}`, { headers });
      await request(`/?page=${1 + ((randomBytes(1)[0] ?? 0) % 13)}`, { headers });
    }
  };
  const loops = [signUpLoop(), signUpLoop(), browseLoop()];
  return {
    signUps,
    answers,
    /** Resolves once `condition` holds, looked at again after every answer. */
    async until(condition: () => boolean) {
      while (!condition()) await once(answered, "answer");
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function healthStatus(url: string): Promise<number> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) })).status;
  } catch {
    return 0;
  }
}

/** The shop's current catalogue revision, which its log names when its search index reaches it. */
async function catalogRevision(database: PrivatePostgres): Promise<string> {
  const [row] = await database.query<{ revision: string }>("select revision::text from catalog_revisions");
  return row?.revision ?? "0";
}

/** Every sign-up that was answered with success is there exactly once, with its password; no user lacks one. */
async function expectSignUpsIntact(database: PrivatePostgres, signUps: { email: string; status: number }[]) {
  const acknowledged = signUps.filter((signUp) => signUp.status === 302).map((signUp) => signUp.email);
  expect(acknowledged.length).toBeGreaterThan(0);
  const rows = await database.query<{ email: string; passwords: string }>(
    `select u.email, count(a.id)::text as passwords from users u
     left join accounts a on a.user_id = u.id and a.provider_id = 'credential' and a.password is not null
     where u.email = any($1) group by u.email`,
    [acknowledged],
  );
  expect(rows).toHaveLength(acknowledged.length);
  expect(rows.every((row) => row.passwords === "1")).toBe(true);
  // The demo buyers (docs/decisions/0033) have no password by design: nobody signs in as them.
  const withoutPassword = await database.query(
    `select u.id from users u where not exists (select 1 from accounts a where a.user_id = u.id)
       and u.email not like '%@backline.invalid'`,
  );
  expect(withoutPassword).toEqual([]);
}

describeWhen(
  [privatePostgres],
  "PostgreSQL failures",
  () => {
    let database: PrivatePostgres;
    let shop: ShopProcess;

    beforeAll(async () => {
      database = await createPrivatePostgres();
    });
    afterAll(async () => {
      await shop?.stop();
      await database?.destroy();
    });

    it("starts after PostgreSQL when it comes up late, saying in one line what it waits for", async () => {
      // At info level the shop also says when PostgreSQL answers again, which the tests below wait for.
      const waiting = await spawnShopProcess({
        DATABASE_URL: database.url,
        TRUST_PROXY: "1",
        LOG_LEVEL: "info",
      });
      shop = waiting;
      const line = await waiting.waitForOutput(/PostgreSQL at 127\.0\.0\.1:\d+\/postgres is not reachable/);
      expect(line).toContain("ECONNREFUSED");
      expect(line).toContain("trying again in");
      await database.start();
      await waiting.ready();
      expect(waiting.output()).not.toMatch(STACK_TRACE);
    });

    it.each([
      ["restarted", () => database.stop()],
      ["killed with -9", () => database.crash()],
    ])(
      "when PostgreSQL is %s under traffic, /healthz answers 503, no page shows a stack trace, the shop recovers by itself within 5 s, and acknowledged sign-ups are kept exactly once",
      async (_how, takeDown) => {
        const traffic = shopTraffic(shop.url);
        // Let some sign-ups through before the fault.
        await traffic.until(() => traffic.signUps.filter((signUp) => signUp.status === 302).length >= 3);
        const before = shop.output().length;
        await takeDown();
        await shop.waitForOutput(/PostgreSQL is not answering/, 30_000, before);
        expect(await healthStatus(shop.url)).toBe(503);
        const down = await fetch(`${shop.url}/?search=offline`);
        expect(down.status).toBe(503);
        expect(await down.text()).toContain("We couldn&#x27;t load the products");

        const outage = shop.output().length;
        await database.start();
        const back = performance.now();
        await shop.waitForOutput(/PostgreSQL answers again/, 30_000, outage);
        expectWithinBudget(
          "the shop answering again after PostgreSQL came back",
          performance.now() - back,
          BUDGET_MS.recovery,
        );
        expect(await healthStatus(shop.url)).toBe(200);
        // Traffic after recovery succeeds again.
        const recovered = traffic.answers.length;
        await traffic.until(
          () => traffic.answers.slice(recovered).filter((answer) => answer.status < 400).length >= 10,
        );
        await traffic.stop();

        const statuses = new Set(traffic.answers.map((answer) => answer.status));
        expect([...statuses].filter((status) => status >= 500 && status !== 503)).toEqual([]);
        expect(traffic.answers.filter((answer) => STACK_TRACE.test(answer.body))).toEqual([]);
        await expectSignUpsIntact(database, traffic.signUps);
        // A sign-up that failed left nothing behind: the same email signs up now, or exists complete.
        const failed = traffic.signUps.filter((signUp) => signUp.status !== 302).slice(0, 5);
        for (const { email } of failed) {
          const retry = await signUp(new CookieClient(), shop.url, email, {
            "X-Forwarded-For": someAddress(),
          });
          expect([302, 409]).toContain(retry.status);
        }
      },
    );

    it("after PostgreSQL restarts, the shop listens for catalogue changes again and shows one once its index has it", async () => {
      // A shop of its own that keeps answers an hour (only a notification makes it forget them),
      // and says at info level when it listens again.
      const listener = await spawnShopProcess({
        DATABASE_URL: database.url,
        CATALOG_CACHE_SECONDS: "3600",
        LOG_LEVEL: "info",
      });
      await listener.ready();
      try {
        await database.stop();
        await database.start();
        await listener.waitForOutput(/listening for catalogue changes again/);
        // And answers again (/healthz 200: the database answers it), before the question is asked.
        await listener.ready();
        const counted = async () => {
          const response = await fetch(`${listener.url}/counts?search=zanzibarlamp`);
          const body = await response.text();
          expect(response.status, body).toBe(200);
          return (JSON.parse(body) as { count: number }).count;
        };
        expect(await counted()).toBe(0);
        const before = listener.output().length;
        await database.query(
          "update products set name = 'Zanzibarlamp' where id = (select min(id) from products)",
        );
        // How soon after the commit is measured by `npm run bench -- index-changes`; here, that it comes.
        const revision = await catalogRevision(database);
        await listener.waitForOutput(
          new RegExp(`^(?=.*"revision":${revision}[,}])(?=.*catalogue changes applied to the index)`),
          30_000,
          before,
        );
        expect(await counted()).toBe(1);
      } finally {
        await listener.stop();
      }
    });

    it("a frozen PostgreSQL: requests fail within seconds instead of hanging, /healthz says 503, and shutdown stays bounded", async () => {
      const client = new CookieClient();
      const email = `frozen-${randomBytes(4).toString("hex")}@example.com`;
      expect((await signUp(client, shop.url, email, { "X-Forwarded-For": someAddress() })).status).toBe(302);
      database.freeze();
      try {
        const timed = async (what: string, budgetMs: number, work: () => Promise<Response>) => {
          const started = performance.now();
          const response = await work();
          await response.body?.cancel();
          expectWithinBudget(what, performance.now() - started, budgetMs);
          return response.status;
        };
        const health = await timed("/healthz, PostgreSQL frozen", BUDGET_MS.frozenHealth, () =>
          fetch(`${shop.url}/healthz`),
        );
        expect(health).toBe(503);
        // The first request that needs the database waits out one query timeout…
        const first = await timed("the first search, PostgreSQL frozen", BUDGET_MS.frozenFirstRequest, () =>
          fetch(`${shop.url}/all-products?search=frozen`),
        );
        expect(first).toBe(503);
        // …and the ones after it fail at once, or fall back, while the database stays frozen.
        const login = await timed("a login after it", BUDGET_MS.frozenLater, () =>
          logIn(new CookieClient(), shop.url, email, STRONG_PASSWORD, { "X-Forwarded-For": someAddress() }),
        );
        expect(login).toBe(503);
        const search = await timed("a search after it", BUDGET_MS.frozenLater, () =>
          fetch(`${shop.url}/all-products?search=still-frozen`),
        );
        expect(search).toBe(503);
        // A shopper's cart change and a product's page (its reviews are read): 503 with Retry-After, the
        // API's error body, never a 500 (nothing is wrong with the request; sent again, it works).
        const cartChange = await fetch(`${shop.url}/api/cart/lines`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Forwarded-For": someAddress() },
          body: JSON.stringify({ productId: 1, quantity: 1 }),
        });
        expect(cartChange.status).toBe(503);
        expect(cartChange.headers.get("retry-after")).toBe("5");
        expect(await cartChange.json()).toEqual({
          error: { code: "unavailable", message: expect.stringContaining("Try again in a few seconds") },
        });
        const productPage = await fetch(`${shop.url}/products/1`, {
          headers: { "X-Forwarded-For": someAddress() },
        });
        expect(productPage.status).toBe(503);
        expect(await productPage.text()).not.toMatch(STACK_TRACE);

        const stopping = performance.now();
        shop.kill("SIGTERM");
        expect(await shop.exited).toBe(0);
        expectWithinBudget(
          "shutdown, PostgreSQL frozen",
          performance.now() - stopping,
          BUDGET_MS.frozenShutdown,
        );
      } finally {
        database.thaw();
      }
    });
  },
  PROCESS_TESTS,
);

describeWhen(
  [privatePostgres],
  "PostgreSQL down when the shop starts",
  () => {
    it("refuses a database that does not exist at once, naming DATABASE_URL, without a stack trace", async () => {
      const database = await createPrivatePostgres();
      try {
        await database.start();
        const url = database.url.replace(/\/postgres$/, "/no_such_shop");
        const shop = await spawnShopProcess({ DATABASE_URL: url });
        expect(await shop.exited).toBe(1);
        expect(shop.output()).toMatch(
          /Backline could not start: PostgreSQL at 127\.0\.0\.1:\d+\/no_such_shop refused the connection: .*no_such_shop.* does not exist.*Check DATABASE_URL/,
        );
        expect(shop.output()).not.toMatch(STACK_TRACE);
      } finally {
        await database.destroy();
      }
    });
  },
  PROCESS_TESTS,
);

describeWhen(
  [privateRedis],
  "Redis failures (REDIS_URL set)",
  () => {
    it("a frozen Redis does not hold up logins, and shutdown stays bounded", async () => {
      const redis = await createPrivateRedis();
      await redis.start();
      const shop = await startShopProcess({ REDIS_URL: redis.url, TRUST_PROXY: "1" });
      try {
        const email = `redis-${randomBytes(4).toString("hex")}@example.com`;
        expect(
          (await signUp(new CookieClient(), shop.url, email, { "X-Forwarded-For": someAddress() })).status,
        ).toBe(302);
        const timedLogin = async () => {
          const started = performance.now();
          const response = await logIn(new CookieClient(), shop.url, email, STRONG_PASSWORD, {
            "X-Forwarded-For": someAddress(),
          });
          expect(response.status).toBe(302);
          return performance.now() - started;
        };
        let slowestAnswered = 0;
        for (let attempt = 0; attempt < 2; attempt++)
          slowestAnswered = Math.max(slowestAnswered, await timedLogin());
        console.info(`the slowest login, Redis answering: ${Math.round(slowestAnswered)} ms`);
        redis.freeze();
        for (let attempt = 0; attempt < 5; attempt++) {
          expectWithinBudget(
            "a login, Redis frozen",
            await timedLogin(),
            Math.round(slowestAnswered) + BUDGET_MS.frozenRedisLoginExtra,
          );
        }
        await shop.waitForOutput(/Redis is unavailable; rate limits are counted per process/);
        const stopping = performance.now();
        expect(await shop.stop()).toBe(0);
        expectWithinBudget(
          "shutdown, Redis frozen",
          performance.now() - stopping,
          BUDGET_MS.frozenRedisShutdown,
        );
      } finally {
        redis.thaw();
        await shop.stop();
        await redis.destroy();
      }
    });

    it("Redis stopped and restarted under traffic: no 5xx, the outage logged once at warn, and counting in Redis again once it is back", async () => {
      const redis = await createPrivateRedis();
      await redis.start();
      const shop = await startShopProcess({ REDIS_URL: redis.url, TRUST_PROXY: "1", LOG_LEVEL: "info" });
      const statuses: number[] = [];
      const answered = new EventEmitter();
      let running = true;
      const logins = (async () => {
        while (running) {
          // Wrong passwords: every attempt is counted by the rate limiter, in Redis when it is there.
          const response = await logIn(new CookieClient(), shop.url, "nobody@example.com", "Wr0ng!Pass", {
            "X-Forwarded-For": someAddress(),
          });
          statuses.push(response.status);
          answered.emit("answer");
        }
      })();
      try {
        const after = async (count: number) => {
          const target = statuses.length + count;
          while (statuses.length < target) await once(answered, "answer");
        };
        await after(5);
        await redis.stop();
        await after(10);
        await redis.start();
        await shop.waitForOutput(/Redis is back/);
        await after(5);
        running = false;
        await logins;
        expect(statuses.filter((status) => status >= 500)).toEqual([]);
        // The restarted Redis kept nothing: counters in it now were written after it came back.
        const client = new Redis(redis.url);
        try {
          expect((await client.keys("backline:rl:*")).length).toBeGreaterThan(0);
        } finally {
          client.disconnect();
        }
        const outages = shop
          .output()
          .split("\n")
          .filter((line) => line.includes("Redis is unavailable"));
        expect(outages).toHaveLength(1);
        expect(JSON.parse(outages[0] ?? "{}").level).toBe(40);
      } finally {
        running = false;
        await logins;
        await shop.stop();
        await redis.destroy();
      }
    });
  },
  PROCESS_TESTS,
);
