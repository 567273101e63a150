import { randomBytes } from "node:crypto";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoIdentityProvider } from "~/features/demo-identity-provider/demo-identity-provider.server";
import {
  CookieClient,
  continueWithGoogle,
  logIn,
  STRONG_PASSWORD,
  signedInEmail,
  signUp,
} from "../support/http-client";
import { skipBecause } from "../support/requirements";
import {
  freePort,
  runShopToExit,
  type ShopProcess,
  spawnShopProcess,
  startShopProcess,
  temporaryDataDir,
} from "../support/shop-process";
import { linkIn, type SmtpCapture, startSmtpCapture } from "../support/smtp-capture";
import { openPgliteTestDatabase, type TestDatabase } from "../support/test-database";
import { expectWithinBudget } from "../support/time-budget";

/**
 * What a penetration test of the shop probes, as a client sees it: redirects,
 * request size and time limits, malformed input, caching of personal pages,
 * sessions, account linking, security headers, the demo provider's limits and
 * what the logs hold.
 */

const someAddress = () =>
  `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + ((randomBytes(1)[0] ?? 0) % 250)}`;
const newEmail = (label: string) => `${label}-${randomBytes(5).toString("hex")}@example.com`;

/**
 * This machine's address on its network (not loopback), where another machine
 * would reach a server: whether a server answers there shows which interface
 * it is bound to.
 */
const OUTSIDE_ADDRESS = Object.values(os.networkInterfaces())
  .flat()
  .find((entry) => entry?.family === "IPv4" && !entry.internal)?.address;
const NO_OUTSIDE_ADDRESS =
  "needs a network interface other than loopback, to connect as another machine would";

/** Whether a TCP connection to address:port is accepted, or the error code it got. */
function connectionTo(address: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, address);
    socket.setTimeout(5_000, () => {
      socket.destroy();
      resolve("no answer");
    });
    socket.once("connect", () => {
      socket.destroy();
      resolve("accepted");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** Sends raw bytes and collects what comes back until the server closes the connection. */
function rawExchange(
  port: number,
  send: (socket: net.Socket) => void,
): Promise<{ response: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, "127.0.0.1", () => send(socket));
    let response = "";
    socket.on("data", (chunk) => {
      response += chunk;
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET") resolve({ response, closedAfterMs: Date.now() - started });
      else reject(error);
    });
    socket.on("close", () => resolve({ response, closedAfterMs: Date.now() - started }));
  });
}

/** A request with a Host header of the test's choosing (fetch will not send one). */
function getWithHost(
  url: string,
  host: string,
  method = "GET",
  more: { headers?: Record<string, string>; body?: string } = {},
): Promise<{ statusCode: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { Host: host, ...more.headers };
    const request = http.request(url, { method, headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        body += chunk;
      });
      response.on("end", () =>
        resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    request.on("error", reject);
    request.end(more.body);
  });
}

let shop: ShopProcess;
beforeAll(async () => {
  shop = await startShopProcess({ TRUST_PROXY: "1", DEMO_IDENTITY_PROVIDER: "1", LOG_LEVEL: "info" });
});
afterAll(async () => {
  await shop?.stop();
});

/** A shopper signed in through the form, from an address of their own. */
async function signedInShopper() {
  const client = new CookieClient();
  const email = newEmail("shopper");
  const address = someAddress();
  expect((await signUp(client, shop.url, email, { "X-Forwarded-For": address })).status).toBe(302);
  return { client, email, address };
}

