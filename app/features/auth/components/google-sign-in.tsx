import { type FormEvent, useEffect, useRef, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { notify } from "~/utils/toast";
import { MESSAGES } from "../auth-schema";
import {
  GOOGLE_SIGN_IN_CHANNEL,
  type GoogleAvailability,
  type GoogleSignInMessage,
  isGoogleSignInMessage,
} from "../google-sign-in-message";
import { FullScreenLoader } from "./full-screen-loader";

const POPUP_NAME = "backline-google-sign-in";

/**
 * 'Continue with Google': a form that posts to /auth/google. With JavaScript
 * it opens the identity provider in a popup and, when the popup reports
 * success, records the user (PUT /user/api/create), re-reads the session and
 * goes to `redirectTo` without reloading the page. A blocked popup, or no
 * JavaScript at all, falls back to the same flow in this window.
 */
export function GoogleSignIn({
  availability,
  redirectTo,
}: {
  availability: GoogleAvailability;
  redirectTo: string;
}) {
  const [busy, setBusy] = useState(false);
  const attemptRef = useRef<string | null>(null);
  const modeRef = useRef<HTMLInputElement>(null);
  const attemptInputRef = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const latest = useRef({ navigate, revalidator, redirectTo });
  latest.current = { navigate, revalidator, redirectTo };

  useEffect(() => {
    const finish = async (message: GoogleSignInMessage) => {
      if (message.attempt !== attemptRef.current) return;
      attemptRef.current = null;
      if (!message.ok) {
        notify({ kind: "error", message: message.message });
        return;
      }
      setBusy(true);
      try {
        const response = await fetch("/user/api/create", {
          method: "PUT",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            email: message.user.email,
            name: message.user.name,
            photo: message.user.image,
          }),
        });
        if (!response.ok) throw new Error(`PUT /user/api/create answered ${response.status}`);
        const { navigate, revalidator, redirectTo } = latest.current;
        await navigate(redirectTo, { replace: true });
        // The navbar's user comes from the root loader: read the session again.
        await revalidator.revalidate();
        notify({ kind: "success", message: MESSAGES.googleSuccess });
      } catch {
        notify({ kind: "error", message: MESSAGES.googleFailed });
      } finally {
        setBusy(false);
      }
    };
    const onData = (data: unknown) => {
      if (isGoogleSignInMessage(data)) void finish(data);
    };
    const channel = new BroadcastChannel(GOOGLE_SIGN_IN_CHANNEL);
    channel.onmessage = (event) => onData(event.data);
    const onWindowMessage = (event: MessageEvent) => {
      if (event.origin === window.location.origin) onData(event.data);
    };
    window.addEventListener("message", onWindowMessage);
    return () => {
      channel.close();
      window.removeEventListener("message", onWindowMessage);
    };
  }, []);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const attempt = crypto.randomUUID();
    attemptRef.current = attempt;
    if (attemptInputRef.current) attemptInputRef.current.value = attempt;
    const width = 480;
    const height = 640;
    const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
    const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
    const popup = window.open(
      "",
      POPUP_NAME,
      `popup=yes,width=${width},height=${height},left=${left},top=${top}`,
    );
    if (modeRef.current) modeRef.current.value = popup ? "popup" : "page";
    // Blocked popup: the same flow in this window.
    form.target = popup ? POPUP_NAME : "_self";
    form.submit();
  };

  const disabled = availability === "not-configured";
  return (
    <form method="post" action="/auth/google" onSubmit={onSubmit} className="space-y-2">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <input type="hidden" name="mode" value="page" ref={modeRef} />
      <input type="hidden" name="attempt" value="" ref={attemptInputRef} />
      <button
        type="submit"
        disabled={disabled}
        aria-describedby={disabled || availability === "demo" ? "google-sign-in-note" : undefined}
        className={buttonClasses("secondary", "md", "w-full")}
      >
        <GoogleMark />
        Continue with Google
      </button>
      {disabled ? (
        <p id="google-sign-in-note" className="text-sm text-slate-600">
          Google sign-in is not configured on this shop.
        </p>
      ) : availability === "demo" ? (
        <p id="google-sign-in-note" className="text-sm text-slate-600">
          Demo mode: a local sign-in page stands in for Google.
        </p>
      ) : null}
      {busy ? <FullScreenLoader label="Signing you in…" /> : null}
    </form>
  );
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true">
      <path
        fill="#4285F4"
        d="M22.5 12.2c0-.7-.1-1.4-.2-2.1H12v4h5.9a5 5 0 0 1-2.2 3.3v2.7h3.5c2.1-1.9 3.3-4.7 3.3-7.9Z"
      />
      <path
        fill="#34A853"
        d="M12 23c3 0 5.5-1 7.2-2.7l-3.5-2.7c-1 .7-2.2 1.1-3.7 1.1-2.9 0-5.3-1.9-6.2-4.5H2.2v2.8A11 11 0 0 0 12 23Z"
      />
      <path fill="#FBBC05" d="M5.8 14.2a6.6 6.6 0 0 1 0-4.3V7.1H2.2a11 11 0 0 0 0 9.9l3.6-2.8Z" />
      <path
        fill="#EA4335"
        d="M12 5.4c1.6 0 3.1.6 4.2 1.6l3.1-3.1A11 11 0 0 0 2.2 7.1l3.6 2.8C6.7 7.3 9.1 5.4 12 5.4Z"
      />
    </svg>
  );
}
