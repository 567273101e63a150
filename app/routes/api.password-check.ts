import { accountsFor } from "~/context.server";
import { type PasswordCheckAnswer, passwordCheckSchema } from "~/features/auth/auth-schema";
import { refusalFor } from "~/features/auth/route-helpers.server";
import { apiError, methodNotAllowed, parsedJsonBody } from "~/utils/http.server";
import type { Route } from "./+types/api.password-check";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/password-check `{ password }` → `{ tooCommon }`: whether the shop
 * refuses the password as too common. The new-password fields ask when they
 * are left, so the shopper hears it before sending the form; the list of
 * common passwords (~49,000) stays on the server, out of the pages' scripts
 * (docs/decisions/0005). Counted per address before the password is read;
 * other sites are refused before any route (the cross-site guard); the
 * password is never stored nor logged, and the answer is never cached.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { credentials } = accountsFor(request, context);
  const body = await parsedJsonBody(request, passwordCheckSchema, "{ password }");
  if (!body.ok) return body.response;
  const result = await credentials.checkCommonPassword(body.value.password);
  if (!result.ok) {
    const { status, message, headers } = refusalFor(result);
    return apiError(status, { code: "rate_limited", message }, headers);
  }
  return Response.json({ tooCommon: result.tooCommon } satisfies PasswordCheckAnswer, {
    headers: { "Cache-Control": "no-store" },
  });
}
