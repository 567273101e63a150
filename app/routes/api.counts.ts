import { catalogClientFor, servicesContext } from "~/context.server";
import { countsResponse } from "~/features/catalog/browsing/catalog-api.server";
import { allowedMethods, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/api.counts";

/** GET /counts?search&category&band&range: `{ "count": N }` for the same filters as /all-products. */
const METHODS = ["GET", "HEAD"];

export function loader({ request, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  return countsResponse(context.get(servicesContext).catalog, request, catalogClientFor(context));
}

export function action() {
  return methodNotAllowed(METHODS);
}
