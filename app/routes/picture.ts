import { servicesContext } from "~/context.server";
import { pictureResponse } from "~/features/catalog/management/index.server";
import { allowedMethods, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/picture";

/** GET /pictures/:name: a product picture the owner imported (app/features/catalog/management/product-pictures.server.ts). */
const METHODS = ["GET", "HEAD"];

export function loader({ request, params, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  return pictureResponse(context.get(servicesContext).pictures, request, params.name);
}

export function action() {
  return methodNotAllowed(METHODS);
}
