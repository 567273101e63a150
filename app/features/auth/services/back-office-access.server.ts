import { eq } from "drizzle-orm";
import { users } from "~/db/schema";
import type { Actor } from "~/utils/audit-log.server";
import type { AuthCore, Visitor } from "../auth-core.server";
import { emailProvesOwner, makeOwner } from "../people.server";
import { isRole, type Role } from "../roles";
import type { SessionUser } from "../session-user";
import { confirmIdentity, type IdentityRefused } from "./guards.server";
import { signedInSession } from "./sessions.server";

/**
 * Who is asking the back office: the signed-in account and its role, read
 * from the database on every request (a role taken away counts at once).
 */
export interface BackOfficeVisitor {
  user: SessionUser;
  role: Role;
  /** The same person as the audit log names them. */
  actor: Actor;
}

export function backOfficeAccessFor(core: AuthCore, visitor: Visitor) {
  return {
    /** The signed-in account with its role; null when signed out. */
    async visitor(): Promise<BackOfficeVisitor | null> {
      const signedIn = await signedInSession(core, visitor.request);
      if (!signedIn) return null;
      const { user } = signedIn;
      // The role and the email's confirmation as they are now, not as a session's cached copy has them.
      const [row] = await core.db.select({ role: users.role }).from(users).where(eq(users.id, user.id));
      let role: Role = isRole(row?.role) ? row.role : "shopper";
      // OWNER_EMAILS at the door makes a new shop's first owner: they sign up, confirm their email
      // and open /admin, with no restart. Only while the shop has no owner: once it has one, owners
      // decide at /admin/people, and a listed person they removed stays removed. Unconfirmed, the
      // address proves nothing.
      if (
        role !== "owner" &&
        core.ownerEmails.includes(user.email) &&
        (await emailProvesOwner(core.db, user.id, { demoIdentityProvider: core.google?.kind === "demo" })) &&
        (await core.db.$count(users, eq(users.role, "owner"))) === 0
      ) {
        await makeOwner(core.db, user.email);
        role = "owner";
      }
      return { user, role, actor: { id: user.id, email: user.email, name: user.name } };
    },

    /**
     * A change that asks for the password again (a role, a deletion): the
     * password, counted as a login attempt before it is checked, or a sign-in
     * of the last ten minutes for an account without one. Null when it holds.
     */
    async confirm(password: string | undefined): Promise<IdentityRefused | null> {
      const signedIn = await signedInSession(core, visitor.request);
      if (!signedIn) return { ok: false, reason: "sign-in-again" };
      return confirmIdentity(core, visitor, signedIn, password);
    },
  };
}

export type BackOfficeAccess = ReturnType<typeof backOfficeAccessFor>;
