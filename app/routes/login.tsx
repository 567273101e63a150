import { data, Form, Link, replace, useNavigation } from "react-router";
import { pageMeta } from "~/components/layout/page-meta";
import { buttonClasses } from "~/components/ui/button";
import { accountsFor } from "~/context.server";
import { appendSetCookies } from "~/features/auth/auth.server";
import { fieldErrors, formFields, loginSchema, MESSAGES } from "~/features/auth/auth-schema";
import { AuthCard, FormMessage } from "~/features/auth/components/auth-card";
import { FormField } from "~/features/auth/components/form-field";
import { GoogleSignIn } from "~/features/auth/components/google-sign-in";
import { PasswordField } from "~/features/auth/components/password-field";
import { useFailedSubmission } from "~/features/auth/components/use-failed-submission";
import { useFieldValidation } from "~/features/auth/components/use-field-validation";
import { flashCookie } from "~/features/auth/flash.server";
import { safeRedirectPath } from "~/features/auth/redirect";
import {
  readForm,
  retryAfterHeaders,
  tooManyAttempts,
  unavailable,
} from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/login";

export function meta() {
  return pageMeta({ title: "Login | Backline", description: "Log in to your Backline account." });
}

export const headers = retryAfterHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth } = accountsFor(request, context);
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  // Already signed in: nothing to do here.
  if ((await auth.getSession(request)).user) throw replace(redirectTo);
  return { redirectTo, google: auth.google };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, address } = accountsFor(request, context);
  const fields = formFields(await readForm(request), ["email", "password", "redirectTo"] as const);
  const redirectTo = safeRedirectPath(fields.redirectTo);
  const values = { email: fields.email, redirectTo };
  const parsed = loginSchema.safeParse(fields);
  if (!parsed.success) {
    return data({ values, fieldErrors: fieldErrors(parsed.error), formError: undefined }, { status: 400 });
  }
  const result = await auth.logIn(request, parsed.data, address);
  if (!result.ok) {
    if (result.reason === "rate-limited")
      return tooManyAttempts(result.retryAfterSeconds, { values, fieldErrors: {} });
    if (result.reason === "unavailable") return unavailable({ values, fieldErrors: {} });
    return data({ values, fieldErrors: {}, formError: MESSAGES.loginFailed }, { status: 401 });
  }
  const headers = appendSetCookies(new Headers(), result.headers);
  headers.append("Set-Cookie", flashCookie("logged-in", auth.secureCookies));
  // Back where the visitor came from, replacing /login in the history.
  throw replace(redirectTo, { headers });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { google } = loaderData;
  // After a failed attempt the page URL is the bare /login: keep the target from the form.
  const redirectTo = actionData?.values.redirectTo ?? loaderData.redirectTo;
  const validation = useFieldValidation(loginSchema, actionData?.fieldErrors);
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && Boolean(navigation.formAction?.startsWith("/login"));

  const formRef = useFailedSubmission(actionData);

  return (
    <AuthCard title="Please Login">
      <Form
        ref={formRef}
        method="post"
        action={redirectTo === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(redirectTo)}`}
        replace
        noValidate
        onChange={validation.onChange}
        onSubmit={validation.onSubmit}
        aria-describedby={actionData?.formError ? "login-error" : undefined}
        className="space-y-5"
      >
        <FormMessage id="login-error" message={actionData?.formError} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormField
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          defaultValue={actionData?.values.email}
          error={validation.errors.email}
        />
        <PasswordField
          name="password"
          label="Password"
          autoComplete="current-password"
          error={validation.errors.password}
        />
        <button type="submit" disabled={submitting} className={buttonClasses("primary", "md", "w-full")}>
          Login
        </button>
      </Form>

      <div className="my-6 flex items-center gap-3 text-sm text-slate-500">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <GoogleSignIn availability={google} redirectTo={redirectTo} />

      <p className="mt-8 text-center text-sm text-slate-600">
        New to Backline?{" "}
        <Link to="/sign-up" className="font-semibold text-indigo-700 underline-offset-2 hover:underline">
          Create an account
        </Link>
      </p>
    </AuthCard>
  );
}
