import { redirect } from "react-router";
import { accountsFor } from "~/context.server";
import { AccountForms } from "~/features/auth/components/account-forms";
import { setFlash } from "~/features/auth/flash.server";
import { readForm, signedInOrToLogin } from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/account.sessions.sign-out-others";

/** POST /account/sessions/sign-out-others: ends every session of the shopper but this one. */
export async function action({ request, context }: Route.ActionArgs) {
  const accounts = accountsFor(request, context);
  // The form has no fields; it is still read as one, so another kind of body gets 415 as everywhere.
  await readForm(request);
  await signedInOrToLogin(accounts.sessions, "/account");
  await accounts.sessions.endOthers();
  throw redirect("/account#sessions", {
    headers: { "Set-Cookie": await setFlash("other-sessions-ended", accounts.secureCookies) },
  });
}

/** The address itself (the form's, reloaded): the account page. */
export default function AccountSessionsSignOutOthers({ matches }: Route.ComponentProps) {
  return <AccountForms account={matches[1].loaderData} />;
}
