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
      ["shop1", "shop2", "shop3"].map(async (name) => {
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
        return { name, port, shop };
      }),
    );
    shops.push(...started.map(({ shop }) => shop));
    balancer = await startLoadBalancer(
      balancerPort,
      started.map(({ name, port }) => ({ name, port })),
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

  it("one process killed mid-traffic: health checks route around it, and no request fails once it is marked down", async () => {
    // Each answer with the moment its request was sent.
    const answers: { sentAt: number; status: number; backend: string }[] = [];
    const answered = new EventEmitter();
    let running = true;
    const browse = async () => {
      while (running) {
        const path = `/all-products?page=${1 + ((randomBytes(1)[0] ?? 0) % 13)}`;
        const sentAt = Date.now();
        try {
          const response = await fetch(`${balancer.url}${path}`);
          await response.arrayBuffer();
          answers.push({ sentAt, status: response.status, backend: servedBy(response) });
        } catch {
          answers.push({ sentAt, status: 0, backend: "?" });
        }
        answered.emit("answer");
      }
    };
    const traffic = [browse(), browse(), browse()];
    const count = async (more: number) => {
      const target = answers.length + more;
      while (answers.length < target) await once(answered, "answer");
    };
    await count(30);
    const victim = shops[1];
    victim?.kill("SIGKILL");
    await victim?.exited;
    await balancer.waitFor("shop2", "DOWN");
    const markedDown = Date.now();
    await count(150);
    running = false;
    await Promise.all(traffic);

    const after = answers.filter((answer) => answer.sentAt > markedDown);
    expect(after.length).toBeGreaterThanOrEqual(100);
    expect(after.filter((answer) => answer.status !== 200)).toEqual([]);
    expect(new Set(after.map((answer) => answer.backend))).toEqual(new Set(["shop1", "shop3"]));
  });
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
