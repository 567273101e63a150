import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { accounts, users } from "~/db/schema";
import { type Actor, COMMAND_LINE, recordChange } from "~/utils/audit-log.server";
import type { Role } from "./roles";

/**
 * The back office's people (docs/decisions/0029): who is staff or owner, and
 * an owner changing that. The first owner comes from the command line
 * (`npm run owner:add`) or OWNER_EMAILS at start-up; every change is written
 * to the audit log in its own transaction.
 */

export interface Person {
  id: string;
  name: string;
  email: string;
  role: Role;
}

/** Everyone who is not only a shopper, owners first, then by email. */
export async function backOfficePeople(db: Database): Promise<Person[]> {
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role })
    .from(users)
    .where(ne(users.role, "shopper"))
    .orderBy(sql`${users.role} = 'owner' desc`, asc(users.email));
  return rows as Person[];
}

export type RoleChange =
  | { ok: true; person: Person; changed: boolean }
  | { ok: false; reason: "no-account" | "last-owner" };

/**
 * Gives the account with this email the role `role`. Refused when there is
 * no such account, or when it would leave the shop without an owner (the
 * owners' rows are locked first, so two owners demoting each other at once
 * cannot both succeed).
 */
export async function changeRole(db: Database, actor: Actor, email: string, role: Role): Promise<RoleChange> {
  return db.transaction(async (tx) => {
    // Every owner's row, locked in one order: who else is an owner cannot change under us.
    const owners = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.role, "owner"))
      .orderBy(asc(users.id))
      .for("update");
    const [person] = await tx
      .select({ id: users.id, name: users.name, email: users.email, role: users.role })
      .from(users)
      .where(eq(users.email, email.trim().toLowerCase()))
      .for("update");
    if (!person) return { ok: false, reason: "no-account" } as const;
    if (person.role === role) return { ok: true, person: person as Person, changed: false } as const;
    if (person.role === "owner" && owners.length <= 1) return { ok: false, reason: "last-owner" } as const;
    await tx
      .update(users)
      .set({ role })
      .where(and(eq(users.id, person.id), eq(users.role, person.role)));
    await recordChange(tx, actor, {
      action: "person.role-changed",
      subject: `person:${person.email}`,
      subjectName: `${person.name} (${person.email})`,
      before: { role: person.role },
      after: { role },
    });
    return { ok: true, person: { ...(person as Person), role }, changed: true } as const;
  });
}

/**
 * `npm run owner:add -- <email>` and OWNER_EMAILS: the account becomes an
 * owner, written to the audit log as done from the command line.
 */
export function makeOwner(db: Database, email: string): Promise<RoleChange> {
  return changeRole(db, COMMAND_LINE, email, "owner");
}

/** Whether the demo identity provider stands in for Google (DEMO_IDENTITY_PROVIDER=1). */
export interface OwnerEmailsSettings {
  demoIdentityProvider: boolean;
}

/**
 * Whether OWNER_EMAILS may take the account's email as its holder's: confirmed
 * through the shop's link, or vouched for by Google. The demo identity
 * provider vouches for whatever email is typed into it, so while it stands in
 * for Google an account it made (one without a password) proves nothing. A
 * password comes only with sign-up, confirmed by the shop's link, or with a
 * reset link sent to the address; the demo never joins a password account.
 */
export async function emailProvesOwner(
  db: Database,
  userId: string,
  { demoIdentityProvider }: OwnerEmailsSettings,
): Promise<boolean> {
  const [row] = await db.select({ verified: users.emailVerified }).from(users).where(eq(users.id, userId));
  if (!row?.verified) return false;
  if (!demoIdentityProvider) return true;
  const withPassword = await db.$count(
    accounts,
    and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")),
  );
  return withPassword > 0;
}

/**
 * OWNER_EMAILS at start-up: each listed account that exists and has
 * confirmed its email becomes an owner (an unconfirmed one could be someone
 * who signed up with the owner's address first). What happened to each, for the log.
 */
export async function applyOwnerEmails(
  db: Database,
  emails: string[],
  settings: OwnerEmailsSettings,
): Promise<{ email: string; outcome: "made-owner" | "already-owner" | "no-account" | "not-confirmed" }[]> {
  const outcomes = [];
  for (const email of emails) {
    const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (!account) {
      outcomes.push({ email, outcome: "no-account" as const });
      continue;
    }
    if (!(await emailProvesOwner(db, account.id, settings))) {
      outcomes.push({ email, outcome: "not-confirmed" as const });
      continue;
    }
    const result = await makeOwner(db, email);
    outcomes.push({
      email,
      outcome: result.ok && result.changed ? ("made-owner" as const) : ("already-owner" as const),
    });
  }
  return outcomes;
}
