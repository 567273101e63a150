import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { FormMessage } from "~/components/forms/field";
import { PasswordField } from "~/components/forms/password-field";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { pageMeta } from "~/components/layout/page-meta";
import { buttonClasses } from "~/components/ui/button";
import { accountsFor } from "~/context.server";
import {
  linkTokenSchema,
  MESSAGES,
  PASSWORD_RULES,
  refusingKnownCommonPasswords,
  resetPasswordSchema,
} from "~/features/auth/auth-schema";
import { isCommonPassword } from "~/features/auth/common-passwords.server";
import { AuthCard } from "~/features/auth/components/auth-card";
import { LinkExpired } from "~/features/auth/components/link-expired";
import { useCommonPasswordCheck } from "~/features/auth/components/use-common-password-check";
import { setFlash } from "~/features/auth/flash.server";
import {
  failedSubmission,
  readSubmission,
  refusalFor,
  refusedSubmission,
  retryAfterHeaders,
} from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/reset-password";

export function meta() {
  return pageMeta({
    title: "Choose a new password | Backline",
    description: "Choose a new password for your Backline account.",
    noindex: true,
  });
}

export const headers = retryAfterHeaders;

/** The link from the email: its form when the link still works, otherwise a way to ask for a new one. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { credentials } = accountsFor(request, context);
  const parsed = linkTokenSchema.safeParse({ token: new URL(request.url).searchParams.get("token") ?? "" });
  if (!parsed.success) return data({ token: null, problem: MESSAGES.resetLinkInvalid }, { status: 400 });
  const check = await credentials.checkResetToken(parsed.data.token);
  if (check.ok) return { token: parsed.data.token, problem: null };
  // Nothing to show on the page when the service failed: the error page says so.
  if (check.reason === "unavailable") throw data(MESSAGES.unavailable, { status: 503 });
  const { status, message, headers } = refusalFor(check, {
    "invalid-token": { status: 410, message: MESSAGES.resetLinkInvalid },
  });
  return data({ token: null, problem: message }, { status, headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const accounts = accountsFor(request, context);
  const { submission, refused } = await readSubmission(request, resetPasswordSchema);
  if (refused) return refused;
  if (isCommonPassword(submission.value.password)) {
    return failedSubmission(submission, 400, { fieldErrors: { password: [MESSAGES.passwordCommon] } });
  }
  const result = await accounts.credentials.resetPassword(submission.value.token, submission.value.password);
  if (!result.ok) {
    // The link is no good: the page says so instead of the form.
    if (result.reason === "invalid-token") return data({ expired: true }, { status: 410 });
    return refusedSubmission(submission, result);
  }
  // Every session has ended, this browser's too: the shopper logs in with the new password.
  throw redirect("/login", {
    headers: { "Set-Cookie": await setFlash("password-changed", accounts.secureCookies) },
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const expired = Boolean(actionData && "expired" in actionData) || !loaderData.token;
  const common = useCommonPasswordCheck();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult: result,
    onValidate: ({ formData }) =>
      parseWithZod(formData, {
        schema: refusingKnownCommonPasswords(resetPasswordSchema, "password", common.isKnownCommon),
      }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const navigation = useNavigation();
  const submitting =
    navigation.state !== "idle" && Boolean(navigation.formAction?.startsWith("/reset-password"));
  const formRef = useFailedSubmission(result);

  if (expired) {
    return (
      <AuthCard title="Choose a new password">
        <LinkExpired
          message={loaderData.problem ?? MESSAGES.resetLinkInvalid}
          action={{ to: "/forgot-password", label: "Send me a new link" }}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password">
      <Form ref={formRef} method="post" {...getFormProps(form)} className="space-y-5">
        <FormMessage id={form.errorId} errors={form.errors} />
        <input type="hidden" name="token" value={loaderData.token ?? ""} />
        <PasswordField
          meta={fields.password}
          label="New password"
          autoComplete="new-password"
          hint={PASSWORD_RULES}
          onBlur={common.checkOnBlur(() => form.validate({ name: fields.password.name }))}
        />
        <button type="submit" disabled={submitting} className={buttonClasses("primary", "md", "w-full")}>
          Change my password
        </button>
      </Form>
      <p className="mt-8 text-center text-sm text-slate-600">
        <Link to="/login" className="font-semibold text-indigo-700 underline-offset-2 hover:underline">
          Back to login
        </Link>
      </p>
    </AuthCard>
  );
}
