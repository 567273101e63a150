import { backOfficeApiVisitorOf, servicesContext } from "~/context.server";
import { setupNotFound, setupResponse } from "~/features/tax-and-shipping/setup-api.server";
import type { Route } from "./+types/api.admin.tax-and-shipping";

/** GET and PUT /api/admin/tax-and-shipping: the shop's tax and shipping setup as one document (staff and owners). */
async function answer({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const visitor = await backOfficeApiVisitorOf(request, context);
  if (!visitor) return setupNotFound();
  const { settings, taxShipping } = context.get(servicesContext);
  const { currency } = await settings.current();
  return setupResponse(request, { actor: visitor.actor, store: taxShipping, currency });
}

export const loader = answer;
export const action = answer;
