import { data } from "react-router";
import { MESSAGES } from "./auth-schema";

/**
 * The posted form, or a 415 error page when the body is not a web form (the
 * shop's forms post application/x-www-form-urlencoded or multipart/form-data;
 * anything else is a client that is not one of them).
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (/^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(type)) {
    try {
      return await request.formData();
    } catch {
      // A malformed body of the right type: the same answer as a wrong type.
    }
  }
  throw data(MESSAGES.formUnreadable, { status: 415, headers: { "Cache-Control": "no-store" } });
}

/** 503 with a message saying nothing changed, for a form action whose service failed. */
export function unavailable<T extends object>(extra: T) {
  return data(
    { ...extra, formError: MESSAGES.unavailable },
    { status: 503, headers: { "Retry-After": "5" } },
  );
}

/** 429 with Retry-After and PRODUCT's message, for a form action. */
export function tooManyAttempts<T extends object>(retryAfterSeconds: number, extra: T) {
  return data(
    { ...extra, formError: MESSAGES.tooManyAttempts(retryAfterSeconds) },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}

/** Passes an action's Retry-After on to the document response (no-JavaScript form posts). */
export function retryAfterHeaders({ actionHeaders }: { actionHeaders: Headers }): HeadersInit {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter
    ? { "Retry-After": retryAfter, "Cache-Control": "no-store" }
    : { "Cache-Control": "no-store" };
}
