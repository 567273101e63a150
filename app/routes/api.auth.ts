import { accountsFor } from "~/context.server";
import { apiError } from "~/utils/http.server";
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

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

async function handle({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const { pathname, searchParams } = new URL(request.url);
  if (!EXPOSED.test(pathname)) return apiError(404, { code: "not_found", message: "Not found." });
  // A provider sends codes and state as plain text; anything else never reaches the database.
  for (const [name, value] of searchParams) {
    if (CONTROL_CHARACTERS.test(value)) {
      return apiError(400, {
        code: "invalid_parameter",
        field: name,
        message: `${name} must not contain control characters.`,
      });
    }
  }
  return accountsFor(request, context).google.callback();
}

export const loader = handle;
export const action = handle;