describe("redirects after sign-in go to this shop only, judged after normalisation", () => {
  const evil = [
    "/.//evil.example",
    "/..//evil.example",
    "/%2e%2e//evil.example",
    "//evil.example",
    "/\\evil.example",
  ];

  it.each(evil)("a signed-in visitor to /login?redirectTo=%s stays on the shop", async (target) => {
    const { client } = await signedInShopper();
    const response = await client.fetch(`${shop.url}/login?redirectTo=${encodeURIComponent(target)}`);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });

  it.each(evil)("a login with redirectTo=%s lands on the shop", async (target) => {
    const { client, email, address } = await signedInShopper();
    await client.postForm(`${shop.url}/logout`, {});
    const response = await client.postForm(
      `${shop.url}/login?redirectTo=${encodeURIComponent(target)}`,
      { email, password: STRONG_PASSWORD, redirectTo: target },
      { "X-Forwarded-For": address },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });

  it.each(evil)("the Google completion page and its link never lead to %s", async (target) => {
    const { client } = await signedInShopper();
    const fullPage = await client.fetch(
      `${shop.url}/auth/google/done?redirectTo=${encodeURIComponent(target)}`,
    );
    expect(fullPage.headers.get("Location")).toBe("/");
    const popup = await client.fetch(
      `${shop.url}/auth/google/done?popup=1&attempt=abcdefgh12&redirectTo=${encodeURIComponent(target)}`,
    );
    const html = await popup.text();
    expect(html).toContain("Back to the shop");
    // No link, form or redirect leads there. (The page's own address, target
    // included, rides in the Log out form's returnTo, which is judged like any other.)
    expect(html).not.toMatch(/(href|action|content)="[^"]*evil\.example/);
    expect(html).toMatch(/<a [^>]*href="\/"[^>]*>Back to the shop<\/a>/);
  });

  it.each(evil)("logging out with returnTo=%s goes home, not there", async (target) => {
    const { client } = await signedInShopper();
    const response = await client.postForm(`${shop.url}/logout`, { returnTo: target });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });
});

