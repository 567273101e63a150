import { servicesContext } from "~/context.server";
import { databaseAnswers } from "~/db/health.server";
import { allowedMethods, methodNotAllowed } from "~/utils/http.server";
import type { Route } from "./+types/healthz";

/**
 * GET /healthz, for load balancers: 200 once the process has read its search
 * index and while the database answers; 503 before (`starting`: at a million
 * products the index takes seconds to read, and until then the catalogue's
 * answers come from SQL, slower than a balancer should send traffic to), while
 * the database does not answer, and while the process shuts down (so the
 * balancer moves on before the process stops accepting).
 */
const METHODS = ["GET", "HEAD"];

export async function loader({ request, context }: Route.LoaderArgs) {
  if (request.method === "OPTIONS") return allowedMethods(METHODS);
  const { database, lifecycle, catalog } = context.get(servicesContext);
  if (lifecycle.draining) return health(503, "shutting-down");
  if (!(await databaseAnswers(database))) return health(503, "unavailable");
  return catalog.ready() ? health(200, "ok") : health(503, "starting");
}

export function action() {
  return methodNotAllowed(METHODS);
}

function health(status: number, state: "ok" | "starting" | "unavailable" | "shutting-down") {
  return Response.json({ status: state }, { status, headers: { "Cache-Control": "no-store" } });
}
