import { accountsFor } from "~/context.server";
import type { Accounts } from "~/features/auth/auth.server";
import { type UserRecordAnswer, userRecordSchema } from "~/features/auth/auth-schema";
import { apiError, methodNotAllowed, parsedJsonBody } from "~/utils/http.server";
import { logFailure } from "~/utils/logger.server";
import type { Route } from "./+types/api.user-create";

export function loader() {
  return methodNotAllowed(["PUT"]);
}

/**
 * PUT /user/api/create `{ email, name, photo }`: upserts the signed-in user's
 * own record (name and photo) and answers with it. 401 signed out, 403 for
 * anyone else's email, 400 for bad fields (photo: http(s) URLs only).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["PUT"]);
  try {
    return await upsertOwnRecord(request, accountsFor(request, context));
  } catch (error) {
    // The input was fine (it was parsed above); the database was not.
    logFailure(error, "user record upsert failed");
    return apiError(503, {
      code: "unavailable",
      message: "Your record could not be saved just now. Nothing was changed: please try again.",
    });
  }
}

async function upsertOwnRecord(request: Request, accounts: Accounts): Promise<Response> {
  const { user } = await accounts.sessions.current();
  if (!user) return apiError(401, { code: "unauthenticated", message: "Log in first." });

  const body = await parsedJsonBody(request, userRecordSchema, "{ email, name, photo }");
  if (!body.ok) return body.response;
  const record = body.value;
  if (record.email !== user.email) {
    return apiError(403, { code: "forbidden", message: "You can only update your own record." });
  }
  const updated = await accounts.account.updateProfile({
    name: record.name,
    image: record.photo === undefined ? user.image : record.photo,
  });
  if (!updated) return apiError(401, { code: "unauthenticated", message: "Log in first." });
  return Response.json(
    {
      id: updated.id,
      email: updated.email,
      name: updated.name,
      photo: updated.image ?? null,
    } satisfies UserRecordAnswer,
    { headers: { "Cache-Control": "no-store" } },
  );
}
