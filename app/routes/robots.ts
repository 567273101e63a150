import { servicesContext } from "~/context.server";
import { robotsResponse } from "~/features/catalog/browsing/sitemap.server";
import { allowedMethods, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/robots";

/** GET /robots.txt. */
const METHODS = ["GET", "HEAD"];

export function loader({ request, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  return robotsResponse(context.get(servicesContext).baseUrl);
}

export function action() {
  return methodNotAllowed(METHODS);
}
