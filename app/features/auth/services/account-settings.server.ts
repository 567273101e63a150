import { isAPIError } from "better-auth/api";
import { logger } from "~/utils/logger.server";
import { type AuthCore, type Unavailable, unavailable, type Visitor } from "../auth-core.server";
import type { SessionUser } from "../session-user";
import { confirmIdentity, type IdentityRefused } from "./guards.server";
import { sessionsFor, signedInSession } from "./sessions.server";

/**
 * The signed-in shopper's account: what it is (the overview), its profile
 * (name and photo), and its deletion. The email and the password change
 * through email-links.server.ts and credentials.server.ts.
 */
export interface AccountOverview {
  user: SessionUser;
  /** The account signs in with a password (otherwise with Google only). */
  hasPassword: boolean;
}

export function accountSettingsFor(core: AuthCore, visitor: Visitor) {
  const { request, address } = visitor;
  const sessions = sessionsFor(core, visitor);
  return {
    /** The signed-in shopper's account; null when signed out. */
    async overview(): Promise<AccountOverview | null> {
      const signedIn = await signedInSession(core, request);
      if (!signedIn) return null;
      return {
        user: signedIn.user,
        hasPassword: (await core.tables.passwordHashOf(signedIn.user.id)) !== null,
      };
    },

    /** Sets the signed-in user's name and photo; null when nobody is signed in (nothing changed). */
    async updateProfile(profile: { name: string; image: string | null }): Promise<SessionUser | null> {
      try {
        await core.auth().api.updateUser({
          body: { name: profile.name, image: profile.image },
          headers: request.headers,
        });
      } catch (error) {
        // No session (signed out, ended, past its lifetime): nothing was changed.
        if (isAPIError(error) && error.statusCode === 401) return null;
        throw error;
      }
      return (await sessions.current()).user;
    },

    /** Deletes the account, its sessions and personal data; the headers clear the cookies. */
    async delete(input: {
      password: string | undefined;
    }): Promise<{ ok: true; headers: Headers } | IdentityRefused | Unavailable> {
      try {
        const signedIn = await signedInSession(core, request);
        if (!signedIn) return { ok: false, reason: "sign-in-again" };
        const refused = await confirmIdentity(core, visitor, signedIn, input.password);
        if (refused) return refused;
        await core.tables.deleteAccount(signedIn.user.id);
        logger.info({ event: "account.deleted", accountId: signedIn.user.id, address }, "account deleted");
        return { ok: true, headers: await sessions.logOut() };
      } catch (error) {
        return unavailable(error, "account deletion");
      }
    },
  };
}

export type AccountSettings = ReturnType<typeof accountSettingsFor>;
