import { catalogClientFor, servicesContext } from "~/context.server";
import { allProductsResponse } from "~/features/catalog/browsing/catalog-api.server";
import { allowedMethods, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/api.all-products";

/** GET /all-products?page&size&sort&search&category&band&range: one page of products (docs/api.md). */
const METHODS = ["GET", "HEAD"];

export function loader({ request, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  return allProductsResponse(context.get(servicesContext).catalog, request, catalogClientFor(context));
}

export function action() {
  return methodNotAllowed(METHODS);
}
