import { data, redirect } from "react-router";
import { accountsFor } from "~/context.server";
import { accountSessionSchema } from "~/features/auth/auth-schema";
import { AccountForms } from "~/features/auth/components/account-forms";
import { setFlash } from "~/features/auth/flash.server";
import { readForm, signedInOrToLogin } from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/account.sessions.sign-out";

/**
 * POST /account/sessions/sign-out `sessionId`: ends one of the shopper's
 * other sessions. One already gone (a second click) is as good as ended;
 * someone else's id ends nothing, and gets the same answer.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const accounts = accountsFor(request, context);
  const form = await readForm(request);
  await signedInOrToLogin(accounts.sessions, "/account");
  const parsed = accountSessionSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    // A hidden field only: no form to show again, the field's problem in words.
    throw data(`This form could not be read: ${parsed.error.issues[0]?.message ?? "unknown field."}`, {
      status: 400,
    });
  }
  await accounts.sessions.end(parsed.data.sessionId);
  throw redirect("/account#sessions", {
    headers: { "Set-Cookie": await setFlash("session-ended", accounts.secureCookies) },
  });
}

/** The address itself (the form's, reloaded): the account page. */
export default function AccountSessionSignOut({ matches }: Route.ComponentProps) {
  return <AccountForms account={matches[1].loaderData} />;
}
