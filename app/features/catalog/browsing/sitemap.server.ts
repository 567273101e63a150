import { apiError } from "~/utils/http.server";
import { z } from "~/utils/zod";
import type { Catalog } from "./catalog.server";
import { productHref, shopHref } from "./catalog-url";

/** The sitemap protocol's limit of addresses per file. */
const SITEMAP_MAX_URLS = 50_000;

/** The shop's own pages a crawler should know, besides its products. */
const SHOP_PAGES = ["/", "/about", "/contact"];

const partSchema = z.object({
  page: z
    .string()
    .regex(/^\d{1,7}$/, "page must be a whole number from 0.")
    .transform(Number)
    .optional(),
});

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

function xmlResponse(body: string): Response {
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}

function urlset(entries: { loc: string; lastmod?: string }[]): string {
  const urls = entries
    .map(
      ({ loc, lastmod }) =>
        `<url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod.slice(0, 10)}</lastmod>` : ""}</url>`,
    )
    .join("\n");
  return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/**
 * GET /sitemap.xml: every page a search engine should index — the shop's own
 * pages, a listing per brand and per category (the listings with a canonical
 * address of their own), and every product. When that is more than one file
 * may hold, /sitemap.xml is an index of parts: `?page=0` the pages and
 * listings, `?page=1…` the products, 50,000 to a part.
 */
export async function sitemapResponse(
  catalog: Catalog,
  request: Request,
  baseUrl: string,
  maxUrls = SITEMAP_MAX_URLS,
): Promise<Response> {
  const parsed = partSchema.safeParse({ page: new URL(request.url).searchParams.get("page") ?? undefined });
  if (!parsed.success) {
    return apiError(400, {
      code: "invalid_parameter",
      field: "page",
      message: "page must be a whole number from 0.",
    });
  }
  const absolute = (path: string) => new URL(path, baseUrl).toString();
  const [facets, first] = await Promise.all([catalog.facetValues(), catalog.sitemapProducts(0, maxUrls)]);
  const pages = [
    ...SHOP_PAGES,
    ...facets.value.brands.map((brand) => shopHref({ band: [brand.value] })),
    ...facets.value.categories.map((category) => shopHref({ category: [category.value] })),
  ].map((path) => ({ loc: absolute(path) }));
  const total = first.value.total;
  const productEntries = (rows: typeof first.value.rows) =>
    rows.map((product) => ({ loc: absolute(productHref(product)), lastmod: product.creationDate }));

  const part = parsed.data.page;
  const productParts = Math.ceil(total / maxUrls);
  if (part === undefined) {
    if (pages.length + total <= maxUrls)
      return xmlResponse(urlset([...pages, ...productEntries(first.value.rows)]));
    const parts = Array.from({ length: productParts + 1 }, (_, index) =>
      absolute(`/sitemap.xml?page=${index}`),
    );
    const list = parts.map((loc) => `<sitemap><loc>${escapeXml(loc)}</loc></sitemap>`).join("\n");
    return xmlResponse(
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${list}\n</sitemapindex>\n`,
    );
  }
  if (part === 0) return xmlResponse(urlset(pages));
  if (part > productParts) return new Response("No such sitemap part.", { status: 404 });
  const slice = part === 1 ? first : await catalog.sitemapProducts((part - 1) * maxUrls, maxUrls);
  return xmlResponse(urlset(productEntries(slice.value.rows)));
}

/** GET /robots.txt: crawl the shop, not its sign-in and API plumbing; the sitemap's address. */
export function robotsResponse(baseUrl: string): Response {
  const lines = [
    "User-agent: *",
    "Disallow: /login",
    "Disallow: /sign-up",
    "Disallow: /logout",
    "Disallow: /auth/",
    "Disallow: /api/",
    "Disallow: /user/",
    "Disallow: /demo-idp/",
    "",
    `Sitemap: ${new URL("/sitemap.xml", baseUrl)}`,
    "",
  ];
  return new Response(lines.join("\n"), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
