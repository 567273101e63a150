import { and, eq, ne } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accounts, orders, sessions, users } from "~/db/schema";
import {
  cookieHeader,
  newAccount,
  PASSWORD,
  sessionPastLifetime,
  sessionTokenOf,
  testAuth,
  uniqueEmail,
} from "../../../../tests/support/auth-service";
import { orderRow } from "../../../../tests/support/shopper";
import { openTestDatabases, reportPostgresSkipped } from "../../../../tests/support/test-database";

const engines = await openTestDatabases();

describe.each(engines)("the account's settings on $name", (engine) => {
  const shop = testAuth(engine.db);
  const from = shop.from;

  it("refuses a session past its absolute lifetime on every way in: the account pages, each of their forms, the profile", async () => {
    /** A fresh account whose session was signed in 31 days ago and kept alive since; and a second, current session of it. */
    const oldSession = async () => {
      const { address, signedUp, cookie } = await newAccount(shop);
      const elsewhere = await from("203.0.113.2").credentials.logIn({ email: address, password: PASSWORD });
      if (!elsewhere.ok) throw new Error("login failed");
      const [current] = await engine.db
        .select({ id: sessions.id })
        .from(sessions)
        .where(eq(sessions.token, sessionTokenOf(cookieHeader(elsewhere.headers))));
      await engine.db
        .update(sessions)
        .set(sessionPastLifetime())
        .where(and(eq(sessions.userId, signedUp.user.id), ne(sessions.id, current?.id ?? "")));
      return { address, userId: signedUp.user.id, old: from("203.0.113.9", cookie) };
    };

    expect(await (await oldSession()).old.account.overview()).toBeNull();
    expect(await (await oldSession()).old.sessions.list()).toBeNull();

    const others = await oldSession();
    expect(await others.old.sessions.endOthers()).toBe(0);
    expect(await engine.db.select().from(sessions).where(eq(sessions.userId, others.userId))).toHaveLength(1);

    const password = await oldSession();
    expect(
      await password.old.credentials.changePassword({
        currentPassword: PASSWORD,
        newPassword: "N3w!Passw0rd",
      }),
    ).toEqual({ ok: false, reason: "sign-in-again" });

    const move = await oldSession();
    const sentBefore = (await shop.delivered()).length;
    expect(
      await move.old.emailLinks.requestEmailChange({ newEmail: uniqueEmail(), password: PASSWORD }),
    ).toEqual({ ok: false, reason: "sign-in-again" });
    expect((await shop.delivered()).length).toBe(sentBefore);

    const leaver = await oldSession();
    expect(await leaver.old.account.delete({ password: PASSWORD })).toEqual({
      ok: false,
      reason: "sign-in-again",
    });
    expect(await engine.db.select().from(users).where(eq(users.id, leaver.userId))).toHaveLength(1);

    const renamed = await oldSession();
    expect(await renamed.old.account.updateProfile({ name: "Mallory", image: null })).toBeNull();
    const [row] = await engine.db.select().from(users).where(eq(users.id, renamed.userId));
    expect(row?.name).toBe("A");
  });

  it("deleting an account keeps its orders for the books, without the person's name, email or address", async () => {
    const { signedUp, cookie } = await newAccount(shop);
    const [order] = await engine.db
      .insert(orders)
      .values(
        orderRow({
          number: `BL-D${signedUp.user.id.slice(0, 4).toUpperCase()}`,
          idempotencyScope: `user:${signedUp.user.id}`,
          userId: signedUp.user.id,
          email: signedUp.user.email,
        }),
      )
      .returning({ id: orders.id });
    expect((await from("203.0.113.9", cookie).account.delete({ password: PASSWORD })).ok).toBe(true);
    const [kept] = await engine.db
      .select()
      .from(orders)
      .where(eq(orders.id, (order as { id: number }).id));
    expect(kept).toMatchObject({ userId: null, email: "deleted-account@invalid", totalCents: 1499 });
    expect(JSON.stringify(kept?.shippingAddress)).not.toMatch(/Ada|High Street|Leeds|LS1/);
  });

  it("an account without a password proves itself by a recent sign-in: deleting it needs one from the last 10 minutes", async () => {
    const { address, signedUp, cookie } = await newAccount(shop);
    const account = from("203.0.113.9", cookie).account;
    // As an account made by Google sign-in: no password.
    await engine.db.delete(accounts).where(eq(accounts.userId, signedUp.user.id));
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    await engine.db
      .update(sessions)
      .set({ createdAt: minutesAgo(11) })
      .where(eq(sessions.userId, signedUp.user.id));
    expect(await account.delete({ password: undefined })).toEqual({ ok: false, reason: "sign-in-again" });
    expect((await account.overview())?.hasPassword).toBe(false);

    await engine.db
      .update(sessions)
      .set({ createdAt: minutesAgo(1) })
      .where(eq(sessions.userId, signedUp.user.id));
    expect((await account.delete({ password: undefined })).ok).toBe(true);
    expect(await engine.db.select().from(users).where(eq(users.email, address))).toEqual([]);
    expect(await engine.db.select().from(sessions).where(eq(sessions.userId, signedUp.user.id))).toEqual([]);
  });
});

reportPostgresSkipped("the account's settings on $name");
