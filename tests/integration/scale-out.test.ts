import { randomBytes } from "node:crypto";
import { EventEmitter, once } from "node:events";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type LoadBalancer, startLoadBalancer } from "../support/haproxy";
import { CookieClient, continueWithGoogle, logIn, signedInEmail, signUp } from "../support/http-client";
import { describeWhen, haproxy, postgresServer, redisServer } from "../support/requirements";
import { freePort, type ShopProcess, startShopProcess } from "../support/shop-process";
import { createScratchPostgres, type ScratchPostgres } from "../support/test-database";

/**
 * Backline behind a load balancer: three processes on one PostgreSQL (and
 * Redis), behind Debian's HAProxy, round-robin, as an operator would run it.
 * Nothing about a visitor may depend on which process answers.
 */

const someAddress = () =>
  `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + ((randomBytes(1)[0] ?? 0) % 250)}`;
const newEmail = (label: string) => `${label}-${randomBytes(5).toString("hex")}@example.com`;
const servedBy = (response: Response) => response.headers.get("X-Backend-Server") ?? "?";

describeWhen([postgresServer, redisServer, haproxy], "three shop processes behind HAProxy", () => {
  let database: ScratchPostgres;
  let balancer: LoadBalancer;
  const shops: ShopProcess[] = [];

  beforeAll(async () => {
    database = await createScratchPostgres();
    const balancerPort = await freePort();
    const baseUrl = `http://127.0.0.1:${balancerPort}`;
    // All three start at once on an empty database: migrations, the demo catalogue and the
    // generated session secret must each happen once.
    const started = await Promise.all(
      [1, 2, 3].map(async () => {
        const port = await freePort();
        const shop = await startShopProcess({
          PORT: String(port),
          BASE_URL: baseUrl,
          DATABASE_URL: database.url,
          REDIS_URL: process.env.TEST_REDIS_URL,
          // The test stands for a proxy in front of HAProxy: the X-Forwarded-For it sends is the
          // shopper's address, and HAProxy appends its own view (always 127.0.0.1 here). Each
          // test thus has addresses of its own in the shared Redis, run after run.
          TRUST_PROXY: "2",
          DEMO_IDENTITY_PROVIDER: "1",
        });
        return { port, shop };
      }),
    );
    shops.push(...started.map(({ shop }) => shop));
    balancer = await startLoadBalancer(
      balancerPort,
      started.map(({ port }) => port),
    );
  });

  afterAll(async () => {
    await balancer?.stop();
    await Promise.all(shops.map((shop) => shop.stop()));
    await database?.drop();
  });

  it("a shopper who signs up is signed in on every process for the next 20 requests", async () => {
    const client = new CookieClient();
    const email = newEmail("everywhere");
    expect((await signUp(client, balancer.url, email, { "X-Forwarded-For": someAddress() })).status).toBe(
      302,
    );
    const seen: string[] = [];
    const backends = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const response = await client.fetch(`${balancer.url}/_.data`);
      backends.add(servedBy(response));
      const text = await response.text();
      seen.push(/"email","([^"]+)"/.exec(text)?.[1] ?? "signed out");
    }
    expect(seen).toEqual(Array(20).fill(email));
    expect(backends).toEqual(new Set(["shop1", "shop2", "shop3"]));
  });

  it("a login rate limit counts across processes", async () => {
    const email = newEmail("guarded");
    const address = someAddress();
    expect(
      (await signUp(new CookieClient(), balancer.url, email, { "X-Forwarded-For": someAddress() })).status,
    ).toBe(302);
    const answers: { status: number; backend: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await logIn(new CookieClient(), balancer.url, email, "Wr0ng!Pass1", {
        "X-Forwarded-For": address,
      });
      answers.push({ status: response.status, backend: servedBy(response) });
    }
    // Five wrong passwords spread over the three processes; each alone has seen at most two.
    expect(new Set(answers.slice(0, 5).map((answer) => answer.backend)).size).toBe(3);
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("'Continue with Google' through the demo provider works when its steps land on different processes", async () => {
    const client = new CookieClient();
    const email = newEmail("google");
    const backends = new Set<string>();
    const original = client.fetch.bind(client);
    client.fetch = async (url, init) => {
      const response = await original(url, init);
      backends.add(servedBy(response));
      return response;
    };
    const { url } = await continueWithGoogle(
      client,
      balancer.url,
      { email, name: "Spread Out" },
      { "X-Forwarded-For": someAddress() },
    );
    expect(new URL(url).pathname).toBe("/");
    expect(backends.size).toBeGreaterThan(1);
    expect(await signedInEmail(client, balancer.url)).toBe(email);
  });

  /**
   * Shoppers browsing through the balancer, each one GET after another, until stopped; every
   * answer is kept. `answered(n)` resolves once n more have come back.
   */
  function browsing(shoppers: number) {
    const answers: { status: number; backend: string; error?: string; cut?: boolean }[] = [];
    const arrivals = new EventEmitter();
    let running = true;
    const browse = async () => {
      while (running) {
        const path = `/all-products?page=${1 + ((randomBytes(1)[0] ?? 0) % 13)}`;
        let response: Response | undefined;
        try {
          response = await fetch(`${balancer.url}${path}`);
          await response.arrayBuffer();
          answers.push({ status: response.status, backend: servedBy(response) });
        } catch (error) {
          const message =
            error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error);
          // Its status and headers had come when the body broke off: an answer its shop had begun
          // when it died, which no balancer can take back and send again.
          answers.push(
            response
              ? { status: response.status, backend: servedBy(response), error: message, cut: true }
              : { status: 0, backend: "?", error: message },
          );
        }
        arrivals.emit("answer");
      }
    };
    const shoppersDone = Array.from({ length: shoppers }, browse);
    return {
      answers,
      async answered(more: number) {
        const target = answers.length + more;
        while (answers.length < target) await once(arrivals, "answer");
      },
      async stop() {
        running = false;
        await Promise.all(shoppersDone);
      },
    };
  }

  it("a shop that misses two health checks in a row, as a saturated one does, stays in rotation, and every GET is answered", async () => {
    // A saturated shop answers its health checks late. SIGSTOP makes that certain and bounded: no
    // answer at all until HAProxy has counted two failed checks in a row, which took a shop out of
    // the old example's rotation (inter 2s, fall 2: two checks slower than 2 s).
    const { fall, rise } = balancer.settings;
    const name = balancer.servers[2] as string;
    const frozen = shops[2] as ShopProcess;
    const healthy = rise + fall - 1;
    const before = await balancer.waitUntil(
      name,
      "fully healthy",
      (row) => Number(row.check_health) === healthy,
    );
    const traffic = browsing(6);
    await traffic.answered(30);

    frozen.kill("SIGSTOP");
    let failing: Record<string, string>;
    try {
      failing = await balancer.waitUntil(
        name,
        "with two failed checks",
        (row) => Number(row.check_health) <= healthy - 2 || row.status?.startsWith("DOWN") === true,
        120_000,
      );
    } finally {
      frozen.kill("SIGCONT");
    }
    expect(failing.status).toMatch(/^UP/);
    // Requests queued on it while it was frozen are answered now, and its checks pass again.
    await balancer.waitUntil(
      name,
      "fully healthy again",
      (row) => Number(row.check_health) === healthy,
      60_000,
    );
    await traffic.answered(30);
    await traffic.stop();

    const after = (await balancer.stats())[name];
    // Never taken out of rotation, and it served traffic before and after.
    expect(after?.chkdown).toBe(before.chkdown);
    expect(traffic.answers.filter((answer) => answer.status !== 200 || answer.cut)).toEqual([]);
    expect(new Set(traffic.answers.map((answer) => answer.backend))).toEqual(new Set(balancer.servers));
  }, 240_000);

  it("a shop killed with -9 while GETs are queued on it: every GET is answered by another shop, none with a 5xx", async () => {
    const name = balancer.servers[1] as string;
    const victim = shops[1] as ShopProcess;
    const traffic = browsing(6);
    await traffic.answered(30);
    // Frozen first, so that requests are certainly waiting on it when it dies.
    victim.kill("SIGSTOP");
    let queued: Record<string, string>;
    try {
      queued = await balancer.waitUntil(name, "with GETs waiting on it", (row) => Number(row.scur) >= 2);
    } finally {
      victim.kill("SIGKILL");
    }
    await victim.exited;
    await balancer.waitFor(name, "DOWN");
    const markedDown = traffic.answers.length;
    await traffic.answered(100);
    await traffic.stop();

    expect(Number(queued.scur)).toBeGreaterThanOrEqual(2);
    // Frozen mid-answer and killed, the victim cannot finish what it had begun sending; every
    // other GET, the queued ones included, is answered whole.
    const begunByVictim = (answer: { backend: string; cut?: boolean }) =>
      answer.cut && answer.backend === name;
    expect(
      traffic.answers.filter((answer) => (answer.status !== 200 || answer.cut) && !begunByVictim(answer)),
    ).toEqual([]);
    expect(traffic.answers.filter(begunByVictim).length).toBeLessThanOrEqual(6);
    const others = balancer.servers.filter((server) => server !== name);
    expect(new Set(traffic.answers.slice(markedDown).map((answer) => answer.backend))).toEqual(
      new Set(others),
    );
    // The queued GETs were retried, on another shop.
    const stats = await balancer.stats();
    expect(Number(stats[name]?.wredis ?? 0) + Number(stats[name]?.wretr ?? 0)).toBeGreaterThan(0);
  }, 120_000);
});

