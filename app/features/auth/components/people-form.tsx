import { getFormProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { Field, FormMessage } from "~/components/forms/field";
import { PasswordField } from "~/components/forms/password-field";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { useFocusWhenShown } from "~/components/forms/use-focus-when-shown";
import { buttonClasses } from "~/components/ui/button";
import { roleChangeSchema } from "../people-schema";

/** What the people route answered: a refusal to show, or the change it made. */
export interface PeopleFormAnswer {
  result?: SubmissionResult<string[]>;
  done?: string;
}

const ROLE_CHOICES = [
  { value: "staff", label: "Staff — products, stock and orders" },
  { value: "owner", label: "Owner — also people and settings" },
  { value: "shopper", label: "Shopper — no back office" },
] as const;

/**
 * Give an account a role, or take it away: a plain form (it works without
 * JavaScript), checked in the browser with the server's schema, the owner's
 * password asked again (a role is a sensitive change).
 */
export function PeopleForm({
  answer,
  hasPassword,
}: {
  answer: PeopleFormAnswer | undefined;
  hasPassword: boolean;
}) {
  const [form, fields] = useForm({
    id: "role-change",
    lastResult: answer?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: roleChangeSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { role: "staff" },
  });
  const formRef = useFailedSubmission(answer?.result);
  const doneRef = useFocusWhenShown<HTMLParagraphElement>(answer?.done ?? null);
  const roleError = fields.role.errors?.[0];
  return (
    <section
      aria-labelledby="role-change-title"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="role-change-title" className="text-xl font-bold text-slate-900">
        Give a role
      </h2>
      {answer?.done ? (
        <p
          ref={doneRef}
          tabIndex={-1}
          role="status"
          className="mt-4 rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900"
        >
          {answer.done}
        </p>
      ) : null}
      <Form ref={formRef} method="post" {...getFormProps(form)} className="mt-4 max-w-md space-y-5">
        <FormMessage id={form.errorId} errors={form.errors} autoFocus={!answer?.done} />
        <Field meta={fields.email} label="Email of the account" type="email" autoComplete="off" />
        <div>
          <label htmlFor={fields.role.id} className="block text-sm font-semibold text-slate-800">
            Role
          </label>
          <select
            {...getSelectProps(fields.role)}
            key={fields.role.key}
            className="mt-1.5 block h-11 w-full rounded-lg border border-slate-500 bg-white px-3 text-base text-slate-900"
          >
            {ROLE_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
          {roleError ? (
            <p id={fields.role.errorId} className="mt-1.5 text-sm font-medium text-red-700">
              {roleError}
            </p>
          ) : null}
        </div>
        {hasPassword ? (
          <PasswordField meta={fields.password} label="Your password" autoComplete="current-password" />
        ) : (
          <p className="text-sm text-slate-700">
            Your account signs in with Google: a sign-in of the last ten minutes stands in for a password.
          </p>
        )}
        <button type="submit" className={buttonClasses("primary", "md")}>
          Save role
        </button>
      </Form>
    </section>
  );
}
