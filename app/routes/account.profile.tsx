import { replace } from "react-router";
import { accountsFor } from "~/context.server";
import { signedInSubmission } from "~/features/auth/account-form.server";
import { accountProfileSchema } from "~/features/auth/auth-schema";
import { AccountForms } from "~/features/auth/components/account-forms";
import { setFlash } from "~/features/auth/flash.server";
import { retryAfterHeaders } from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/account.profile";

export const headers = retryAfterHeaders;

/** POST /account/profile: the name and photo, under the sign-up rules. */
export async function action({ request, context }: Route.ActionArgs) {
  const accounts = accountsFor(request, context);
  const { submission, refused } = await signedInSubmission(accounts, request, accountProfileSchema);
  if (refused) return refused;
  await accounts.account.updateProfile({ name: submission.value.name, image: submission.value.photo });
  throw replace("/account", {
    headers: { "Set-Cookie": await setFlash("profile-saved", accounts.secureCookies) },
  });
}

export default function AccountProfile({ matches, actionData }: Route.ComponentProps) {
  return <AccountForms account={matches[1].loaderData} answers={{ profile: actionData }} />;
}
