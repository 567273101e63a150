import { cartVisitorOf, shoppingRefusalOf } from "~/context.server";
import { addLineResponse } from "~/features/cart/cart-api.server";
import { actionOnlyLoader, methodNotAllowed } from "~/utils/http.server";
import { shoppingRefusalResponse } from "~/utils/shopping-rate-limit.server";
import type { Route } from "./+types/api.cart-lines";

/** POST /api/cart/lines `{ productId, quantity }`: adds to the visitor's cart. */
const METHODS = ["POST"];

export const loader = actionOnlyLoader(METHODS);

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(METHODS);
  const refused = await shoppingRefusalOf(context, "cart-change");
  if (refused) return shoppingRefusalResponse("cart-change", refused.retryAfterSeconds);
  return addLineResponse(request, await cartVisitorOf(request, context));
}
