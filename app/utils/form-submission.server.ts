import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { z } from "./zod";

/*
 * How every page's form is read on the server: the body must be a web form,
 * it is checked against the schema its page uses, and a failure goes back
 * with its messages and what was typed (never a password).
 */

const FORM_UNREADABLE =
  "This form could not be read. Send it as a web form (application/x-www-form-urlencoded).";

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
  throw data(FORM_UNREADABLE, { status: 415, headers: { "Cache-Control": "no-store" } });
}

interface Failure {
  formErrors?: string[];
  fieldErrors?: Record<string, string[]>;
}

/** The fields that hold a password: never sent back to the browser. */
const PASSWORD_FIELDS = ["password", "currentPassword", "newPassword"];

/**
 * A form that did not go through: it comes back with its messages
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

/**
 * A form checked against its schema (the one its page checks it with): the
 * submission, or else `refused`, the 400 that sends the form back with its
 * messages, for the action to return.
 */
export function checkedSubmission<Fields, Value>(form: FormData, schema: z.ZodType<Value, Fields>) {
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return { refused: failedSubmission(submission, 400) };
  return { submission };
}

/** The posted form (readForm) checked against its schema (checkedSubmission). */
export async function readSubmission<Fields, Value>(request: Request, schema: z.ZodType<Value, Fields>) {
  return checkedSubmission(await readForm(request), schema);
}
