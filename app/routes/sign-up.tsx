import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, redirect, useNavigation } from "react-router";
import { Field, FormMessage } from "~/components/forms/field";
import { PasswordField } from "~/components/forms/password-field";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { pageMeta } from "~/components/layout/page-meta";
import { buttonClasses } from "~/components/ui/button";
import { accountsFor, takeGuestCartOf } from "~/context.server";
import { appendSetCookies } from "~/features/auth/auth.server";
import {
  MESSAGES,
  PASSWORD_RULES,
  refusingKnownCommonPasswords,
  signUpSchema,
} from "~/features/auth/auth-schema";
import { isCommonPassword } from "~/features/auth/common-passwords.server";
import { AuthCard } from "~/features/auth/components/auth-card";
import { GoogleSignIn } from "~/features/auth/components/google-sign-in";
import { useCommonPasswordCheck } from "~/features/auth/components/use-common-password-check";
import { setFlash } from "~/features/auth/flash.server";
import {
  failedSubmission,
  readSubmission,
  refusedSubmission,
  retryAfterHeaders,
  signedOutOrSentTo,
} from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/sign-up";

export function meta() {
  return pageMeta({ title: "Sign Up | Backline", description: "Create your Backline account." });
}

export const headers = retryAfterHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const accounts = accountsFor(request, context);
  await signedOutOrSentTo(accounts.sessions, "/");
  return { google: accounts.google.availability };
}

export async function action({ request, context }: Route.ActionArgs) {
  const accounts = accountsFor(request, context);
  const { submission, refused } = await readSubmission(request, signUpSchema);
  if (refused) return refused;
  if (isCommonPassword(submission.value.password)) {
    return failedSubmission(submission, 400, { fieldErrors: { password: [MESSAGES.passwordCommon] } });
  }
  const result = await accounts.credentials.signUp(submission.value);
  if (!result.ok) {
    return refusedSubmission(submission, result, {
      "email-taken": { status: 409, message: MESSAGES.emailTaken },
    });
  }
  const headers = appendSetCookies(new Headers(), result.headers);
  headers.append("Set-Cookie", await setFlash("signed-up", accounts.secureCookies));
  const guestCart = await takeGuestCartOf(request, context, result.user.id);
  if (guestCart) headers.append("Set-Cookie", guestCart);
  throw redirect("/", { headers });
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  const common = useCommonPasswordCheck();
  const [form, fields] = useForm({
    id: "sign-up",
    lastResult: actionData?.result,
    // The same schema as the server's, and the server's word on common passwords asked when the field was left.
    onValidate: ({ formData }) =>
      parseWithZod(formData, {
        schema: refusingKnownCommonPasswords(signUpSchema, "password", common.isKnownCommon),
      }),
    // A message appears when the field is left or the form sent, then follows the typing.
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction === "/sign-up";
  const formRef = useFailedSubmission(actionData?.result);

  return (
    <AuthCard title="Please SignUp">
      <Form ref={formRef} method="post" action="/sign-up" {...getFormProps(form)} className="space-y-5">
        <FormMessage id={form.errorId} errors={form.errors} />
        <Field meta={fields.name} label="Name" autoComplete="name" />
        <Field meta={fields.email} label="Email" type="email" autoComplete="email" />
        <Field meta={fields.photo} label="Photo URL" type="url" inputMode="url" placeholder="https://…" />
        <PasswordField
          meta={fields.password}
          label="Password"
          autoComplete="new-password"
          hint={PASSWORD_RULES}
          onBlur={common.checkOnBlur(() => form.validate({ name: fields.password.name }))}
        />
        <button type="submit" disabled={submitting} className={buttonClasses("primary", "md", "w-full")}>
          Sign Up
        </button>
      </Form>

      <div className="my-6 flex items-center gap-3 text-sm text-slate-600">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <GoogleSignIn availability={loaderData.google} redirectTo="/" />

      <p className="mt-8 text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link to="/login" className="font-semibold text-indigo-700 underline-offset-2 hover:underline">
          Log in
        </Link>
      </p>
    </AuthCard>
  );
}
