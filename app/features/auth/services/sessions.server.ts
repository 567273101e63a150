import Bowser from "bowser";
import { type AuthCore, isRefusal, toSessionUser, type Visitor } from "../auth-core.server";
import { SESSION_COOKIE_PAIR } from "../better-auth.server";
import { pastAbsoluteLifetime } from "../session-lifetime.server";
import type { SessionUser } from "../session-user";

/**
 * Sessions: who is signed in, logging out, and the signed-in shopper's list
 * of sessions, each of which can be ended. Database sessions, re-read on
 * every request (docs/decisions/0004).
 */

/** One of the shopper's signed-in sessions, as the account pages list it (never its token). */
export interface SessionSummary {
  id: string;
  /** "Chrome on Linux", or "Unknown device". */
  device: string;
  address: string | null;
  lastActive: string;
  signedInAt: string;
  current: boolean;
}

/** The signed-in session as Better Auth knows it (id, token, when it signed in), or null. */
export async function signedInSession(core: AuthCore, request: Request) {
  const found = await core.auth().api.getSession({
    headers: request.headers,
    query: { disableRefresh: true },
  });
  return found ? { session: found.session, user: toSessionUser(found.user) } : null;
}

export type SignedIn = NonNullable<Awaited<ReturnType<typeof signedInSession>>>;

/**
 * The token of the session this browser has now, read before a new sign-in
 * so that the sign-in can end it afterwards (no session fixation, nothing left behind).
 */
export async function currentSessionToken(core: AuthCore, request: Request): Promise<string | null> {
  return (await signedInSession(core, request))?.session.token ?? null;
}

/** Ends the session a browser had before signing in again. */
export async function endPreviousSession(core: AuthCore, token: string | null) {
  if (token) await core.tables.endSessionByToken(token);
}

/** Whether the request carries a session cookie at all (named in better-auth.server.ts). */
function carriesSessionCookie(request: Request): boolean {
  return (request.headers.get("cookie") ?? "")
    .split(";")
    .some((pair) => SESSION_COOKIE_PAIR.test(pair.trim()));
}

export function sessionsFor(core: AuthCore, visitor: Visitor) {
  const { request } = visitor;
  return {
    /** The signed-in user, plus any Set-Cookie that refreshes the session. */
    async current(): Promise<{ user: SessionUser | null; headers: Headers }> {
      // A guest (no session cookie) is known without asking Better Auth: most requests are a
      // guest's, and building its request context costs as much as the rest of an add to cart.
      if (!carriesSessionCookie(request)) return { user: null, headers: new Headers() };
      // A session past its absolute lifetime reads as expired (session-lifetime.server.ts):
      // Better Auth deletes it and the headers clear its cookie.
      const { headers, response } = await core.auth().api.getSession({
        headers: request.headers,
        returnHeaders: true,
      });
      return { user: response ? toSessionUser(response.user) : null, headers };
    },

    /** Deletes the session on the server; the headers clear the cookies. */
    async logOut(): Promise<Headers> {
      try {
        const { headers } = await core.auth().api.signOut({ headers: request.headers, returnHeaders: true });
        return headers;
      } catch (error) {
        // No session to end (already logged out, or it expired): nothing to do.
        if (isRefusal(error)) return new Headers();
        throw error;
      }
    },

    /** The signed-in shopper's sessions, this one marked; null when signed out. */
    async list(): Promise<SessionSummary[] | null> {
      const signedIn = await signedInSession(core, request);
      if (!signedIn) return null;
      const now = Date.now();
      const rows = await core.tables.liveSessionsOf(signedIn.user.id, new Date(now));
      // A session past its absolute lifetime is over, though its row waits for its next read to go.
      return rows
        .filter((row) => !pastAbsoluteLifetime(row.createdAt, now))
        .map((row) => ({
          id: row.id,
          device: describeDevice(row.userAgent),
          address: row.ipAddress,
          lastActive: row.updatedAt.toISOString(),
          signedInAt: row.createdAt.toISOString(),
          current: row.id === signedIn.session.id,
        }));
    },

    /** Ends one of the signed-in shopper's sessions (by its id); false when it is not theirs. */
    async end(sessionId: string): Promise<boolean> {
      const signedIn = await signedInSession(core, request);
      if (!signedIn) return false;
      return core.tables.endSessionOf(signedIn.user.id, sessionId);
    },

    /** Ends every session of the signed-in shopper but this one; resolves with how many ended. */
    async endOthers(): Promise<number> {
      const signedIn = await signedInSession(core, request);
      if (!signedIn) return 0;
      return core.tables.endSessionsBut(signedIn.user.id, signedIn.session.id);
    },
  };
}

export type Sessions = ReturnType<typeof sessionsFor>;

/** "Chrome on Linux": what a shopper recognises of a session's browser. */
function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name;
  const system = parsed.os.name;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}
