import { type AuthCore, type RateLimited, rateLimited, type Visitor } from "../auth-core.server";
import { GOOGLE_PROVIDER_ID, SESSION_COOKIE_PAIR } from "../better-auth.server";
import type { GoogleAvailability } from "../google-sign-in-message";
import { currentSessionToken, endPreviousSession } from "./sessions.server";

/**
 * Sign-in with Google (or the local demo provider that stands in for it):
 * OpenID Connect through Better Auth's genericOAuth plugin, started by the
 * shop's own form and finished at Better Auth's callback (docs/decisions/0004).
 */
type GoogleStartResult =
  | { ok: true; url: string; headers: Headers }
  | { ok: false; reason: "not-configured" }
  | RateLimited;

/** Whether the shop offers Google sign-in, and which kind. */
function googleAvailability(core: AuthCore): GoogleAvailability {
  if (!core.google) return "not-configured";
  return core.google.kind === "demo" ? "demo" : "configured";
}

export function googleSignInFor(core: AuthCore, visitor: Visitor) {
  const { request, address } = visitor;
  return {
    availability: googleAvailability(core),

    /** The provider's authorization URL, and the cookies that bind its state to this browser. */
    async start(urls: { callbackURL: string; errorCallbackURL: string }): Promise<GoogleStartResult> {
      if (!core.google) return { ok: false, reason: "not-configured" };
      const decision = await core.limiter.googleStart(address);
      if (!decision.allowed) return rateLimited(decision.retryAfterSeconds);
      const { headers, response } = await core.auth().api.signInSocial({
        body: {
          provider: GOOGLE_PROVIDER_ID,
          callbackURL: urls.callbackURL,
          errorCallbackURL: urls.errorCallbackURL,
          disableRedirect: true,
        },
        headers: request.headers,
        returnHeaders: true,
      });
      if (!response.url) throw new Error("Google sign-in did not return an authorization URL");
      return { ok: true, url: response.url, headers };
    },

    /** Better Auth's own HTTP endpoints (only the OAuth callback is routed here). */
    async callback(): Promise<Response> {
      const previous = await currentSessionToken(core, request);
      const response = await core.asVisitor(visitor, () => core.auth().handler(request));
      // The provider's callback signed someone in: as with a password login,
      // the session this browser had before ends.
      if (previous && setsSessionCookie(response.headers)) await endPreviousSession(core, previous);
      return response;
    },
  };
}

export type GoogleSignIn = ReturnType<typeof googleSignInFor>;

/** Whether these headers start a new session (a session cookie with a value, not one being cleared). */
function setsSessionCookie(headers: Headers): boolean {
  return headers
    .getSetCookie()
    .some((cookie) => SESSION_COOKIE_PAIR.test(cookie) && !/max-age=0/i.test(cookie));
}
