import { redirect } from "react-router";
import { accountsFor } from "~/context.server";
import { appendSetCookies } from "~/features/auth/auth.server";
import { setFlash } from "~/features/auth/flash.server";
import type { Route } from "./+types/logout";

/** Logging out changes state: POST only. A GET (a link, a prefetch) does nothing. */
export function loader() {
  return redirect("/");
}

/** Ends the session on the server (its row is deleted) and clears the cookie. */
export async function action({ request, context }: Route.ActionArgs) {
  const { auth } = accountsFor(request, context);
  const headers = appendSetCookies(new Headers(), await auth.logOut(request));
  headers.append("Set-Cookie", await setFlash("logged-out", auth.secureCookies));
  return redirect("/", { headers });
}
