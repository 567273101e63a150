import { catalogClientFor, servicesContext } from "~/context.server";
import { suggestionsResponse } from "~/features/catalog/browsing/catalog-api.server";
import { allowedMethods, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/api.suggestions";

/** GET /suggestions?search: products, brands and categories for the search box's list as the shopper types. */
const METHODS = ["GET", "HEAD"];

export function loader({ request, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  return suggestionsResponse(context.get(servicesContext).catalog, request, catalogClientFor(context));
}

export function action() {
  return methodNotAllowed(METHODS);
}
