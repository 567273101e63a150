import { checkoutVisitorOf, shoppingRefusalOf } from "~/context.server";
import { checkoutResponse } from "~/features/orders/checkout-api.server";
import { actionOnlyLoader, methodNotAllowed } from "~/utils/http.server";
import { shoppingRefusalResponse } from "~/utils/shopping-rate-limit.server";
import type { Route } from "./+types/api.checkout";

/** POST /api/checkout with an Idempotency-Key: the visitor's cart becomes an order. */
const METHODS = ["POST"];

export const loader = actionOnlyLoader(METHODS);

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(METHODS);
  const refused = await shoppingRefusalOf(context, "checkout");
  if (refused) return shoppingRefusalResponse("checkout", refused.retryAfterSeconds);
  return checkoutResponse(request, await checkoutVisitorOf(request, context));
}
