import { orderViewerOf } from "~/context.server";
import { orderApiResponse } from "~/features/orders/order-view.server";
import { allowedMethods, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/api.order";

/** GET /api/orders/{number}: the order, for its owner (session) or with its link's `?token=`; otherwise 404. */
const METHODS = ["GET", "HEAD"];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  return orderApiResponse(await orderViewerOf(request, context), params, new URL(request.url));
}

export function action() {
  return methodNotAllowed(METHODS);
}
