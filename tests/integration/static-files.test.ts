import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ShopProcess, startShopProcess } from "../support/shop-process";

/**
 * Static files as a browser and a CDN see them: fingerprinted files (the
 * build's assets, the product pictures, named by a hash of their content) are
 * cached for a year and never revalidated; the rest for an hour; every one
 * carries an ETag, so a revalidation costs a 304.
 */
const CLIENT = path.resolve(process.env.BUILD_DIR ?? "build", "client");
const YEAR = "public, max-age=31536000, immutable";

let shop: ShopProcess;
beforeAll(async () => {
  shop = await startShopProcess();
});
afterAll(async () => {
  await shop?.stop();
});

const firstFile = (folder: string, extension: string) => {
  const name = fs.readdirSync(path.join(CLIENT, folder)).find((file) => file.endsWith(extension));
  if (!name) throw new Error(`no ${extension} file in ${folder}`);
  return `/${folder}/${name}`;
};

describe("static files", () => {
  it.each([
    ["a script of the build", () => firstFile("assets", ".js"), "text/javascript"],
    ["a stylesheet of the build", () => firstFile("assets", ".css"), "text/css"],
    ["a product picture", () => firstFile("images/products", ".svg"), "image/svg+xml"],
  ])("%s is cached for a year, immutable", async (_what, file, type) => {
    const response = await fetch(`${shop.url}${file()}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe(YEAR);
    expect(response.headers.get("content-type")).toContain(type);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("a file without a fingerprint (the icon) is cached for an hour", async () => {
    const response = await fetch(`${shop.url}/favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
  });

  it("revalidates with its ETag: 304 and no body", async () => {
    const first = await fetch(`${shop.url}/favicon.svg`);
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await fetch(`${shop.url}/favicon.svg`, { headers: { "If-None-Match": etag ?? "" } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("a fingerprinted name that does not exist is a 404 page, not cached for a year", async () => {
    const response = await fetch(`${shop.url}/assets/no-such-file-0123abcd.js`);
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).not.toBe(YEAR);
  });
});
