import { createHash } from "node:crypto";
import { z } from "~/utils/zod";

const fieldErrorSchema = z.object({
  field: z
    .answerString()
    .describe("The parameter or field, by its path (`shippingAddress.city`, `taxZones[0].rate`)."),
  message: z.answerString().describe("What is wrong with it."),
});

/** The JSON API's error answer, as sent and as documented in /openapi.json. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.answerString().describe("What went wrong, for a program: invalid_parameter, invalid_field, …"),
    message: z.answerString().describe("What went wrong, in words a person can act on."),
    field: z
      .answerString()
      .optional()
      .describe("The parameter or field at fault, when one is (the first of `fields`)."),
    fields: z
      .array(fieldErrorSchema)
      .optional()
      .describe(
        "Every parameter or field at fault, each with its message, whenever `field` is given: fix them all at once.",
      ),
  }),
});

export type ApiError = z.infer<typeof apiErrorSchema>["error"];

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * The body of a JSON error: `{ "error": { code, message, field?, fields? } }`.
 * An error about a field always lists it in `fields` too, so a client reads
 * every bad field from one place however many there are.
 */
export function apiErrorBody(error: ApiError): string {
  const { field, message } = error;
  return JSON.stringify({
    error: field && !error.fields ? { ...error, fields: [{ field, message }] } : error,
  });
}

/** The JSON API's error answer (apiErrorBody), never cached. */
export function apiError(status: number, error: ApiError, headers: Record<string, string> = {}): Response {
  return new Response(apiErrorBody(error), {
    status,
    headers: { "Content-Type": JSON_TYPE, "Cache-Control": "no-store", ...headers },
  });
}

/** A field's path as JSON paths write it: `shippingAddress.city`, `taxZones[0].rate`. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, at) => (typeof part === "number" ? `[${part}]` : `${at > 0 ? "." : ""}${String(part)}`))
    .join("");
}

/**
 * The 400 for a schema's refusal: every field at fault by its path, each
 * with its first message, in the order the schema checks them; the first
 * is also `field` and `message`. Null when no issue names a field (the
 * value as a whole is wrong: the caller's `invalid_body`).
 */
function invalidFieldsError(error: z.ZodError, code = "invalid_field"): ApiError | null {
  const fields = new Map<string, string>();
  for (const issue of error.issues) {
    const field = fieldPath(issue.path);
    if (field && !fields.has(field)) fields.set(field, issue.message);
  }
  const [first] = fields;
  if (!first) return null;
  return {
    code,
    field: first[0],
    message: first[1],
    fields: [...fields].map(([field, message]) => ({ field, message })),
  };
}

/** 405 for a method this URL does not take, with the methods it does. */
export function methodNotAllowed(allowed: readonly string[]): Response {
  return apiError(
    405,
    {
      code: "method_not_allowed",
      message: `Only ${allowed.join(" and ")} ${allowed.length > 1 ? "are" : "is"} allowed here.`,
    },
    { Allow: allowed.join(", ") },
  );
}

/** The loader of a URL that only takes actions (`allowed`): OPTIONS says which, anything else is a 405. */
export function actionOnlyLoader(allowed: readonly string[]) {
  return ({ request }: { request: Request }): Response =>
    request.method === "OPTIONS" ? allowedMethods(allowed) : methodNotAllowed(allowed);
}

/**
 * A JSON body parsed by `schema`, or the 400 to answer: `invalid_body` for one
 * that is not JSON or not an object (`shape` says what is expected), otherwise
 * `invalid_field` naming every bad field by its path (`shippingAddress.city`).
 */
export async function parsedJsonBody<T extends z.ZodType>(
  request: Request,
  schema: T,
  shape: string,
): Promise<{ ok: true; value: z.output<T> } | { ok: false; response: Response }> {
  const invalid = { code: "invalid_body", message: `The body must be a JSON object: ${shape}.` };
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return { ok: false, response: apiError(400, invalid) };
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, response: apiError(400, invalidFieldsError(parsed.error) ?? invalid) };
}

/**
 * An OPTIONS request's answer: which methods this URL takes. The router hands
 * OPTIONS to loaders; an API loader answers it with this instead of data.
 */
export function allowedMethods(allowed: readonly string[]): Response {
  return new Response(null, {
    status: 204,
    headers: { Allow: allowed.join(", "), "Cache-Control": "no-store" },
  });
}

/**
 * A JSON answer that a client may cache and revalidate: it carries an ETag
 * of its body, and a request whose If-None-Match already names that body gets
 * 304 with no body.
 */
export function cacheableJson(
  request: Request,
  answer: { json: string; etag: string },
  cacheControl: string,
): Response {
  const headers = {
    "Content-Type": JSON_TYPE,
    "Cache-Control": cacheControl,
    ETag: answer.etag,
    Vary: "Accept-Encoding",
  };
  if (matchesEtag(request.headers.get("If-None-Match"), answer.etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(answer.json, { status: 200, headers });
}

/** A weak ETag of a JSON body: the bytes on the wire may be compressed on the way out. */
export function etagOf(json: string): string {
  return `W/"${createHash("sha1").update(json).digest("base64url")}"`;
}

function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((candidate) => opaque(candidate) === opaque(etag));
}
