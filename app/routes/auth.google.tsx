import { data, Link, redirect } from "react-router";
import { accountsFor } from "~/context.server";
import { appendSetCookies } from "~/features/auth/auth.server";
import { formFields } from "~/features/auth/auth-schema";
import { GoogleSignInOutcome } from "~/features/auth/components/google-sign-in-outcome";
import { ATTEMPT_PATTERN, type GoogleSignInResult } from "~/features/auth/google-sign-in-message";
import { safeRedirectPath } from "~/features/auth/redirect";
import { readForm, refusalFor, retryAfterHeaders } from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/auth.google";

export const headers = retryAfterHeaders;

export function meta() {
  return [{ title: "Continue with Google | Backline" }, { name: "robots", content: "noindex" }];
}

// A GET renders the page below with no result (a link back to login); a
// loader redirect here would also swallow the action's 429 answer.
export function loader() {
  return null;
}

/**
 * POST /auth/google: starts OpenID Connect sign-in (authorization code with
 * PKCE, state and nonce — Better Auth keeps them, bound to this browser by a
 * signed cookie) and sends the browser, or the popup, to the provider.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const accounts = accountsFor(request, context);
  const fields = formFields(await readForm(request), ["redirectTo", "mode", "attempt"] as const);
  const redirectTo = safeRedirectPath(fields.redirectTo);
  const attempt = ATTEMPT_PATTERN.test(fields.attempt) ? fields.attempt : "";
  const popup = fields.mode === "popup" && attempt !== "";
  const done = new URLSearchParams({ redirectTo });
  if (popup) {
    done.set("popup", "1");
    done.set("attempt", attempt);
  }
  const doneUrl = `/auth/google/done?${done}`;
  const result = await accounts.google.start({ callbackURL: doneUrl, errorCallbackURL: doneUrl });
  if (result.ok) throw redirect(result.url, { headers: appendSetCookies(new Headers(), result.headers) });

  const { status, message, headers } = refusalFor(result, {
    "not-configured": { status: 404, message: "Google sign-in is not configured on this shop." },
  });
  const failure: GoogleSignInResult = { ok: false, message };
  return data({ attempt, redirectTo, result: failure }, { status, headers });
}

export default function GoogleStart({ actionData }: Route.ComponentProps) {
  if (!actionData) {
    return (
      <main id="main" className="mx-auto max-w-md px-4 py-16 text-center">
        <h1 className="text-2xl font-bold text-slate-900">Continue with Google</h1>
        <p className="mt-4 text-slate-600">
          Start from the{" "}
          <Link to="/login" className="font-semibold text-indigo-700 underline">
            login page
          </Link>
          .
        </p>
      </main>
    );
  }
  return (
    <GoogleSignInOutcome
      attempt={actionData.attempt}
      redirectTo={actionData.redirectTo}
      result={actionData.result}
    />
  );
}
