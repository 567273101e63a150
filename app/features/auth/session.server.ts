import type { Toast } from "~/utils/flash.server";
import { logFailure } from "~/utils/logger.server";
import { appendSetCookies } from "./auth.server";
import { takeFlash } from "./flash.server";
import type { Sessions } from "./services/sessions.server";
import type { SessionUser } from "./session-user";

/**
 * What the root loader tells every page: the signed-in user (so the navbar is
 * right at first render) and a toast left by a redirect. The headers refresh
 * the session cookie and clear the flash cookie.
 */
export async function rootSession(
  request: Request,
  sessions: Sessions,
): Promise<{ user: SessionUser | null; toast: Toast | null; headers: Headers }> {
  const headers = new Headers();
  let user: SessionUser | null = null;
  try {
    const session = await sessions.current();
    user = session.user;
    appendSetCookies(headers, session.headers);
  } catch (error) {
    // The catalogue can still be browsed while sessions cannot be read.
    logFailure(error, "session look-up failed; rendering signed out");
  }
  const flash = await takeFlash(request);
  if (flash) headers.append("Set-Cookie", flash.clear);
  return { user, toast: flash?.toast ?? null, headers };
}
