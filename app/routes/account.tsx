import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import { Field, FormMessage } from "~/components/forms/field";
import { PasswordField } from "~/components/forms/password-field";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { useFocusWhenShown } from "~/components/forms/use-focus-when-shown";
import { pageMeta } from "~/components/layout/page-meta";
import { accountsFor } from "~/context.server";
import { appendSetCookies } from "~/features/auth/auth.server";
import {
  accountDeleteSchema,
  accountEmailSchema,
  accountPasswordSchema,
  accountProfileSchema,
  accountSessionSchema,
  MESSAGES,
  PASSWORD_RULES,
  refusingKnownCommonPasswords,
} from "~/features/auth/auth-schema";
import { isCommonPassword } from "~/features/auth/common-passwords.server";
import { AccountSection, AccountSubmit } from "~/features/auth/components/account-section";
import { AccountSessions } from "~/features/auth/components/account-sessions";
import { GoogleSignIn } from "~/features/auth/components/google-sign-in";
import { useCommonPasswordCheck } from "~/features/auth/components/use-common-password-check";
import { setFlash } from "~/features/auth/flash.server";
import type { GoogleAvailability } from "~/features/auth/google-sign-in-message";
import { loginPath } from "~/features/auth/redirect";
import {
  failedSubmission,
  readForm,
  retryAfterHeaders,
  tooManyAttempts,
  unavailable,
} from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/account";

export function meta() {
  return pageMeta({
    title: "Your account | Backline",
    description: "Your Backline account: profile, email, password, sessions.",
    noindex: true,
  });
}

export const headers = retryAfterHeaders;

/** The signed-in shopper's account; a visitor is sent to log in and comes back here. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const accounts = accountsFor(request, context);
  const [overview, sessions] = await Promise.all([accounts.account.overview(), accounts.sessions.list()]);
  if (!overview || !sessions) throw redirect(loginPath("/account"));
  return { ...overview, sessions, google: accounts.google.availability };
}

const SCHEMAS = {
  profile: accountProfileSchema,
  password: accountPasswordSchema,
  email: accountEmailSchema,
  delete: accountDeleteSchema,
} as const;
type FormIntent = keyof typeof SCHEMAS;

/** The answer to one of the page's forms, and which form it was. */
function answer(intent: FormIntent, response: ReturnType<typeof failedSubmission>) {
  return data({ intent, ...response.data }, response.init ?? undefined);
}

export async function action({ request, context }: Route.ActionArgs) {
  const accounts = accountsFor(request, context);
  const form = await readForm(request);
  const intent = form.get("intent");
  const flash = async (code: Parameters<typeof setFlash>[0], headers = new Headers()) => {
    headers.append("Set-Cookie", await setFlash(code, accounts.secureCookies));
    return headers;
  };
  if (!(await accounts.sessions.current()).user) throw redirect(loginPath("/account"));

  if (intent === "revoke" || intent === "revoke-others") {
    const parsed = accountSessionSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) {
      // Hidden fields only: no form to show again, the field's problem in words.
      throw data(`This form could not be read: ${parsed.error.issues[0]?.message ?? "unknown field."}`, {
        status: 400,
      });
    }
    if (parsed.data.intent === "revoke") {
      // A session already gone (a second click) is as good as ended; someone
      // else's id ends nothing, and gets the same answer.
      await accounts.sessions.end(parsed.data.sessionId);
      throw redirect("/account#sessions", { headers: await flash("session-ended") });
    }
    await accounts.sessions.endOthers();
    throw redirect("/account#sessions", { headers: await flash("other-sessions-ended") });
  }
  if (typeof intent !== "string" || !Object.hasOwn(SCHEMAS, intent)) {
    throw data("This form could not be read.", { status: 400 });
  }
  const formIntent = intent as FormIntent;

  if (formIntent === "profile") {
    const submission = parseWithZod(form, { schema: accountProfileSchema });
    if (submission.status !== "success") return answer("profile", failedSubmission(submission, 400));
    await accounts.account.updateProfile({ name: submission.value.name, image: submission.value.photo });
    throw redirect("/account", { headers: await flash("profile-saved") });
  }

  if (formIntent === "password") {
    const submission = parseWithZod(form, { schema: accountPasswordSchema });
    if (submission.status !== "success") return answer("password", failedSubmission(submission, 400));
    if (isCommonPassword(submission.value.newPassword)) {
      return answer(
        "password",
        failedSubmission(submission, 400, { fieldErrors: { newPassword: [MESSAGES.passwordCommon] } }),
      );
    }
    const result = await accounts.credentials.changePassword(submission.value);
    if (result.ok)
      throw redirect("/account", {
        headers: await flash("password-updated", appendSetCookies(new Headers(), result.headers)),
      });
    return answer("password", refusal(submission, result, "currentPassword"));
  }

  if (formIntent === "email") {
    const submission = parseWithZod(form, { schema: accountEmailSchema });
    if (submission.status !== "success") return answer("email", failedSubmission(submission, 400));
    const result = await accounts.emailLinks.requestEmailChange({
      newEmail: submission.value.email,
      password: submission.value.password,
    });
    if (result.ok)
      return data({
        intent: "email" as const,
        result: submission.reply({ resetForm: true }),
        sentTo: submission.value.email,
      });
    return answer("email", refusal(submission, result, "password"));
  }

  const submission = parseWithZod(form, { schema: accountDeleteSchema });
  if (submission.status !== "success") return answer("delete", failedSubmission(submission, 400));
  const result = await accounts.account.delete({ password: submission.value.password });
  if (result.ok)
    throw redirect("/", {
      headers: await flash("account-deleted", appendSetCookies(new Headers(), result.headers)),
    });
  return answer("delete", refusal(submission, result, "password"));
}