describeWhen([postgresServer], "two shop processes on one PostgreSQL without Redis", () => {
  let database: ScratchPostgres;
  const shops: ShopProcess[] = [];
  beforeAll(async () => {
    database = await createScratchPostgres();
    for (let i = 0; i < 2; i++) {
      shops.push(await startShopProcess({ DATABASE_URL: database.url, TRUST_PROXY: "1", LOG_LEVEL: "info" }));
    }
  });
  afterAll(async () => {
    await Promise.all(shops.map((shop) => shop.stop()));
    await database?.drop();
  });

  it("share rate limits through the database", async () => {
    const [first, second] = shops as [ShopProcess, ShopProcess];
    expect(first.output()).toContain("rate-limit counters are kept in postgres");
    const email = newEmail("pg-limits");
    const address = someAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const shop = i % 2 === 0 ? first : second;
      statuses.push(
        (await logIn(new CookieClient(), shop.url, email, "Wr0ng!Pass1", { "X-Forwarded-For": address }))
          .status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("share sessions with no secret configured: a sign-in on one is a sign-in on the other", async () => {
    const [first, second] = shops as [ShopProcess, ShopProcess];
    const client = new CookieClient();
    const email = newEmail("shared");
    expect((await signUp(client, first.url, email, { "X-Forwarded-For": someAddress() })).status).toBe(302);
    const other = new CookieClient();
    client.copyCookiesTo(other, first.url);
    // The second process has its own address: the same cookies, sent to it.
    const cookies = other.cookieHeader(first.url);
    const response = await fetch(`${second.url}/_.data`, { headers: { Cookie: cookies } });
    expect(/"email","([^"]+)"/.exec(await response.text())?.[1]).toBe(email);
  });
});
