import { data } from "react-router";
import { accountsFor } from "~/context.server";
import type { Route } from "./+types/api.auth";

/**
 * Better Auth's HTTP endpoints, mounted as a React Router resource route so it
 * shares the router context (database, rate limiter, client address) with the
 * rest of the shop. Only the OpenID Connect callback is exposed: sign-up,
 * login and logout go through the shop's own forms and actions, which add the
 * rate limits and the shared validation, so Better Auth's equivalents must
 * not be reachable around them.
 */
const EXPOSED = /^\/api\/auth\/callback\/[a-z0-9-]+$/;

async function handle({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const { pathname } = new URL(request.url);
  if (!EXPOSED.test(pathname))
    return data({ error: { code: "not_found", message: "Not found." } }, { status: 404 });
  const { auth, address } = accountsFor(request, context);
  return auth.handler(request, address);
}

export const loader = handle;
export const action = handle;
