import { cartVisitorOf } from "~/context.server";
import { lineResponse } from "~/features/cart/cart-api.server";
import { allowedMethods, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/api.cart-line";

/** PATCH /api/cart/lines/{lineId} `{ quantity }` (0 removes), DELETE /api/cart/lines/{lineId}. */
const METHODS = ["PATCH", "DELETE"];

export function loader({ request }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  return methodNotAllowed(METHODS);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (!METHODS.includes(request.method)) return methodNotAllowed(METHODS);
  return lineResponse(request, await cartVisitorOf(request, context), params.lineId);
}