describe("request size and time limits", () => {
  it("refuses a 200 MB body with 413 before reading it, and closes the connection", async () => {
    const { response } = await rawExchange(shop.port, (socket) =>
      socket.write(
        "POST /sign-up HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
          "Content-Length: 200000000\r\n\r\nname=a",
      ),
    );
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    expect(response).toMatch(/Connection: close/i);
    expect(response).toContain('"code":"payload_too_large"');
  });

  it("does not invite a body it will refuse: Expect: 100-continue gets the 413, not 100 Continue", async () => {
    const { response } = await rawExchange(shop.port, (socket) =>
      socket.write(
        "POST /sign-up HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
          "Content-Length: 40000\r\nExpect: 100-continue\r\n\r\n",
      ),
    );
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    expect(response).not.toContain("100 Continue");
  });

  it("invites a body it will read: Expect: 100-continue on a small sign-up gets 100 Continue", async () => {
    const body = new URLSearchParams({ email: "nobody@example.com", password: "Wr0ng!Pass" }).toString();
    const { response } = await rawExchange(shop.port, (socket) => {
      socket.write(
        "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
          `Content-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      );
      socket.once("data", () => socket.write(body));
    });
    expect(response).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 (401|429) /);
  });

  it("takes a tax and shipping document past the forms' 32 KiB, up to 512 KiB, and refuses more", async () => {
    const headers = { "Content-Type": "application/json", Origin: new URL(shop.url).origin };
    // 100 KiB: read (and, signed out, answered with the shop's 404, as anything under /api/admin is).
    const large = await fetch(`${shop.url}/api/admin/tax-and-shipping`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ padding: "x".repeat(100 * 1024) }),
    });
    expect(large.status).toBe(404);
    expect(await large.json()).toMatchObject({ error: { code: "not_found" } });
    const { response } = await rawExchange(shop.port, (socket) =>
      socket.write(
        "PUT /api/admin/tax-and-shipping HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
          "Content-Length: 600000\r\n\r\n{",
      ),
    );
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
  });

  it("refuses a body of unknown length with 411", async () => {
    const response = await fetch(`${shop.url}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("email=a%40b.co&password=x"));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(411);
    expect(await response.json()).toMatchObject({
      error: { code: "length_required", field: "Content-Length" },
    });
  });

  describe("slow clients", () => {
    /** REQUEST_TIMEOUT_SECONDS=2, looked at every second: room left for a loaded machine. */
    const CUT_OFF_BUDGET_MS = 10_000;
    let slow: ShopProcess;
    beforeAll(async () => {
      slow = await startShopProcess({ REQUEST_TIMEOUT_SECONDS: "2" });
    });
    afterAll(async () => {
      await slow?.stop();
    });

    it("cuts off a client that never finishes its headers", async () => {
      const { response, closedAfterMs } = await rawExchange(slow.port, (socket) =>
        socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "),
      );
      expect(response).toMatch(/^HTTP\/1\.1 408 /);
      expectWithinBudget(
        "a client that never finishes its headers cut off",
        closedAfterMs,
        CUT_OFF_BUDGET_MS,
      );
    });

    it("cuts off a client that never finishes its body", async () => {
      const { response } = await rawExchange(slow.port, (socket) =>
        socket.write(
          "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
            "Content-Length: 100\r\n\r\nemail=",
        ),
      );
      expect(response).toMatch(/^HTTP\/1\.1 408 /);
    });
  });
});

describe("malformed input gets a 4xx that says what is wrong, never a 500", () => {
  it("an address longer than the shop reads gets a JSON 431, as every API answer is", async () => {
    const response = await fetch(`${shop.url}/counts?page=${"x".repeat(20_000)}`);
    expect(response.status).toBe(431);
    expect(await response.json()).toMatchObject({ error: { code: "headers_too_large" } });
  });

  it("a login or sign-up that is not a web form gets 415", async () => {
    for (const path of ["/login", "/sign-up"]) {
      const response = await fetch(`${shop.url}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": someAddress() },
        body: JSON.stringify({ email: "a@example.com", password: STRONG_PASSWORD }),
      });
      expect(response.status, path).toBe(415);
      expect(await response.text()).toContain("This form could not be read");
    }
  });

  it("a NUL in a sign-up's name or photo URL gets 400 with the field's message", async () => {
    for (const [field, message] of [
      ["name", "Name must not contain control characters"],
      ["photo", "Photo URL must not contain control characters."],
    ] as const) {
      const fields = {
        name: "Ada",
        email: newEmail("nul"),
        photo: "https://example.com/a.png",
        password: STRONG_PASSWORD,
      };
      fields[field] = `${fields[field]}\u0000`;
      const response = await fetch(`${shop.url}/sign-up`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": someAddress() },
        body: new URLSearchParams(fields),
      });
      expect(response.status, field).toBe(400);
      expect(await response.text()).toContain(message);
    }
  });

  it("a NUL in PUT /user/api/create gets a JSON 400 naming the field", async () => {
    const { client, email } = await signedInShopper();
    const response = await client.fetch(`${shop.url}/user/api/create`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, name: "Ada\u0000", photo: "https://example.com/a.png" }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toMatchObject({ error: { code: "invalid_field", field: "name" } });
  });

  it("a NUL in an id or a token of the account forms gets 400 naming it, never a 500", async () => {
    const { client, address } = await signedInShopper();
    const headers = { "X-Forwarded-For": address };
    const signOut = await client.postForm(
      `${shop.url}/account/sessions/sign-out`,
      { sessionId: "a\u0000b" },
      headers,
    );
    expect(signOut.status).toBe(400);
    expect(await signOut.text()).toContain("sessionId");
    for (const [path, fields] of [
      ["/verify-email", { intent: "confirm", token: `${"A".repeat(30)}\u0000` }],
      ["/reset-password", { token: `${"A".repeat(30)}\u0000`, password: "N3w!Passw0rd" }],
    ] as const) {
      const response = await client.postForm(`${shop.url}${path}`, fields, headers);
      expect(response.status, path).toBe(400);
    }
  });
});

describe("addresses no URL can hold, and methods the shop never answers", () => {
  // The URL standard drops tabs and line breaks wherever they stand: React Router read "/%09/" as "//".
  const paths = ["/%09/", "/%09//", "/%09%09/", "/%09/%09/", "//%09/", "/%09/%25", "/%0A/", "/%0d/x?a=%09"];

  it.each(paths)("GET %s is the shop's 404 page, not a server error", async (path) => {
    const response = await fetch(`${shop.url}${path}`, { headers: { Accept: "text/html" } });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Page not found");
  });

  it.each(paths)("HEAD, POST, PUT and DELETE %s answer 404 too", async (path) => {
    for (const method of ["HEAD", "POST", "PUT", "DELETE"]) {
      const response = await fetch(`${shop.url}${path}`, {
        method,
        headers: { Origin: shop.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: method === "HEAD" ? undefined : "a=1",
      });
      expect(response.status, method).toBe(404);
    }
  });

  it("logs none of them as an error of the shop", () => {
    const errors = shop
      .output()
      .split("\n")
      .filter((line) => /"level":(50|60)/.test(line) && /%0[9ad]/i.test(line));
    expect(errors.slice(0, 2)).toEqual([]);
  });

  it("CONNECT gets 405 with the methods the shop answers, as docs/operations.md says, not a closed connection", async () => {
    const { response } = await rawExchange(shop.port, (socket) =>
      socket.write("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"),
    );
    expect(response).toMatch(/^HTTP\/1\.1 405 /);
    expect(response).toMatch(/\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/);
    expect(response).toContain('"code":"method_not_allowed"');
  });
});

describe("pages with a shopper's data are never stored by a cache", () => {
  it("documents and React Router's .data answers are private, no-store", async () => {
    const { client } = await signedInShopper();
    for (const path of ["/", "/about", "/_.data", "/about.data", "/?search=tent"]) {
      const response = await client.fetch(`${shop.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe("private, no-store");
    }
  });
});

describe("sessions", () => {
  it("continuing with Google ends the session the browser had, as a password login does", async () => {
    const { client } = await signedInShopper();
    const before = new CookieClient();
    client.copyCookiesTo(before, shop.url);
    const googleEmail = newEmail("google");
    const { url } = await continueWithGoogle(
      client,
      shop.url,
      { email: googleEmail, name: "Goo Gle" },
      { "X-Forwarded-For": someAddress() },
    );
    expect(new URL(url).pathname).toBe("/");
    expect(await signedInEmail(client, shop.url)).toBe(googleEmail);
    // Whoever kept the earlier session cookie is signed out.
    expect(await signedInEmail(before, shop.url)).toBeNull();
  });
});

describe("a visitor at another host name than BASE_URL", () => {
  let local: ShopProcess;
  beforeAll(async () => {
    const port = await freePort();
    local = await startShopProcess({ PORT: String(port), BASE_URL: `http://localhost:${port}` });
  });
  afterAll(async () => {
    await local?.stop();
  });

  it("is sent to BASE_URL for GET and HEAD, path and query kept", async () => {
    for (const method of ["GET", "HEAD"]) {
      const response = await getWithHost(
        `http://127.0.0.1:${local.port}/?category=fitness&page=2`,
        `127.0.0.1:${local.port}`,
        method,
      );
      expect(response.statusCode).toBe(308);
      expect(response.headers.location).toBe(`http://localhost:${local.port}/?category=fitness&page=2`);
    }
  });

  it("is not redirected for /healthz (load balancers check each process by address) or a form post", async () => {
    expect(
      (await getWithHost(`http://127.0.0.1:${local.port}/healthz`, `127.0.0.1:${local.port}`)).statusCode,
    ).toBe(200);
    const post = await fetch(`http://127.0.0.1:${local.port}/logout`, { method: "POST", redirect: "manual" });
    expect(post.status).toBe(302);
    expect(post.headers.get("location")).toBe("/");
  });
});

describe("headers that depend on BASE_URL", () => {
  it("sends HSTS only when BASE_URL is https, and takes canonical links from BASE_URL, not from the request", async () => {
    const port = await freePort();
    const secure = await startShopProcess({ PORT: String(port), BASE_URL: "https://shop.example.test" });
    try {
      // Behind a proxy that terminates TLS, the request itself is plain http.
      const response = await getWithHost(`http://127.0.0.1:${port}/?category=fitness`, "shop.example.test");
      expect(response.statusCode).toBe(200);
      expect(response.headers["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
      expect(response.body).toContain(
        '<link rel="canonical" href="https://shop.example.test/?category=fitness"/>',
      );
      expect(response.body).toContain(
        '<meta property="og:url" content="https://shop.example.test/?category=fitness"/>',
      );
    } finally {
      await secure.stop();
    }
    expect((await fetch(`${shop.url}/`)).headers.get("strict-transport-security")).toBeNull();
  });

  it("behind a proxy that ends TLS, a browser's form post from the https origin is accepted", async () => {
    const port = await freePort();
    const secure = await startShopProcess({ PORT: String(port), BASE_URL: "https://shop.example.test" });
    try {
      const form = new URLSearchParams({
        name: "Tess Proxy",
        email: newEmail("tls"),
        photo: "https://example.com/p.png",
        password: STRONG_PASSWORD,
      });
      const browser = { Origin: "https://shop.example.test", "Sec-Fetch-Site": "same-origin" };
      const posted = await getWithHost(`http://127.0.0.1:${port}/sign-up`, "shop.example.test", "POST", {
        headers: { ...browser, "Content-Type": "application/x-www-form-urlencoded" },
        body: form.toString(),
      });
      expect(posted.statusCode).toBe(302);
      expect(String(posted.headers["set-cookie"])).toMatch(/__Secure-backline\.session_token=[^;]+;.*Secure/);
      // A page on another origin still may not post.
      const forged = await getWithHost(`http://127.0.0.1:${port}/sign-up`, "shop.example.test", "POST", {
        headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
        body: form.toString(),
      });
      expect(forged.statusCode).toBe(403);
    } finally {
      await secure.stop();
    }
  });
});

describe("the demo identity provider stays on this machine", () => {
  it.each([
    [{ BASE_URL: "https://shop.example.test" }, /does not run on a public https:\/\/ BASE_URL/],
    [{ HOST: "0.0.0.0" }, /runs only on this machine's loopback interface, not HOST=0\.0\.0\.0/],
  ])("refuses to start with %o, naming what to set", async (env, message) => {
    const { code, output } = await runShopToExit({
      DATA_DIR: temporaryDataDir(),
      DEMO_IDENTITY_PROVIDER: "1",
      ...env,
    });
    expect(code).toBe(1);
    expect(output).toMatch(message);
    expect(output).toContain("DEMO_IDENTITY_PROVIDER_ALLOW_PUBLIC=1");
  });

  it("binds to 127.0.0.1 by default and says at warn level that it runs", async (context) => {
    const demo = await spawnShopProcess({ DEMO_IDENTITY_PROVIDER: "1", LOG_LEVEL: "warn" });
    try {
      await demo.ready();
      const ready = await demo.waitForOutput(/demo identity provider/);
      expect(JSON.parse(ready).level).toBe(40);
      expect(demo.output()).not.toMatch(/"level":50/);
      if (!OUTSIDE_ADDRESS) return skipBecause(context, NO_OUTSIDE_ADDRESS);
      expect(await connectionTo(OUTSIDE_ADDRESS, demo.port)).toBe("ECONNREFUSED");
      expect(await connectionTo("127.0.0.1", demo.port)).toBe("accepted");
    } finally {
      await demo.stop();
    }
  });

  it("runs on a public interface only when explicitly allowed", async (context) => {
    if (!OUTSIDE_ADDRESS) return skipBecause(context, NO_OUTSIDE_ADDRESS);
    const demo = await startShopProcess({
      DEMO_IDENTITY_PROVIDER: "1",
      DEMO_IDENTITY_PROVIDER_ALLOW_PUBLIC: "1",
      HOST: "0.0.0.0",
    });
    try {
      // Another machine would reach it: it answers on this machine's network address.
      const health = await fetch(`http://${OUTSIDE_ADDRESS}:${demo.port}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      await demo.stop();
    }
  });
});

describe("card payments: the demo stand-in for Stripe stays on this machine, real ones need both keys", () => {
  it.each([
    [
      { DEMO_PAYMENT_PROVIDER: "1", BASE_URL: "https://shop.example.test" },
      /DEMO_PAYMENT_PROVIDER=.*does not run on a public https:\/\/ BASE_URL.*DEMO_PAYMENT_PROVIDER_ALLOW_PUBLIC=1/s,
    ],
    [
      { DEMO_PAYMENT_PROVIDER: "1", HOST: "0.0.0.0" },
      /DEMO_PAYMENT_PROVIDER=.*not HOST=0\.0\.0\.0.*DEMO_PAYMENT_PROVIDER_ALLOW_PUBLIC=1/s,
    ],
    [
      { STRIPE_SECRET_KEY: "sk_test_onlyTheKey" },
      /STRIPE_WEBHOOK_SECRET=.*card payments need both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/,
    ],
    [
      { STRIPE_SECRET_KEY: "pk_live_notASecretKey", STRIPE_WEBHOOK_SECRET: "whsec_x" },
      /STRIPE_SECRET_KEY=\(hidden\): must be a Stripe secret key/,
    ],
  ])("refuses to start with %o, naming what to set", async (env, message) => {
    const { code, output } = await runShopToExit({ DATA_DIR: temporaryDataDir(), ...env });
    expect(code).toBe(1);
    expect(output).toMatch(message);
    // A secret is never echoed, not even a wrong one.
    expect(output).not.toContain("notASecretKey");
  });
});

describe("the logs", () => {
  it("record sign-in successes, failures and refusals with account id and address, and never an email", async () => {
    const { email, address } = await signedInShopper();
    const attempts = [
      await logIn(new CookieClient(), shop.url, email, "Wr0ng!Pass1", { "X-Forwarded-For": address }),
      await logIn(new CookieClient(), shop.url, email, STRONG_PASSWORD, { "X-Forwarded-For": address }),
    ];
    expect(attempts.map((response) => response.status)).toEqual([401, 302]);
    for (let i = 0; i < 6; i++)
      await logIn(new CookieClient(), shop.url, email, "Wr0ng!Pass1", { "X-Forwarded-For": address });
    const events = shop
      .output()
      .split("\n")
      .filter((line) => line.includes(`"address":"${address}"`))
      .map((line) => JSON.parse(line) as { event: string; accountId: string | null });
    const accountIds = new Set(events.map((event) => event.accountId));
    expect(accountIds.size).toBe(1);
    expect([...accountIds][0]).toMatch(/^\S{16,}$/);
    expect(new Set(events.map((event) => event.event))).toEqual(
      new Set(["login.failed", "login.succeeded", "login.rate_limited"]),
    );
    expect(shop.output()).not.toContain(email);
    expect(shop.output()).not.toMatch(/[a-z0-9-]+@example\.com/);
  });
});

describe("account linking", () => {
  // A provider that, like Google, says the email it asserts is verified.
  let providerDatabase: TestDatabase;
  let providerServer: http.Server;
  let linkedShop: ShopProcess;
  let smtp: SmtpCapture;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    providerDatabase = await openPgliteTestDatabase();
    const [providerPort, shopPort] = [await freePort(), await freePort()];
    const shopUrl = `http://127.0.0.1:${shopPort}`;
    const provider = await createDemoIdentityProvider({
      baseUrl: `http://127.0.0.1:${providerPort}`,
      redirectUri: `${shopUrl}/api/auth/callback/google`,
      db: providerDatabase.db,
    });
    providerServer = http.createServer((req, res) => {
      if (!provider.handle(req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => providerServer.listen(providerPort, "127.0.0.1", resolve));
    linkedShop = await startShopProcess({
      PORT: String(shopPort),
      BASE_URL: shopUrl,
      TRUST_PROXY: "1",
      GOOGLE_CLIENT_ID: provider.clientId,
      GOOGLE_CLIENT_SECRET: provider.clientSecret,
      GOOGLE_ISSUER_URL: provider.issuer,
      SMTP_URL: smtp.url,
    });
  });
  afterAll(async () => {
    await linkedShop?.stop();
    await smtp?.close();
    providerServer?.close();
    await providerDatabase?.close();
  });

  it("a verified Google identity does not join a password account whose email was never verified", async () => {
    const victim = newEmail("owner");
    // Someone registered the owner's address with a password first.
    const squatter = new CookieClient();
    expect(
      (await signUp(squatter, linkedShop.url, victim, { "X-Forwarded-For": someAddress() })).status,
    ).toBe(302);

    const owner = new CookieClient();
    const { response, url } = await continueWithGoogle(owner, linkedShop.url, {
      email: victim,
      name: "Owner",
    });
    expect(new URL(url).pathname).toBe("/login");
    expect(await response.text()).toContain(
      "This email already has an account with a password. Log in with your password instead.",
    );
    expect(await signedInEmail(owner, linkedShop.url)).toBeNull();
    expect(await signedInEmail(squatter, linkedShop.url)).toBe(victim);
  });

  it("a verified Google identity joins the password account once its owner confirmed the email through the shop's link", async () => {
    const owner = newEmail("confirmed");
    const passwordBrowser = new CookieClient();
    const headers = { "X-Forwarded-For": someAddress() };
    expect((await signUp(passwordBrowser, linkedShop.url, owner, headers)).status).toBe(302);
    const link = linkIn(await smtp.nextEmail(owner, /^Confirm your email/), `${linkedShop.url}/verify-email`);
    const token = new URL(link).searchParams.get("token") ?? "";
    expect(
      (
        await passwordBrowser.postForm(
          `${linkedShop.url}/verify-email`,
          { intent: "confirm", token },
          headers,
        )
      ).status,
    ).toBe(302);

    const googleBrowser = new CookieClient();
    const { url } = await continueWithGoogle(googleBrowser, linkedShop.url, { email: owner, name: "Owner" });
    expect(new URL(url).pathname).toBe("/");
    expect(await signedInEmail(googleBrowser, linkedShop.url)).toBe(owner);
    // One account, reachable both ways: the password still signs in.
    expect((await logIn(new CookieClient(), linkedShop.url, owner, STRONG_PASSWORD, headers)).status).toBe(
      302,
    );
  });

  it("a verified Google identity with a new email signs in", async () => {
    const client = new CookieClient();
    const email = newEmail("fresh");
    const { url } = await continueWithGoogle(client, linkedShop.url, { email, name: "Fresh" });
    expect(new URL(url).pathname).toBe("/");
    expect(await signedInEmail(client, linkedShop.url)).toBe(email);
  });
});
