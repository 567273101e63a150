import { servicesContext } from "~/context.server";
import { parseCatalogFilters } from "~/features/catalog/catalog-schema";
import { apiError, cacheableJson, catalogUnavailable, unlessUnavailable } from "~/utils/http.server";
import type { Route } from "./+types/api.counts";

/** GET /counts: `{ "count": N }` for the same filters as /all-products. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const filters = parseCatalogFilters(new URL(request.url).searchParams);
  if (!filters.ok) return apiError(400, filters.error);
  const count = await unlessUnavailable(context.get(servicesContext).catalog.countProducts(filters.value));
  if (count === null) return catalogUnavailable();
  return cacheableJson(request, { count });
}
