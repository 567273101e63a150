import { data, redirect, redirectDocument } from "react-router";
import { orderViewerOf, shoppingRefusalOf } from "~/context.server";
import { cardPaymentRequest } from "~/features/orders/order-view.server";
import { actionOnlyLoader } from "~/utils/http.server";
import type { Route } from "./+types/order.pay";

/**
 * POST /orders/BL-7Q4K9/pay (the order page's "Pay by card"): to Stripe's
 * page for a card order waiting for its payment, back to the order's page
 * for any other. The order's owner, or the holder of its signed link
 * (?token=…), and nobody else: the same 404 as the order's page.
 */
export const loader = actionOnlyLoader(["POST"]);

export async function action({ request, params, context }: Route.ActionArgs) {
  const refused = await shoppingRefusalOf(context, "checkout");
  if (refused) {
    throw data("Too many payment attempts in a short time. Try again in a minute.", {
      status: 429,
      headers: { "Retry-After": String(refused.retryAfterSeconds) },
    });
  }
  const next = await cardPaymentRequest(await orderViewerOf(request, context), params, new URL(request.url));
  if (next.outcome === "not-found") throw data(null, { status: 404 });
  // Stripe's page is another document (another site; the demo's stand-in is not one of the app's routes).
  throw next.document ? redirectDocument(next.to, 303) : redirect(next.to, 303);
}