/** A sensitive change refused: the wrong password on its field, anything else for the whole form. */
function refusal(
  submission: Parameters<typeof failedSubmission>[0],
  result:
    | { reason: "wrong-password" }
    | { reason: "sign-in-again" }
    | { reason: "no-password" }
    | { reason: "rate-limited"; retryAfterSeconds: number }
    | { reason: "unavailable" },
  passwordField: string,
) {
  if (result.reason === "no-password") {
    return failedSubmission(submission, 400, { formErrors: [MESSAGES.noPasswordToChange] });
  }
  if (result.reason === "rate-limited") return tooManyAttempts(submission, result.retryAfterSeconds);
  if (result.reason === "unavailable") return unavailable(submission);
  if (result.reason === "sign-in-again")
    return failedSubmission(submission, 403, { formErrors: [MESSAGES.signInAgain] });
  return failedSubmission(submission, 403, {
    fieldErrors: { [passwordField]: [MESSAGES.currentPasswordWrong] },
  });
}

type ActionData = Route.ComponentProps["actionData"];

/** The last answer when it was this form's. */
function resultFor(actionData: ActionData, intent: FormIntent): SubmissionResult | undefined {
  if (!actionData || !("intent" in actionData) || actionData.intent !== intent) return undefined;
  return "result" in actionData ? (actionData.result as SubmissionResult) : undefined;
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { user, hasPassword, sessions, google } = loaderData;
  const sentTo =
    actionData && "sentTo" in actionData && typeof actionData.sentTo === "string" ? actionData.sentTo : null;
  return (
    <main id="main" className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900">Your account</h1>
      <p className="mt-2 text-slate-700">
        Signed in as <strong className="font-semibold break-all">{user.email}</strong>
        {user.emailVerified ? " (confirmed)" : " (not confirmed yet)"}.
      </p>
      <div className="mt-8 space-y-8">
        <ProfileForm user={user} result={resultFor(actionData, "profile")} />
        <EmailForm
          hasPassword={hasPassword}
          result={resultFor(actionData, "email")}
          sentTo={sentTo}
          google={google}
        />
        {hasPassword ? <PasswordForm result={resultFor(actionData, "password")} /> : null}
        <AccountSessions sessions={sessions} />
        <DeleteForm hasPassword={hasPassword} result={resultFor(actionData, "delete")} google={google} />
      </div>
    </main>
  );
}

