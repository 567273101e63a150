import { redirect } from "react-router";
import { accountsFor } from "~/context.server";
import { identityRefusals, signedInSubmission } from "~/features/auth/account-form.server";
import { appendSetCookies } from "~/features/auth/auth.server";
import { accountDeleteSchema } from "~/features/auth/auth-schema";
import { AccountForms } from "~/features/auth/components/account-forms";
import { setFlash } from "~/features/auth/flash.server";
import { refusedSubmission, retryAfterHeaders } from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/account.delete";

export const headers = retryAfterHeaders;

/**
 * POST /account/delete: the account, its sessions and personal data go, after
 * the password (or, without one, a recent sign-in); the shopper lands home.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const accounts = accountsFor(request, context);
  const { submission, refused } = await signedInSubmission(accounts, request, accountDeleteSchema);
  if (refused) return refused;
  const result = await accounts.account.delete({ password: submission.value.password });
  if (!result.ok) return refusedSubmission(submission, result, identityRefusals("password"));
  const headers = appendSetCookies(new Headers(), result.headers);
  headers.append("Set-Cookie", await setFlash("account-deleted", accounts.secureCookies));
  throw redirect("/", { headers });
}

export default function AccountDelete({ matches, actionData }: Route.ComponentProps) {
  return <AccountForms account={matches[1].loaderData} answers={{ delete: actionData }} />;
}
