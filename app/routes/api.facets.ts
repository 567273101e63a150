import { catalogClientFor, servicesContext } from "~/context.server";
import { facetsResponse } from "~/features/catalog/browsing/catalog-api.server";
import { allowedMethods, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/api.facets";

/** GET /facets?search&category&band&range: the count, and each brand and category with its label and count. */
const METHODS = ["GET", "HEAD"];

export function loader({ request, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  return facetsResponse(context.get(servicesContext).catalog, request, catalogClientFor(context));
}

export function action() {
  return methodNotAllowed(METHODS);
}
