import { cartVisitorOf } from "~/context.server";
import { cartResponse } from "~/features/cart/cart-api.server";
import { allowedMethods, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/api.cart";

/** GET /api/cart: the visitor's cart (a guest's by its cookie, a signed-in shopper's by their account). */
const METHODS = ["GET", "HEAD"];

export async function loader({ request, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  return cartResponse(request, await cartVisitorOf(request, context));
}

export function action() {
  return methodNotAllowed(METHODS);
}
