import { useEffect } from "react";
import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import {
  GOOGLE_SIGN_IN_CHANNEL,
  GOOGLE_SIGN_IN_MESSAGE,
  type GoogleSignInResult,
} from "../google-sign-in-message";
import { loginPath } from "../redirect";

/**
 * What the Google sign-in popup shows at the end: it reports the result to
 * the page that opened it and closes itself.
 */
export function GoogleSignInOutcome(props: {
  attempt: string;
  redirectTo: string;
  result: GoogleSignInResult;
}) {
  const { attempt, result } = props;
  useEffect(() => {
    const message = { type: GOOGLE_SIGN_IN_MESSAGE, attempt, ...result };
    const channel = new BroadcastChannel(GOOGLE_SIGN_IN_CHANNEL);
    channel.postMessage(message);
    channel.close();
    window.opener?.postMessage(message, window.location.origin);
    window.close();
  }, [attempt, result]);

  return (
    <main id="main" className="mx-auto max-w-md px-4 py-16 text-center">
      <h1 className="text-2xl font-bold text-slate-900">
        {result.ok ? "You are signed in" : "Sign-in did not complete"}
      </h1>
      <p className="mt-4 text-slate-600">
        {result.ok ? "You can close this window and go back to the shop." : result.message}
      </p>
      <Link
        to={result.ok ? props.redirectTo : loginPath(props.redirectTo)}
        className={buttonClasses("primary", "md", "mt-8")}
      >
        {result.ok ? "Back to the shop" : "Back to login"}
      </Link>
    </main>
  );
}
