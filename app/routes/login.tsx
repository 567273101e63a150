import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, replace, useNavigation } from "react-router";
import { Field, FormMessage } from "~/components/forms/field";
import { PasswordField } from "~/components/forms/password-field";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { pageMeta } from "~/components/layout/page-meta";
import { buttonClasses } from "~/components/ui/button";
import { accountsFor, takeGuestCartOf } from "~/context.server";
import { appendSetCookies } from "~/features/auth/auth.server";
import { loginSchema, MESSAGES } from "~/features/auth/auth-schema";
import { AuthCard } from "~/features/auth/components/auth-card";
import { GoogleSignIn } from "~/features/auth/components/google-sign-in";
import { setFlash } from "~/features/auth/flash.server";
import { safeRedirectPath } from "~/features/auth/redirect";
import {
  checkedSubmission,
  readForm,
  refusedSubmission,
  retryAfterHeaders,
  signedOutOrSentTo,
} from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/login";

export function meta() {
  return pageMeta({ title: "Login | Backline", description: "Log in to your Backline account." });
}

export const headers = retryAfterHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const accounts = accountsFor(request, context);
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  await signedOutOrSentTo(accounts.sessions, redirectTo);
  return { redirectTo, google: accounts.google.availability };
}

export async function action({ request, context }: Route.ActionArgs) {
  const accounts = accountsFor(request, context);
  const form = await readForm(request);
  const redirectTo = safeRedirectPath(form.get("redirectTo"));
  const { submission, refused } = checkedSubmission(form, loginSchema);
  if (refused) return refused;
  const result = await accounts.credentials.logIn(submission.value);
  if (!result.ok) {
    return refusedSubmission(submission, result, {
      "invalid-credentials": { status: 401, message: MESSAGES.loginFailed },
    });
  }
  const headers = appendSetCookies(new Headers(), result.headers);
  headers.append("Set-Cookie", await setFlash("logged-in", accounts.secureCookies));
  const guestCart = await takeGuestCartOf(request, context, result.user.id);
  if (guestCart) headers.append("Set-Cookie", guestCart);
  // Back where the visitor came from, replacing /login in the history.
  throw replace(redirectTo, { headers });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { google, redirectTo } = loaderData;
  const [form, fields] = useForm({
    id: "login",
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
    // A message appears when the field is left or the form sent, then follows the typing.
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && Boolean(navigation.formAction?.startsWith("/login"));
  const formRef = useFailedSubmission(actionData?.result);

  return (
    <AuthCard title="Please Login">
      <Form
        ref={formRef}
        method="post"
        // The target rides in the URL too, so it survives a failed attempt's page without JavaScript.
        action={redirectTo === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(redirectTo)}`}
        replace
        {...getFormProps(form)}
        className="space-y-5"
      >
        <FormMessage id={form.errorId} errors={form.errors} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field meta={fields.email} label="Email" type="email" autoComplete="email" />
        <PasswordField meta={fields.password} label="Password" autoComplete="current-password" />
        <p className="-mt-2 text-right text-sm">
          <Link
            to="/forgot-password"
            className="font-semibold text-indigo-700 underline underline-offset-2 hover:no-underline"
          >
            Forgot your password?
          </Link>
        </p>
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
