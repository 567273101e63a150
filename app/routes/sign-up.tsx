import { data, Form, Link, redirect, useNavigation } from "react-router";
import { pageMeta } from "~/components/layout/page-meta";
import { buttonClasses } from "~/components/ui/button";
import { accountsFor } from "~/context.server";
import { appendSetCookies } from "~/features/auth/auth.server";
import { fieldErrors, formFields, MESSAGES, signUpSchema } from "~/features/auth/auth-schema";
import { isCommonPassword } from "~/features/auth/common-passwords.server";
import { AuthCard, FormMessage } from "~/features/auth/components/auth-card";
import { FormField } from "~/features/auth/components/form-field";
import { PasswordField } from "~/features/auth/components/password-field";
import { useFailedSubmission } from "~/features/auth/components/use-failed-submission";
import { useFieldValidation } from "~/features/auth/components/use-field-validation";
import { flashCookie } from "~/features/auth/flash.server";
import {
  readForm,
  retryAfterHeaders,
  tooManyAttempts,
  unavailable,
} from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/sign-up";

export function meta() {
  return pageMeta({ title: "Sign Up | Backline", description: "Create your Backline account." });
}

export const headers = retryAfterHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth } = accountsFor(request, context);
  if ((await auth.getSession(request)).user) throw redirect("/");
  return null;
}

const FIELDS = ["name", "email", "photo", "password"] as const;

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, address } = accountsFor(request, context);
  const fields = formFields(await readForm(request), FIELDS);
  // What the user typed comes back into the form, except the password.
  const values = { name: fields.name, email: fields.email, photo: fields.photo };
  const parsed = signUpSchema.safeParse(fields);
  if (!parsed.success) {
    return data({ values, fieldErrors: fieldErrors(parsed.error), formError: undefined }, { status: 400 });
  }
  if (isCommonPassword(parsed.data.password)) {
    return data(
      { values, fieldErrors: { password: MESSAGES.passwordCommon }, formError: undefined },
      { status: 400 },
    );
  }
  const result = await auth.signUp(request, parsed.data, address);
  if (!result.ok) {
    if (result.reason === "rate-limited")
      return tooManyAttempts(result.retryAfterSeconds, { values, fieldErrors: {} });
    if (result.reason === "unavailable") return unavailable({ values, fieldErrors: {} });
    return data({ values, fieldErrors: {}, formError: MESSAGES.emailTaken }, { status: 409 });
  }
  const headers = appendSetCookies(new Headers(), result.headers);
  headers.append("Set-Cookie", flashCookie("signed-up", auth.secureCookies));
  throw redirect("/", { headers });
}

export default function SignUp({ actionData }: Route.ComponentProps) {
  const validation = useFieldValidation(signUpSchema, actionData?.fieldErrors);
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction === "/sign-up";
  const values = actionData?.values;

  const formRef = useFailedSubmission(actionData);

  return (
    <AuthCard title="Please SignUp">
      <Form
        ref={formRef}
        method="post"
        action="/sign-up"
        noValidate
        onChange={validation.onChange}
        onSubmit={validation.onSubmit}
        aria-describedby={actionData?.formError ? "sign-up-error" : undefined}
        className="space-y-5"
      >
        <FormMessage id="sign-up-error" message={actionData?.formError} />
        <FormField
          name="name"
          label="Name"
          autoComplete="name"
          defaultValue={values?.name}
          error={validation.errors.name}
        />
        <FormField
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          defaultValue={values?.email}
          error={validation.errors.email}
        />
        <FormField
          name="photo"
          label="Photo URL"
          type="url"
          inputMode="url"
          placeholder="https://…"
          defaultValue={values?.photo}
          error={validation.errors.photo}
        />
        <PasswordField
          name="password"
          label="Password"
          autoComplete="new-password"
          error={validation.errors.password}
        />
        <p className="-mt-3 text-sm text-slate-600">
          6 to 20 characters with an uppercase letter, a lowercase letter, a digit and one of # ? ! @ $ % ^
          &amp; * -
        </p>
        <button type="submit" disabled={submitting} className={buttonClasses("primary", "md", "w-full")}>
          Sign Up
        </button>
      </Form>
      <p className="mt-8 text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link to="/login" className="font-semibold text-indigo-700 underline-offset-2 hover:underline">
          Log in
        </Link>
      </p>
    </AuthCard>
  );
}
