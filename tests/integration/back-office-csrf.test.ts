import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import { type ShopProcess, startShopProcess } from "../support/shop-process";

/**
 * Cross-site requests to the back office's actions, through the real HTTP
 * server: every /admin route of app/routes.ts that takes a form refuses a
 * post from another origin (or one a browser marks cross-site) with 403
 * before any route runs; the same post from the shop's own origin reaches
 * the route's door (which sends a signed-out visitor to log in).
 */
let shop: ShopProcess;
beforeAll(async () => {
  shop = await startShopProcess();
});
afterAll(() => shop?.stop());

type Entry = { path?: string; file: string; index?: boolean; children?: Entry[] };

/** The /admin routes that have an action, with a sample address for each. */
async function adminActions(): Promise<string[]> {
  const admin = (routes as Entry[]).find((entry) => entry.path === "admin");
  const found: string[] = [];
  for (const route of [admin as Entry, ...(admin?.children ?? [])]) {
    const module = await import(/* @vite-ignore */ path.resolve("app", route.file));
    if (typeof module.action !== "function") continue;
    const pattern = route === admin || route.index ? "/admin" : `/admin/${route.path}`;
    found.push(pattern.replace(/:(\w+)/g, (_, name: string) => (name === "number" ? "BL-00000" : "1")));
  }
  return found;
}

describe("the back office's actions and cross-site requests", () => {
  it("refuses a cross-site replacement of the tax and shipping setup, and hides it from a signed-out visitor", async () => {
    const url = `${shop.url}/api/admin/tax-and-shipping`;
    const body = JSON.stringify({ pricesIncludeTax: true });
    const crossSite: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { "Sec-Fetch-Site": "cross-site" },
    ];
    for (const headers of crossSite) {
      const response = await fetch(url, {
        method: "PUT",
        headers: { ...headers, "Content-Type": "application/json" },
        body,
      });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect((await response.json()).error.code).toBe("cross_site_request");
    }
    const sameOrigin = await fetch(url, {
      method: "PUT",
      headers: { Origin: shop.url, "Content-Type": "application/json" },
      body,
    });
    expect(sameOrigin.status).toBe(404);
    expect((await fetch(url)).status).toBe(404);
  });

  it("refuses a post from another origin or a cross-site browser request, for every action", async () => {
    const paths = await adminActions();
    expect(paths).toEqual(expect.arrayContaining(["/admin/people", "/admin/settings"]));
    for (const target of paths) {
      const crossSite: Record<string, string>[] = [
        { Origin: "https://evil.example" },
        { "Sec-Fetch-Site": "cross-site" },
      ];
      for (const headers of crossSite) {
        const response = await fetch(`${shop.url}${target}`, {
          method: "POST",
          redirect: "manual",
          headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
          body: "email=someone%40example.com&role=owner",
        });
        expect(response.status, `${target} ${JSON.stringify(headers)}`).toBe(403);
        expect((await response.json()).error.code).toBe("cross_site_request");
      }
      const sameOrigin = await fetch(`${shop.url}${target}`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: shop.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: "email=someone%40example.com&role=owner",
      });
      expect(sameOrigin.status, target).toBe(302);
      expect(sameOrigin.headers.get("Location"), target).toMatch(/^\/login\?redirectTo=/);
    }
  });
});