function ProfileForm({
  user,
  result,
}: {
  user: { name: string; image: string | null };
  result: SubmissionResult | undefined;
}) {
  const [form, fields] = useForm({
    id: "account-profile",
    lastResult: result,
    defaultValue: { name: user.name, photo: user.image ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: accountProfileSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const formRef = useFailedSubmission(result);
  return (
    <AccountSection id="profile" title="Profile">
      <Form ref={formRef} method="post" {...getFormProps(form)} className="space-y-5">
        <FormMessage id={form.errorId} errors={form.errors} />
        <Field meta={fields.name} label="Name" autoComplete="name" />
        <Field
          meta={fields.photo}
          label="Photo URL"
          type="url"
          inputMode="url"
          placeholder="https://…"
          hint="Leave it empty to show your initials."
        />
        <AccountSubmit intent="profile">Save profile</AccountSubmit>
      </Form>
    </AccountSection>
  );
}

function EmailForm({
  hasPassword,
  result,
  sentTo,
  google,
}: {
  hasPassword: boolean;
  result: SubmissionResult | undefined;
  sentTo: string | null;
  google: GoogleAvailability;
}) {
  const [form, fields] = useForm({
    id: "account-email",
    lastResult: result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: accountEmailSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const formRef = useFailedSubmission(result);
  const sentRef = useFocusWhenShown<HTMLParagraphElement>(sentTo);
  return (
    <AccountSection id="email" title="Email">
      {sentTo ? (
        <p
          ref={sentRef}
          tabIndex={-1}
          role="status"
          className="mb-5 rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900"
        >
          {MESSAGES.emailChangeSent(sentTo)}
        </p>
      ) : null}
      <Form ref={formRef} method="post" {...getFormProps(form)} className="space-y-5">
        <FormMessage id={form.errorId} errors={form.errors} />
        <Field meta={fields.email} label="New email" type="email" autoComplete="email" />
        {hasPassword ? (
          <PasswordField meta={fields.password} label="Your password" autoComplete="current-password" />
        ) : null}
        <AccountSubmit intent="email">Send a confirmation link</AccountSubmit>
      </Form>
      <SignInAgain errors={form.errors} google={google} returnTo="/account#email" />
    </AccountSection>
  );
}

function PasswordForm({ result }: { result: SubmissionResult | undefined }) {
  const common = useCommonPasswordCheck();
  const [form, fields] = useForm({
    id: "account-password",
    lastResult: result,
    onValidate: ({ formData }) =>
      parseWithZod(formData, {
        schema: refusingKnownCommonPasswords(accountPasswordSchema, "newPassword", common.isKnownCommon),
      }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const formRef = useFailedSubmission(result);
  return (
    <AccountSection id="password" title="Password">
      <Form ref={formRef} method="post" {...getFormProps(form)} className="space-y-5">
        <FormMessage id={form.errorId} errors={form.errors} />
        <PasswordField
          meta={fields.currentPassword}
          label="Current password"
          autoComplete="current-password"
        />
        <PasswordField
          meta={fields.newPassword}
          label="New password"
          autoComplete="new-password"
          hint={PASSWORD_RULES}
          onBlur={common.checkOnBlur(() => form.validate({ name: fields.newPassword.name }))}
        />
        <AccountSubmit intent="password">Change password</AccountSubmit>
      </Form>
    </AccountSection>
  );
}

function DeleteForm({
  hasPassword,
  result,
  google,
}: {
  hasPassword: boolean;
  result: SubmissionResult | undefined;
  google: GoogleAvailability;
}) {
  const [form, fields] = useForm({
    id: "account-delete",
    lastResult: result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: accountDeleteSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const formRef = useFailedSubmission(result);
  return (
    <AccountSection id="delete" title="Delete your account" tone="danger">
      <p className="mb-5 text-slate-700">
        This deletes your account, your sessions and what we keep about you (name, email, photo). It cannot be
        undone.
      </p>
      <Form ref={formRef} method="post" {...getFormProps(form)} className="space-y-5">
        <FormMessage id={form.errorId} errors={form.errors} />
        {hasPassword ? (
          <PasswordField meta={fields.password} label="Password to delete" autoComplete="current-password" />
        ) : null}
        <AccountSubmit intent="delete" variant="danger">
          Delete my account
        </AccountSubmit>
      </Form>
      <SignInAgain errors={form.errors} google={google} returnTo="/account#delete" />
    </AccountSection>
  );
}

/** After "sign in with Google again": the way to do it, right under the form that asked. */
function SignInAgain({
  errors,
  google,
  returnTo,
}: {
  errors: string[] | undefined;
  google: GoogleAvailability;
  returnTo: string;
}) {
  if (!errors?.includes(MESSAGES.signInAgain)) return null;
  return (
    <div className="mt-5">
      <GoogleSignIn availability={google} redirectTo={returnTo} />
    </div>
  );
}
