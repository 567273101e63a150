import { checkoutVisitorOf, servicesContext, shoppingRefusalOf } from "~/context.server";
import { quoteResponse } from "~/features/orders/checkout-quote.server";
import { actionOnlyLoader, methodNotAllowed } from "~/utils/http.server";
import { shoppingRefusalResponse } from "~/utils/shopping-rate-limit.server";
import type { Route } from "./+types/api.checkout-quote";

/** POST /api/checkout/quote: what the visitor's cart comes to at an address (shipping, taxes, total). */
const METHODS = ["POST"];

export const loader = actionOnlyLoader(METHODS);

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(METHODS);
  // A quote is asked as a cart is changed (each address or method the shopper tries): counted as one.
  const refused = await shoppingRefusalOf(context, "cart-change");
  if (refused) return shoppingRefusalResponse("cart-change", refused.retryAfterSeconds);
  const visitor = await checkoutVisitorOf(request, context);
  const { database, settings, taxShipping } = context.get(servicesContext);
  const [setup, { currency }] = await Promise.all([taxShipping.current(), settings.current()]);
  return quoteResponse(request, { db: database.db, cartId: visitor.cart?.id ?? null, setup, currency });
}
