import { servicesContext } from "~/context.server";
import { stripeWebhookResponse } from "~/features/orders/card-payments/card-webhook.server";
import { actionOnlyLoader, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/api.webhooks.stripe";

/**
 * POST /api/webhooks/stripe: the address to register in Stripe's dashboard
 * (docs/operations.md, "Card payments"). Believed only once its signature verifies.
 */
const METHODS = ["POST"];

export const loader = actionOnlyLoader(METHODS);

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(METHODS);
  return stripeWebhookResponse(request, context.get(servicesContext).orders);
}
