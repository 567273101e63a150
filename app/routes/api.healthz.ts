import { servicesContext } from "~/context.server";
import type { Route } from "./+types/api.healthz";

const PING_TIMEOUT_MS = 2_000;

/** 200 once the database answers, 503 while it does not: for load balancers and start-up scripts. */
export async function loader({ context }: Route.LoaderArgs) {
  const headers = { "Cache-Control": "no-store" };
  try {
    await Promise.race([
      context.get(servicesContext).database.ping(),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), PING_TIMEOUT_MS).unref()),
    ]);
    return Response.json({ status: "ok" }, { headers });
  } catch {
    return Response.json({ status: "unavailable" }, { status: 503, headers });
  }
}
