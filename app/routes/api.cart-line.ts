import { cartVisitorOf, shoppingRefusalOf } from "~/context.server";
import { lineResponse } from "~/features/cart/cart-api.server";
import { actionOnlyLoader, methodNotAllowed } from "~/utils/http.server";
import { shoppingRefusalResponse } from "~/utils/shopping-rate-limit.server";
import type { Route } from "./+types/api.cart-line";

/** PATCH /api/cart/lines/{lineId} `{ quantity }` (0 removes), DELETE /api/cart/lines/{lineId}. */
const METHODS = ["PATCH", "DELETE"];

export const loader = actionOnlyLoader(METHODS);

export async function action({ request, context, params }: Route.ActionArgs) {
  if (!METHODS.includes(request.method)) return methodNotAllowed(METHODS);
  const refused = await shoppingRefusalOf(context, "cart-change");
  if (refused) return shoppingRefusalResponse("cart-change", refused.retryAfterSeconds);
  return lineResponse(request, await cartVisitorOf(request, context), params.lineId);
}
