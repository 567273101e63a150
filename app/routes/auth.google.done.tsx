import { data, redirect, replace } from "react-router";
import { accountsFor, takeGuestCartOf } from "~/context.server";
import { appendSetCookies } from "~/features/auth/auth.server";
import { MESSAGES } from "~/features/auth/auth-schema";
import { GoogleSignInOutcome } from "~/features/auth/components/google-sign-in-outcome";
import { setFlash } from "~/features/auth/flash.server";
import { ATTEMPT_PATTERN, type GoogleSignInResult } from "~/features/auth/google-sign-in-message";
import { loginPath, safeRedirectPath } from "~/features/auth/redirect";
import type { Route } from "./+types/auth.google.done";

export function meta() {
  return [{ title: "Signing in | Backline" }, { name: "robots", content: "noindex" }];
}

/**
 * Where the provider's callback (handled by Better Auth) sends the browser:
 * in the popup, a page that reports to the opener; in the full-page fallback,
 * a redirect to `redirectTo` with the success toast.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const accounts = accountsFor(request, context);
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  const attemptParam = url.searchParams.get("attempt") ?? "";
  const attempt = ATTEMPT_PATTERN.test(attemptParam) ? attemptParam : "";
  const popup = url.searchParams.get("popup") === "1" && attempt !== "";
  const error = url.searchParams.get("error");
  const session = await accounts.sessions.current();
  const headers = appendSetCookies(new Headers({ "Cache-Control": "no-store" }), session.headers);

  if (error || !session.user) {
    const notLinked = error === "account_not_linked";
    if (popup) {
      const result: GoogleSignInResult = {
        ok: false,
        message: notLinked ? MESSAGES.googleNotLinked : MESSAGES.googleFailed,
      };
      return data({ attempt, redirectTo, result }, { headers });
    }
    headers.append(
      "Set-Cookie",
      await setFlash(notLinked ? "google-not-linked" : "google-failed", accounts.secureCookies),
    );
    throw redirect(loginPath(redirectTo), { headers });
  }

  // Signed in: the browser's guest cart joins the account's, as after a password login.
  const guestCart = await takeGuestCartOf(request, context, session.user.id);
  if (guestCart) headers.append("Set-Cookie", guestCart);

  if (popup) {
    const { email, name, image } = session.user;
    const result: GoogleSignInResult = { ok: true, user: { email, name, image } };
    return data({ attempt, redirectTo, result }, { headers });
  }
  // Full-page sign-in: the account already holds the provider's name and photo.
  headers.append("Set-Cookie", await setFlash("google-signed-in", accounts.secureCookies));
  throw replace(redirectTo, { headers });
}

export default function GoogleDone({ loaderData }: Route.ComponentProps) {
  return (
    <GoogleSignInOutcome
      attempt={loaderData.attempt}
      redirectTo={loaderData.redirectTo}
      result={loaderData.result}
    />
  );
}
