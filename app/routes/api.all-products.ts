import { servicesContext } from "~/context.server";
import { parseCatalogQuery } from "~/features/catalog/catalog-schema";
import { apiError, cacheableJson, catalogUnavailable, unlessUnavailable } from "~/utils/http.server";
import type { Route } from "./+types/api.all-products";

/** GET /all-products: one page of products, as an array. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseCatalogQuery(new URL(request.url).searchParams);
  if (!query.ok) return apiError(400, query.error);
  const products = await unlessUnavailable(context.get(servicesContext).catalog.findProducts(query.value));
  if (!products) return catalogUnavailable();
  return cacheableJson(request, products);
}
