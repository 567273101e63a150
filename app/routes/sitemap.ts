import { servicesContext } from "~/context.server";
import { unlessUnavailable } from "~/features/catalog/browsing/catalog-api.server";
import { sitemapResponse } from "~/features/catalog/browsing/sitemap.server";
import { allowedMethods, apiError, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/sitemap";

/** GET /sitemap.xml[?page=N]: the shop's pages and products for crawlers (a sitemap index when large). */
const METHODS = ["GET", "HEAD"];

export async function loader({ request, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  const { catalog, baseUrl } = context.get(servicesContext);
  const response = await unlessUnavailable(sitemapResponse(catalog, request, baseUrl));
  return (
    response ??
    apiError(
      503,
      { code: "catalog_unavailable", message: "The sitemap cannot be read right now." },
      { "Retry-After": "5" },
    )
  );
}

export function action() {
  return methodNotAllowed(METHODS);
}
