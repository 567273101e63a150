import { servicesContext } from "~/context.server";
import { pictureResponse } from "~/features/catalog/product-pictures.server";
import { allowedMethods, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/picture";

/** GET /pictures/:name: a product picture the owner imported (app/features/catalog/product-pictures.server.ts). */
const METHODS = ["GET", "HEAD"];

export function loader({ request, params, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  return pictureResponse(context.get(servicesContext).catalog.pictures, request, params.name);
}

export function action() {
  return methodNotAllowed(METHODS);
}
