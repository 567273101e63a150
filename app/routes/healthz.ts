import { servicesContext } from "~/context.server";
import { databaseAnswers } from "~/db/health.server";
import { allowedMethods, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/healthz";

/**
 * GET /healthz, for load balancers: 200 while the database answers; 503 while
 * it does not, and while the process shuts down (so the balancer moves on
 * before the process stops accepting).
 */
const METHODS = ["GET", "HEAD"];

export async function loader({ request, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  const { database, lifecycle } = context.get(servicesContext);
  if (lifecycle.draining) return health(503, "shutting-down");
  return (await databaseAnswers(database)) ? health(200, "ok") : health(503, "unavailable");
}

export function action() {
  return methodNotAllowed(METHODS);
}

function health(status: number, state: "ok" | "unavailable" | "shutting-down") {
  return Response.json({ status: state }, { status, headers: { "Cache-Control": "no-store" } });
}
