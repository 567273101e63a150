import type { Submission } from "@conform-to/react";
import { redirect } from "react-router";
import { failedSubmission } from "~/utils/form-submission.server";
import type { RateLimited } from "./auth-core.server";
import { MESSAGES } from "./auth-schema";
import { loginPath } from "./redirect";

// The shop's form reading (app/utils), shared with the cart and checkout; the account routes take it from here.
export {
  checkedSubmission,
  failedSubmission,
  readForm,
  readSubmission,
} from "~/utils/form-submission.server";

import type { Sessions } from "./services/sessions.server";

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
