import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { z } from "~/utils/zod";
import type { RateLimited } from "./auth-core.server";
import { MESSAGES } from "./auth-schema";
import { loginPath } from "./redirect";
import type { Sessions } from "./services/sessions.server";

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

/** A service's refusal, however the route shows it: its status, its words, and when to come back. */
interface Refusal {
  status: number;
  message: string;
  /** The field the message belongs next to; none: the whole form's (or request's) problem. */
  field?: string;
  headers: Record<string, string>;
}

/** How a route answers one of its service's own refusals (a wrong password, an email taken). */
export interface RefusalAnswer {
  status: number;
  message: string;
  field?: string;
}

/** Any refusal from the account services: they all say why (`reason`), and a rate limit says how long to wait. */
type Refused = RateLimited | { ok: false; reason: string };

function isRateLimited(result: Refused): result is RateLimited {
  return result.reason === "rate-limited";
}

/** The reasons every route answers the same way, and those each route words for itself. */
type SharedReason = "rate-limited" | "unavailable";
type OwnReason<R extends Refused> = Exclude<R["reason"], SharedReason>;

/** The answers to a service's own reasons; nothing to pass when it has none (only the shared ones). */
type OwnAnswers<R extends Refused> = [OwnReason<R>] extends [never]
  ? []
  : [answers: { [K in OwnReason<R>]: RefusalAnswer }];

/**
 * What a refused request is told. Too many attempts: 429 with Retry-After and
 * PRODUCT's message; the service behind it failed: 503, nothing changed, try
 * again in 5 s; any other reason: the route's own answer for it.
 */
export function refusalFor<R extends Refused>(result: R, ...[answers]: OwnAnswers<R>): Refusal {
  if (isRateLimited(result)) {
    const seconds = result.retryAfterSeconds;
    return {
      status: 429,
      message: MESSAGES.tooManyAttempts(seconds),
      headers: { "Retry-After": String(seconds) },
    };
  }
  if (result.reason === "unavailable") {
    return { status: 503, message: MESSAGES.unavailable, headers: { "Retry-After": "5" } };
  }
  const own = (answers as Record<string, RefusalAnswer> | undefined)?.[result.reason];
  // Unreachable while the types hold: they ask each route for every reason of its own.
  if (!own) throw new Error(`no answer for the refusal "${result.reason}"`);
  return { ...own, headers: {} };
}

/** A refused form: it comes back with the refusal's message on its field, or for the whole form. */
export function refusedSubmission<R extends Refused>(
  submission: Submission<unknown>,
  result: R,
  ...answers: OwnAnswers<R>
) {
  const { status, message, field, headers } = refusalFor(result, ...answers);
  const failure = field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] };
  return failedSubmission(submission, status, failure, headers);
}

/**
 * The signed-in shopper, for a form only they may send; a visitor (or a
 * session that has ended) is sent to log in and comes back to `returnTo`.
 */
export async function signedInOrToLogin(sessions: Sessions, returnTo: string) {
  const { user } = await sessions.current();
  if (!user) throw redirect(loginPath(returnTo));
  return user;
}

/**
 * For a visitor's pages (login, sign-up): a shopper already signed in has
 * nothing to do there and goes on to `destination`.
 */
export async function signedOutOrSentTo(sessions: Sessions, destination: string) {
  const { user } = await sessions.current();
  if (user) throw redirect(destination);
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
