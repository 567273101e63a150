import {
  type DefaultValue,
  type FormMetadata,
  getFormProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode, RefObject } from "react";
import { type FetcherWithComponents, useFetcher } from "react-router";
import { Field, FormMessage } from "~/components/forms/field";
import { PasswordField } from "~/components/forms/password-field";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { useFocusWhenShown } from "~/components/forms/use-focus-when-shown";
import type { z } from "~/utils/zod";
import {
  accountDeleteSchema,
  accountEmailSchema,
  accountPasswordSchema,
  accountProfileSchema,
  MESSAGES,
  PASSWORD_RULES,
  refusingKnownCommonPasswords,
} from "../auth-schema";
import type { GoogleAvailability } from "../google-sign-in-message";
import { AccountSection, AccountSubmit } from "./account-section";
import { AccountSessions } from "./account-sessions";
import { GoogleSignIn } from "./google-sign-in";
import { useCommonPasswordCheck } from "./use-common-password-check";

/** What an account form's route answered: a refusal to show, or where the email's link went. */
export interface AccountFormAnswer {
  result?: SubmissionResult<string[]>;
  sentTo?: string;
}

/** The forms of the account page whose answer shows on the page (the sessions' forms redirect). */
type AnsweringForm = "profile" | "email" | "password" | "delete";

export interface AccountPageData {
  user: { name: string; image: string | null };
  hasPassword: boolean;
  sessions: Parameters<typeof AccountSessions>[0]["sessions"];
  google: GoogleAvailability;
}

/**
 * Every task of the account page, each its own form sent to its own route
 * (`/account/<form>`). `answers` is what such a route answered when the
 * browser posted to it without JavaScript, so its page shows the form's
 * messages; with JavaScript the form answers in place.
 */
export function AccountForms({
  account,
  answers = {},
}: {
  account: AccountPageData;
  answers?: Partial<Record<AnsweringForm, AccountFormAnswer>>;
}) {
  const { user, hasPassword, sessions, google } = account;
  return (
    <div className="mt-8 space-y-8">
      <ProfileForm user={user} answered={answers.profile} />
      <EmailForm hasPassword={hasPassword} answered={answers.email} google={google} />
      {hasPassword ? <PasswordForm answered={answers.password} /> : null}
      <AccountSessions sessions={sessions} />
      <DeleteForm hasPassword={hasPassword} answered={answers.delete} google={google} />
    </div>
  );
}

/**
 * One account form sent by a fetcher to its own route (`/account/<form>`): the
 * page stays /account, the other forms keep what was typed in them, and the
 * focus goes where the refusal is (a navigation to the route's own address
 * would take it to the heading). Its answer is the fetcher's, or else the
 * page's (`answered`, no JavaScript). It checks what is typed with the
 * route's own schema, once a field is left and then as it is typed.
 */
function useAccountForm<Fields extends Record<string, unknown>, Value>(
  name: AnsweringForm,
  answered: AccountFormAnswer | undefined,
  schema: z.ZodType<Value, Fields>,
  defaultValue?: DefaultValue<Fields>,
) {
  const fetcher = useFetcher<AccountFormAnswer>();
  const answer = fetcher.data ?? answered;
  const [form, fields] = useForm({
    id: `account-${name}`,
    lastResult: answer?.result,
    defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const formRef = useFailedSubmission(answer?.result);
  const sending = fetcher.state === "submitting";
  return { Form: fetcher.Form, action: `/account/${name}`, answer, form, fields, formRef, sending };
}

/** An account form's `<form>`, posted by its fetcher, the form's own message (no field's) above its fields. */
function AccountFormFields<Schema extends Record<string, unknown>>({
  sent: { Form, action, form, formRef },
  children,
}: {
  sent: {
    Form: FetcherWithComponents<AccountFormAnswer>["Form"];
    action: string;
    form: FormMetadata<Schema>;
    formRef: RefObject<HTMLFormElement | null>;
  };
  children: ReactNode;
}) {
  return (
    <Form ref={formRef} method="post" action={action} {...getFormProps(form)} className="space-y-5">
      <FormMessage id={form.errorId} errors={form.errors} />
      {children}
    </Form>
  );
}

function ProfileForm({
  user,
  answered,
}: {
  user: { name: string; image: string | null };
  answered: AccountFormAnswer | undefined;
}) {
  const sent = useAccountForm("profile", answered, accountProfileSchema, {
    name: user.name,
    photo: user.image ?? "",
  });
  const { fields } = sent;
  return (
    <AccountSection id="profile" title="Profile">
      <AccountFormFields sent={sent}>
        <Field meta={fields.name} label="Name" autoComplete="name" />
        <Field
          meta={fields.photo}
          label="Photo URL"
          type="url"
          inputMode="url"
          placeholder="https://…"
          hint="Leave it empty to show your initials."
        />
        <AccountSubmit sending={sent.sending}>Save profile</AccountSubmit>
      </AccountFormFields>
    </AccountSection>
  );
}

/**
 * The forms of a sensitive change (the email, the deletion), which ask for the
 * password, or without one for a recent sign-in (with Google, shown once the
 * route has asked for it).
 */
interface GuardedFormProps {
  hasPassword: boolean;
  answered: AccountFormAnswer | undefined;
  google: GoogleAvailability;
}

function EmailForm({ hasPassword, answered, google }: GuardedFormProps) {
  const sent = useAccountForm("email", answered, accountEmailSchema);
  const { fields, form } = sent;
  const sentTo = sent.answer?.sentTo ?? null;
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
      <AccountFormFields sent={sent}>
        <Field meta={fields.email} label="New email" type="email" autoComplete="email" />
        {hasPassword ? (
          <PasswordField meta={fields.password} label="Your password" autoComplete="current-password" />
        ) : null}
        <AccountSubmit sending={sent.sending}>Send a confirmation link</AccountSubmit>
      </AccountFormFields>
      <SignInAgain errors={form.errors} google={google} returnTo="/account#email" />
    </AccountSection>
  );
}

function PasswordForm({ answered }: { answered: AccountFormAnswer | undefined }) {
  const common = useCommonPasswordCheck();
  const sent = useAccountForm(
    "password",
    answered,
    refusingKnownCommonPasswords(accountPasswordSchema, "newPassword", common.isKnownCommon),
  );
  const { fields, form } = sent;
  return (
    <AccountSection id="password" title="Password">
      <AccountFormFields sent={sent}>
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
        <AccountSubmit sending={sent.sending}>Change password</AccountSubmit>
      </AccountFormFields>
    </AccountSection>
  );
}

function DeleteForm({ hasPassword, answered, google }: GuardedFormProps) {
  const sent = useAccountForm("delete", answered, accountDeleteSchema);
  const { fields, form } = sent;
  return (
    <AccountSection id="delete" title="Delete your account" tone="danger">
      <p className="mb-5 text-slate-700">
        This deletes your account, your sessions and what we keep about you (name, email, photo). It cannot be
        undone.
      </p>
      <AccountFormFields sent={sent}>
        {hasPassword ? (
          <PasswordField meta={fields.password} label="Password to delete" autoComplete="current-password" />
        ) : null}
        <AccountSubmit sending={sent.sending} variant="danger">
          Delete my account
        </AccountSubmit>
      </AccountFormFields>
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
