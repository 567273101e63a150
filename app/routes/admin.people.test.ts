import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, users } from "~/db/schema";
import { changeRole } from "~/features/auth/people.server";
import { COMMAND_LINE } from "~/utils/audit-log.server";
import { sendForm } from "../../tests/support/form-post";
import { shopContext } from "../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { action, loader } from "./admin.people";

/**
 * /admin/people: an owner gives an account a role (or takes it away) with
 * their password; each change is one audit entry; the shop keeps an owner.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("/admin/people");

const PASSWORD = "Str0ng!Pass";

describe.each(engines)("people in the back office on $name", (engine: TestDatabase) => {
  const { context, signedUp, signedUpAs } = shopContext(engine);
  const unique = (label: string) =>
    `${label}-${engine.name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const roleOf = async (email: string) =>
    (await engine.db.select({ role: users.role }).from(users).where(eq(users.email, email)))[0]?.role;
  const entriesAbout = (email: string) =>
    engine.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `person:${email}`));

  it("makes a shopper staff with the owner's password, and writes who did it to the audit log", async () => {
    const ownerEmail = unique("owner");
    const owner = await signedUpAs(ownerEmail, "owner");
    const helper = unique("helper");
    await signedUp(helper);

    const sent = await sendForm(action, context, "/admin/people", {
      cookie: owner,
      form: { email: helper.toUpperCase(), role: "staff", password: PASSWORD },
    });

    expect(sent.status).toBe(200);
    expect(sent.body?.done).toBe(`${helper} is now staff.`);
    expect(await roleOf(helper)).toBe("staff");
    const [entry] = await entriesAbout(helper);
    expect(entry).toMatchObject({
      actorEmail: ownerEmail,
      action: "person.role-changed",
      before: { role: "shopper" },
      after: { role: "staff" },
    });
    const listed = (await sendForm(loader, context, "/admin/people", { cookie: owner, method: "GET" }))
      .body as {
      people: { email: string; role: string }[];
    };
    expect(listed.people).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: helper, role: "staff" })]),
    );
  });

  it("refuses a wrong password next to its field and changes nothing", async () => {
    const owner = await signedUpAs(unique("owner"), "owner");
    const helper = unique("helper");
    await signedUp(helper);

    const sent = await sendForm(action, context, "/admin/people", {
      cookie: owner,
      form: { email: helper, role: "owner", password: "not-my-password" },
    });

    expect(sent.status).toBe(403);
    expect(JSON.stringify(sent.body)).toContain("password");
    expect(await roleOf(helper)).toBe("shopper");
    expect(await entriesAbout(helper)).toHaveLength(0);
  });

  it("names the email field when no account has it, and a bad role", async () => {
    const owner = await signedUpAs(unique("owner"), "owner");
    const nobody = await sendForm(action, context, "/admin/people", {
      cookie: owner,
      form: { email: unique("nobody"), role: "staff", password: PASSWORD },
    });
    expect(nobody.status).toBe(404);
    expect(fieldError(nobody.body, "email")).toMatch(/no account/);

    const badRole = await sendForm(action, context, "/admin/people", {
      cookie: owner,
      form: { email: unique("someone"), role: "king", password: PASSWORD },
    });
    expect(badRole.status).toBe(400);
    expect(fieldError(badRole.body, "role")).toBe("Choose a role.");
  });

  it("keeps the shop's last owner: an owner alone cannot step down", async () => {
    // This database is shared by the tests: the only owner left is made here, after everyone else steps down.
    await engine.db.update(users).set({ role: "shopper" }).where(eq(users.role, "owner"));
    const onlyEmail = unique("only-owner");
    const only = await signedUpAs(onlyEmail, "owner");

    const sent = await sendForm(action, context, "/admin/people", {
      cookie: only,
      form: { email: onlyEmail, role: "shopper", password: PASSWORD },
    });

    expect(sent.status).toBe(409);
    expect(JSON.stringify(sent.body)).toContain("at least one owner");
    expect(await roleOf(onlyEmail)).toBe("owner");
  });

  it("lets two owners stepping each other down at once leave one owner, never none", async () => {
    await engine.db.update(users).set({ role: "shopper" }).where(eq(users.role, "owner"));
    const first = unique("first");
    const second = unique("second");
    await signedUpAs(first, "owner");
    await signedUpAs(second, "owner");
    const actor = (email: string) => ({ id: null, email, name: email });

    const outcomes = await Promise.all([
      changeRole(engine.db, actor(first), second, "shopper"),
      changeRole(engine.db, actor(second), first, "shopper"),
    ]);

    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([{ ok: false, reason: "last-owner" }]);
    const owners = await engine.db.select().from(users).where(eq(users.role, "owner"));
    expect(owners).toHaveLength(1);
  });

  it("makes an owner from the command line, written as the command line's change", async () => {
    const email = unique("first-owner");
    await signedUp(email);
    const made = await changeRole(engine.db, COMMAND_LINE, email, "owner");
    expect(made).toMatchObject({ ok: true, changed: true });
    const [entry] = await entriesAbout(email);
    expect(entry).toMatchObject({ actorId: null, actorEmail: "command line" });
  });
});

/** The first message the form's answer gives for `field`. */
function fieldError(body: Record<string, unknown> | null, field: string): string | undefined {
  const result = body?.result as { error?: Record<string, string[]> } | undefined;
  return result?.error?.[field]?.[0];
}
