import { redirect } from "react-router";
import { accountsFor, clearedCartCookieOf } from "~/context.server";
import { appendSetCookies } from "~/features/auth/auth.server";
import { setFlash } from "~/features/auth/flash.server";
import { publicPageAfterLogOut } from "~/features/auth/redirect";
import { readForm } from "~/features/auth/route-helpers.server";
import type { Route } from "./+types/logout";

/** Logging out changes state: POST only. A GET (a link, a prefetch) does nothing. */
export function loader() {
  return redirect("/");
}

/**
 * Ends the session on the server (its row is deleted) and clears the cookie,
 * then goes back to the page the shopper was on (`returnTo`) when anyone may
 * see it, otherwise home.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const accounts = accountsFor(request, context);
  // A logout with no form (a script's bare POST) still logs out, and goes home.
  const returnTo = await readForm(request).then(
    (form) => form.get("returnTo"),
    () => null,
  );
  const headers = appendSetCookies(new Headers(), await accounts.sessions.logOut());
  headers.append("Set-Cookie", await setFlash("logged-out", accounts.secureCookies));
  headers.append("Set-Cookie", clearedCartCookieOf(context));
  return redirect(publicPageAfterLogOut(returnTo), { headers });
}
