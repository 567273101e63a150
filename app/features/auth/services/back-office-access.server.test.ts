import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accounts, auditLog, users } from "~/db/schema";
import { shopContext } from "../../../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../../tests/support/test-database";
import { applyOwnerEmails } from "../people.server";

/**
 * OWNER_EMAILS at the back office's door: a listed account is an owner once
 * its email is confirmed (an unconfirmed address proves nothing: anyone can
 * sign up with it), without a restart; the role is read on every request.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("OWNER_EMAILS at the door");

describe.each(engines)("OWNER_EMAILS at the back office's door on $name", (engine: TestDatabase) => {
  const listed = `listed-${engine.name.toLowerCase()}@example.com`;
  const { auth, signedUp } = shopContext(engine, { ownerEmails: [listed] });
  let listedCookie = "";
  const visitorWith = (cookie: string) =>
    auth
      .for({
        request: new Request("http://localhost:3000/admin", { headers: { cookie } }),
        address: "203.0.113.9",
      })
      .backOffice.visitor();

  it("keeps a listed account a shopper until its email is confirmed, then makes it the shop's first owner", async () => {
    // A new shop: nobody is an owner yet.
    await engine.db.update(users).set({ role: "shopper" }).where(eq(users.role, "owner"));
    const cookie = await signedUp(listed);
    listedCookie = cookie;
    expect((await visitorWith(cookie))?.role).toBe("shopper");

    await engine.db.update(users).set({ emailVerified: true }).where(eq(users.email, listed));
    expect((await visitorWith(cookie))?.role).toBe("owner");
    const entries = await engine.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `person:${listed}`));
    expect(entries).toEqual([
      expect.objectContaining({ actorEmail: "command line", after: { role: "owner" } }),
    ]);
  });

  it("leaves a listed person an owner removed as they are: the door only makes a first owner", async () => {
    await engine.db.update(users).set({ role: "staff" }).where(eq(users.email, listed));
    await engine.db.insert(users).values({
      id: `other-owner-${engine.name}`,
      name: "Other",
      email: `other-owner-${engine.name.toLowerCase()}@example.com`,
      role: "owner",
    });
    expect((await visitorWith(listedCookie))?.role).toBe("staff");
  });

  it("reads the role on every request: a role taken away counts at once", async () => {
    const email = `unlisted-${engine.name.toLowerCase()}@example.com`;
    const cookie = await signedUp(email);
    await engine.db.update(users).set({ role: "staff" }).where(eq(users.email, email));
    expect((await visitorWith(cookie))?.role).toBe("staff");
    await engine.db.update(users).set({ role: "shopper" }).where(eq(users.email, email));
    expect((await visitorWith(cookie))?.role).toBe("shopper");
  });
});

describe.each(engines)("OWNER_EMAILS and the demo identity provider on $name", (engine: TestDatabase) => {
  const { signedUp } = shopContext(engine);
  /** An account as a Google sign-in makes it: no password, its email verified on the provider's word. */
  async function madeByGoogle(email: string) {
    const id = `google-${email}`;
    await engine.db.insert(users).values({ id, name: "Gail", email, emailVerified: true });
    await engine.db
      .insert(accounts)
      .values({ id: `account-${id}`, userId: id, providerId: "google", accountId: id });
  }
  const shopper = () => engine.db.update(users).set({ role: "shopper" }).where(eq(users.role, "owner"));

  it("takes Google's word for an email, but never the demo provider's, which vouches for any email typed", async () => {
    const email = `google-made-${engine.name.toLowerCase()}@example.com`;
    await madeByGoogle(email);
    await shopper();
    expect(await applyOwnerEmails(engine.db, [email], { demoIdentityProvider: true })).toEqual([
      { email, outcome: "not-confirmed" },
    ]);
    expect(await applyOwnerEmails(engine.db, [email], { demoIdentityProvider: false })).toEqual([
      { email, outcome: "made-owner" },
    ]);
  });

  it("with the demo provider on, still takes a password account's email confirmed through the shop's link", async () => {
    const email = `confirmed-${engine.name.toLowerCase()}@example.com`;
    await signedUp(email);
    await engine.db.update(users).set({ emailVerified: true }).where(eq(users.email, email));
    await shopper();
    expect(await applyOwnerEmails(engine.db, [email], { demoIdentityProvider: true })).toEqual([
      { email, outcome: "made-owner" },
    ]);
  });
});
