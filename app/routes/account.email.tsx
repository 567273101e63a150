import { data } from "react-router";
import { accountsFor } from "~/context.server";
import { identityRefusals, signedInSubmission } from "~/features/auth/account-form.server";
import { accountEmailSchema } from "~/features/auth/auth-schema";
import { AccountForms } from "~/features/auth/components/account-forms";
import { refusedSubmission, retryAfterHeaders } from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/account.email";

export const headers = retryAfterHeaders;

/**
 * POST /account/email: sends a link to the new address, which changes the
 * email when it is opened and confirmed. The answer is the same whether or
 * not the address already has an account.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const accounts = accountsFor(request, context);
  const { submission, refused } = await signedInSubmission(accounts, request, accountEmailSchema);
  if (refused) return refused;
  const result = await accounts.emailLinks.requestEmailChange({
    newEmail: submission.value.email,
    password: submission.value.password,
  });
  if (!result.ok) return refusedSubmission(submission, result, identityRefusals("password"));
  return data({ result: submission.reply({ resetForm: true }), sentTo: submission.value.email });
}

export default function AccountEmail({ matches, actionData }: Route.ComponentProps) {
  return <AccountForms account={matches[1].loaderData} answers={{ email: actionData }} />;
}
