import { servicesContext } from "~/context.server";
import { productApiResponse } from "~/features/catalog/browsing/product-api.server";
import { allowedMethods, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/api.product";

/** GET /api/products/{id}: one product with its options and variants; 404 for a missing or archived one. */
const METHODS = ["GET", "HEAD"];

export function loader({ request, params, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  const { catalog, database } = context.get(servicesContext);
  return productApiResponse(catalog, database.db, params.id);
}

export function action() {
  return methodNotAllowed(METHODS);
}
