/**
 * How the Google sign-in popup reports back to the page that opened it: on a
 * BroadcastChannel (same origin; it works even when the trip through the
 * identity provider has cut the popup's link to its opener) and, when the
 * link is still there, with window.opener.postMessage. Each attempt has its
 * own id, so another open tab ignores a result that is not its own.
 */
export const GOOGLE_SIGN_IN_CHANNEL = "backline-google-sign-in";
export const GOOGLE_SIGN_IN_MESSAGE = "backline:google-sign-in";

export type GoogleSignInResult =
  | { ok: true; user: { email: string; name: string; image: string | null } }
  | { ok: false; message: string };

export type GoogleSignInMessage = GoogleSignInResult & {
  type: typeof GOOGLE_SIGN_IN_MESSAGE;
  attempt: string;
};

export function isGoogleSignInMessage(value: unknown): value is GoogleSignInMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Partial<GoogleSignInMessage>;
  return (
    message.type === GOOGLE_SIGN_IN_MESSAGE &&
    typeof message.attempt === "string" &&
    typeof message.ok === "boolean"
  );
}

/** An attempt id: letters, digits and dashes only, as it travels in URLs. */
export const ATTEMPT_PATTERN = /^[A-Za-z0-9-]{8,64}$/;

/** Whether 'Continue with Google' works here: real Google, the local demo provider, or neither. */
export type GoogleAvailability = "configured" | "demo" | "not-configured";
