import type { Submission } from "@conform-to/react";
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

interface Failure {
  formErrors?: string[];
  fieldErrors?: Record<string, string[]>;
}

/** The fields that hold a password: never sent back to the browser. */
const PASSWORD_FIELDS = ["password", "currentPassword", "newPassword"];

/**
 * An account form that did not go through: it comes back with its messages
 * (the form's own, or a field's) and what was typed — never a password.
 */
export function failedSubmission(
  submission: Submission<unknown>,
  status: number,
  failure: Failure = {},
  headers: Record<string, string> = {},
) {
  return data({ result: submission.reply({ ...failure, hideFields: PASSWORD_FIELDS }) }, { status, headers });
}

/** 429 with Retry-After and PRODUCT's message. */
export function tooManyAttempts(submission: Submission<unknown>, retryAfterSeconds: number) {
  return failedSubmission(
    submission,
    429,
    { formErrors: [MESSAGES.tooManyAttempts(retryAfterSeconds)] },
    { "Retry-After": String(retryAfterSeconds) },
  );
}

/** 503 with a message saying nothing changed: the service behind the form failed. */
export function unavailable(submission: Submission<unknown>) {
  return failedSubmission(submission, 503, { formErrors: [MESSAGES.unavailable] }, { "Retry-After": "5" });
}

/** Passes an action's (or else the loader's) Retry-After on to the document response (no-JavaScript form posts, links). */
export function retryAfterHeaders({
  actionHeaders,
  loaderHeaders,
}: {
  actionHeaders: Headers;
  loaderHeaders: Headers;
}): HeadersInit {
  const retryAfter = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  return retryAfter
    ? { "Retry-After": retryAfter, "Cache-Control": "no-store" }
    : { "Cache-Control": "no-store" };
}
