import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useNavigation } from "react-router";
import { Field, FormMessage } from "~/components/forms/field";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { useFocusWhenShown } from "~/components/forms/use-focus-when-shown";
import { pageMeta } from "~/components/layout/page-meta";
import { buttonClasses } from "~/components/ui/button";
import { accountsFor } from "~/context.server";
import { forgotPasswordSchema, MESSAGES } from "~/features/auth/auth-schema";
import { AuthCard } from "~/features/auth/components/auth-card";
import { readSubmission, refusedSubmission, retryAfterHeaders } from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/forgot-password";

export function meta() {
  return pageMeta({
    title: "Forgot your password? | Backline",
    description: "Get a link to choose a new password for your Backline account.",
    noindex: true,
  });
}

export const headers = retryAfterHeaders;

/**
 * Asks for a password-reset link. The answer is the same whether or not the
 * email has an account (the email goes out after it, from the mail queue).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { emailLinks } = accountsFor(request, context);
  const { submission, refused } = await readSubmission(request, forgotPasswordSchema);
  if (refused) return refused;
  const result = await emailLinks.requestPasswordReset(submission.value.email);
  if (!result.ok) return refusedSubmission(submission, result);
  return data({ result: submission.reply(), sentTo: submission.value.email });
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const result = actionData?.result;
  const sentTo =
    actionData && "sentTo" in actionData && typeof actionData.sentTo === "string" ? actionData.sentTo : null;
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult: result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction === "/forgot-password";
  const formRef = useFailedSubmission(result);
  const sentRef = useFocusWhenShown<HTMLHeadingElement>(sentTo);

  if (sentTo) {
    return (
      <AuthCard title="Check your email">
        <h2 ref={sentRef} tabIndex={-1} className="text-lg font-semibold text-slate-900 outline-none">
          Your link is on its way
        </h2>
        <p className="mt-3 text-slate-700">{MESSAGES.resetLinkSent(sentTo)}</p>
        <p className="mt-6 text-sm text-slate-700">
          <Link to="/login" className="font-semibold text-indigo-700 underline underline-offset-2">
            Back to login
          </Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Forgot your password?">
      <p className="mb-5 text-slate-700">
        Enter the email of your account and we will send you a link to choose a new password.
      </p>
      <Form
        ref={formRef}
        method="post"
        action="/forgot-password"
        {...getFormProps(form)}
        className="space-y-5"
      >
        <FormMessage id={form.errorId} errors={form.errors} />
        <Field meta={fields.email} label="Email" type="email" autoComplete="email" />
        <button type="submit" disabled={submitting} className={buttonClasses("primary", "md", "w-full")}>
          Send me a link
        </button>
      </Form>
      <p className="mt-8 text-center text-sm text-slate-600">
        Remembered it?{" "}
        <Link to="/login" className="font-semibold text-indigo-700 underline-offset-2 hover:underline">
          Log in
        </Link>
      </p>
    </AuthCard>
  );
}
