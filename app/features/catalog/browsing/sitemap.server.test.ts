import { describe, expect, it } from "vitest";
import type { Catalog } from "./catalog.server";
import { robotsResponse, sitemapResponse } from "./sitemap.server";

/** A catalogue of `total` products, read through the same calls the sitemap makes. */
function catalogOf(total: number): Catalog {
  const answer = <T>(value: T) => Promise.resolve({ value, json: "", etag: "" });
  return {
    facetValues: () =>
      answer({
        brands: [{ value: "campSafe", label: "CampSafe" }],
        categories: [{ value: "home goods", label: "Home goods" }],
      }),
    sitemapProducts: (offset: number, limit: number) =>
      answer({
        total,
        rows: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, index) => ({
          id: offset + index + 1,
          name: `Tent & Tarp ${offset + index + 1}`,
          creationDate: "2026-01-02T03:04:05.000Z",
        })),
      }),
  } as unknown as Catalog;
}

const get = (path: string) => new Request(`https://shop.example${path}`);

describe("sitemap.xml", () => {
  it("lists the shop's pages, a listing per brand and category, and every product, escaped", async () => {
    const response = await sitemapResponse(catalogOf(3), get("/sitemap.xml"), "https://shop.example");
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const xml = await response.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset /);
    expect(xml).toContain("<loc>https://shop.example/about</loc>");
    expect(xml).toContain("<loc>https://shop.example/?band=campSafe</loc>");
    expect(xml).toContain("<loc>https://shop.example/?category=home+goods</loc>");
    expect(xml).toContain(
      "<url><loc>https://shop.example/products/3-tent-tarp-3</loc><lastmod>2026-01-02</lastmod></url>",
    );
    expect(xml.match(/<url>/g)).toHaveLength(3 + 2 + 3);
  });

  it("becomes an index of parts when the catalogue is larger than one file may hold", async () => {
    const catalog = catalogOf(25);
    const index = await (
      await sitemapResponse(catalog, get("/sitemap.xml"), "https://shop.example", 10)
    ).text();
    expect(index).toContain("<sitemapindex ");
    expect(
      index.match(/<sitemap><loc>https:\/\/shop.example\/sitemap.xml\?page=\d<\/loc><\/sitemap>/g),
    ).toHaveLength(4);
    const pages = await (
      await sitemapResponse(catalog, get("/sitemap.xml?page=0"), "https://shop.example", 10)
    ).text();
    expect(pages.match(/<url>/g)).toHaveLength(5);
    const last = await (
      await sitemapResponse(catalog, get("/sitemap.xml?page=3"), "https://shop.example", 10)
    ).text();
    expect(last.match(/<url>/g)).toHaveLength(5);
    expect(last).toContain("/products/25-tent-tarp-25<");
    expect(
      (await sitemapResponse(catalog, get("/sitemap.xml?page=4"), "https://shop.example", 10)).status,
    ).toBe(404);
  });

  it("refuses a part that is not a number with a 400 naming it", async () => {
    const response = await sitemapResponse(
      catalogOf(1),
      get("/sitemap.xml?page=abc"),
      "https://shop.example",
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { field: "page" } });
  });
});

describe("robots.txt", () => {
  it("keeps crawlers out of sign-in and API plumbing and names the sitemap", async () => {
    const text = await robotsResponse("https://shop.example").text();
    expect(text).toMatch(/^User-agent: \*\n/);
    expect(text).toContain("Disallow: /login\n");
    expect(text).toContain("Sitemap: https://shop.example/sitemap.xml\n");
    expect(text).not.toMatch(/Disallow: \/\n/);
  });
});
