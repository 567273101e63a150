import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runShopToExit, type ShopProcess, startShopProcess, temporaryDataDir } from "../support/shop-process";

/** The built shop as a client sees it, with no identity provider configured and no proxy trusted. */
let shop: ShopProcess;
beforeAll(async () => {
  shop = await startShopProcess({ LOG_LEVEL: "info" });
});
afterAll(async () => {
  await shop?.stop();
});

const signUp = (email: string, headers: Record<string, string> = {}) =>
  fetch(`${shop.url}/sign-up`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({
      name: "Ada",
      email,
      photo: "https://example.com/a.png",
      password: "Str0ng!Pass",
    }),
  });

describe("accounts in the built shop", () => {
  it("disables 'Continue with Google' with a visible explanation when no provider is configured", async () => {
    const html = await (await fetch(`${shop.url}/login`)).text();
    expect(html).toMatch(/<button type="submit" disabled=""[^>]*aria-describedby="google-sign-in-note"/);
    expect(html).toContain("Google sign-in is not configured on this shop.");
    const start = await fetch(`${shop.url}/auth/google`, {
      method: "POST",
      body: new URLSearchParams({ redirectTo: "/" }),
    });
    expect(start.status).toBe(404);
  });

  it("does not run the demo identity provider unless DEMO_IDENTITY_PROVIDER=1", async () => {
    const discovery = await fetch(`${shop.url}/demo-idp/.well-known/openid-configuration`);
    expect(discovery.status).toBe(404);
  });

  it("exposes none of Better Auth's endpoints except the OAuth callback", async () => {
    for (const [method, endpoint] of [
      ["POST", "/api/auth/sign-up/email"],
      ["POST", "/api/auth/sign-in/email"],
      ["GET", "/api/auth/get-session"],
      ["GET", "/api/auth/ok"],
    ] as const) {
      const response = await fetch(`${shop.url}${endpoint}`, {
        method,
        headers: { "Content-Type": "application/json" },
        body:
          method === "POST"
            ? JSON.stringify({ email: "a@example.com", password: "Str0ng!Pass", name: "A" })
            : undefined,
      });
      expect(response.status, endpoint).toBe(404);
    }
  });

  it("sends the security headers with the account pages", async () => {
    for (const page of ["/login", "/sign-up"]) {
      const response = await fetch(`${shop.url}${page}`);
      const csp = response.headers.get("content-security-policy") ?? "";
      const scriptSrc = csp.split(";").find((directive) => directive.trim().startsWith("script-src")) ?? "";
      expect(scriptSrc).toMatch(/'nonce-[^']+'/);
      expect(scriptSrc).not.toContain("unsafe-inline");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      // Keeps the link to the sign-in popup, which reports back to this page.
      expect(response.headers.get("cross-origin-opener-policy")).toBe("same-origin-allow-popups");
    }
  });

  it("gives every page its own script nonce, the same in the header and in the page's scripts", async () => {
    const nonces = [];
    for (let visit = 0; visit < 2; visit++) {
      const response = await fetch(`${shop.url}/login`);
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(await response.text()).toContain(`nonce="${nonce}"`);
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("rejects state-changing requests from other sites with 403", async () => {
    const crossSite: Record<string, string>[] = [
      { "Sec-Fetch-Site": "cross-site" },
      { Origin: "https://evil.example" },
      { "Sec-Fetch-Site": "same-site" },
    ];
    for (const headers of crossSite) {
      const response = await fetch(`${shop.url}/logout`, { method: "POST", redirect: "manual", headers });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: "cross_site_request" } });
    }
    // The same request from the shop's own pages goes through.
    const own = await fetch(`${shop.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { "Sec-Fetch-Site": "same-origin" },
    });
    expect(own.status).toBe(302);
  });

  it("counts sign-ups per socket address: a spoofed X-Forwarded-For is not trusted without TRUST_PROXY", async () => {
    const stamp = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await signUp(`spoof-${stamp}-${i}@example.com`, {
        "X-Forwarded-For": `198.51.100.${i + 1}`,
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(302));
    expect(statuses[10]).toBe(429);
    const refused = await signUp(`spoof-${stamp}-x@example.com`, { "X-Forwarded-For": "203.0.113.200" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toMatch(/Too many attempts\. Try again in (1 hour|\d+ minutes)\./);
  });

  it("keeps the generated session secret in DATA_DIR, readable by its owner only, and never logs it", () => {
    const file = path.join(shop.dataDir, "auth-secret");
    const mode = fs.statSync(file).mode & 0o777;
    expect(mode).toBe(0o600);
    const secret = fs.readFileSync(file, "utf8").trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(shop.output()).toContain("generated a session secret");
    expect(shop.output()).not.toContain(secret);
  });
});

describe("account configuration", () => {
  it.each([
    [{ BETTER_AUTH_SECRET: "too-short-secret" }, "BETTER_AUTH_SECRET=(hidden)"],
    [{ GOOGLE_CLIENT_ID: "client-id.apps.googleusercontent.com" }, "GOOGLE_CLIENT_SECRET"],
    [{ BASE_URL: "ftp://shop.example" }, "BASE_URL"],
    [{ REDIS_URL: "http://127.0.0.1:6379" }, "REDIS_URL"],
    [{ TRUST_PROXY: "many" }, "TRUST_PROXY"],
  ])("refuses %o with a message naming the variable", async (env, expected) => {
    const { code, output } = await runShopToExit({ DATA_DIR: temporaryDataDir(), ...env });
    expect(code).toBe(1);
    expect(output).toContain(expected);
    expect(output).not.toContain("too-short-secret");
  });
});
