import { shopApiDocument } from "~/api-document.server";
import { allowedMethods, cacheableJson, etagOf, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/openapi";

/** GET /openapi.json: the JSON API's OpenAPI 3.1 description (app/api-document.server.ts). */
const METHODS = ["GET", "HEAD"];

let answer: { json: string; etag: string } | undefined;

export function loader({ request }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  if (!answer) {
    const json = JSON.stringify(shopApiDocument());
    answer = { json, etag: etagOf(json) };
  }
  return cacheableJson(request, answer, "public, max-age=300");
}

export function action() {
  return methodNotAllowed(METHODS);
}
