import { replace } from "react-router";
import { accountsFor } from "~/context.server";
import { identityRefusals, signedInSubmission } from "~/features/auth/account-form.server";
import { appendSetCookies } from "~/features/auth/auth.server";
import { accountPasswordSchema, MESSAGES } from "~/features/auth/auth-schema";
import { isCommonPassword } from "~/features/auth/common-passwords.server";
import { AccountForms } from "~/features/auth/components/account-forms";
import { setFlash } from "~/features/auth/flash.server";
import { failedSubmission, refusedSubmission, retryAfterHeaders } from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/account.password";

export const headers = retryAfterHeaders;

/**
 * POST /account/password: a new password, with the current one; every other
 * session ends, and this browser gets a new one.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const accounts = accountsFor(request, context);
  const { submission, refused } = await signedInSubmission(accounts, request, accountPasswordSchema);
  if (refused) return refused;
  if (isCommonPassword(submission.value.newPassword)) {
    return failedSubmission(submission, 400, { fieldErrors: { newPassword: [MESSAGES.passwordCommon] } });
  }
  const result = await accounts.credentials.changePassword(submission.value);
  if (!result.ok) return refusedSubmission(submission, result, identityRefusals("currentPassword"));
  const headers = appendSetCookies(new Headers(), result.headers);
  headers.append("Set-Cookie", await setFlash("password-updated", accounts.secureCookies));
  throw replace("/account", { headers });
}

export default function AccountPassword({ matches, actionData }: Route.ComponentProps) {
  return <AccountForms account={matches[1].loaderData} answers={{ password: actionData }} />;
}
