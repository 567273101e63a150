import { and, eq, ne, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { accounts, sessions, users, verifications } from "~/db/schema";
import { recordingMail } from "../../../tests/support/recording-mailer";
import { openTestDatabases, reportPostgresSkipped } from "../../../tests/support/test-database";
import { type AuthService, createAuthService, profileFromProvider } from "./auth.server";
import { createDeviceCookies } from "./device-cookie.server";
import { hashPassword, PASSWORD_HASH_PARAMETERS } from "./password-hasher.server";
import { createAuthRateLimiter } from "./rate-limit.server";
import { SESSION_ABSOLUTE_LIFETIME_SECONDS } from "./session-lifetime.server";

const engines = await openTestDatabases();
afterAll(() => Promise.all(engines.map((engine) => engine.close())));

const SECRET = "test-secret-test-secret-test-secret-0123";
const PASSWORD = "Str0ng!Pass";
let counter = 0;
const email = () => `user${++counter}-${Date.now()}@example.com`;

/** The cookies a browser would send back after these Set-Cookie headers. */
function cookieHeader(headers: Headers, previous = ""): string {
  const jar = new Map(
    previous ? previous.split("; ").map((pair) => pair.split("=") as [string, string]) : [],
  );
  for (const cookie of headers.getSetCookie()) {
    const [pair = ""] = cookie.split(";");
    const index = pair.indexOf("=");
    const name = pair.slice(0, index);
    const value = pair.slice(index + 1);
    if (/max-age=0/i.test(cookie) || value === "") jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

const request = (cookie = "") => new Request("http://localhost:3000/", { headers: cookie ? { cookie } : {} });

describe.each(engines)("auth service on $name", (engine) => {
  const service = (baseUrl = "http://localhost:3000"): AuthService =>
    createAuthService({
      db: engine.db,
      secret: SECRET,
      baseUrl,
      google: null,
      // Generous limits: these tests are about accounts, not limits.
      limiter: createAuthRateLimiter({
        limits: {
          signUpPerAddress: { points: 1000, duration: 60 },
          signUpPerAccount: { points: 1000, duration: 60 },
          loginPerAddress: { points: 1000, duration: 60 },
          emailLinkPerAddress: { points: 1000, duration: 60 },
          emailTokenPerAddress: { points: 1000, duration: 60 },
        },
      }),
      trustedProxies: 0,
      mail: mail.queue,
    });
  const mail = recordingMail(engine.db);
  const auth = service();

  /** A fresh account, signed up from 203.0.113.1, and the sign-up's answer. */
  async function newAccount() {
    const address = email();
    const signedUp = await auth.signUp(
      request(),
      { name: "A", email: address, photo: "https://e.com/a.png", password: PASSWORD },
      "203.0.113.1",
    );
    if (!signedUp.ok) throw new Error("sign-up failed");
    return { address, signedUp };
  }

  it("signs up with name and photo, stores an argon2id hash and signs the user in", async () => {
    const address = email();
    const result = await auth.signUp(
      request(),
      { name: "Ada", email: address, photo: "https://example.com/ada.png", password: PASSWORD },
      "203.0.113.1",
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.user).toMatchObject({ name: "Ada", email: address, image: "https://example.com/ada.png" });
    const [stored] = await engine.db.select().from(accounts).where(eq(accounts.userId, result.user.id));
    expect(stored?.providerId).toBe("credential");
    expect(stored?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const { user } = await auth.getSession(request(cookieHeader(result.headers)));
    expect(user?.email).toBe(address);
  });

  it("sets an HttpOnly, SameSite=Lax session cookie that expires, Secure with a __Secure- name over https", async () => {
    const plain = await auth.signUp(
      request(),
      { name: "A", email: email(), photo: "https://e.com/a.png", password: PASSWORD },
      "203.0.113.1",
    );
    if (!plain.ok) throw new Error("sign-up failed");
    const cookie = plain.headers.getSetCookie().find((value) => value.includes("session_token"));
    expect(cookie).toMatch(/^backline\.session_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=604800/);
    expect(cookie).not.toMatch(/Secure/);

    const secure = await service("https://shop.example").signUp(
      new Request("https://shop.example/"),
      { name: "B", email: email(), photo: "https://e.com/b.png", password: PASSWORD },
      "203.0.113.1",
    );
    if (!secure.ok) throw new Error("sign-up failed");
    const secureCookie = secure.headers.getSetCookie().find((value) => value.includes("session_token"));
    expect(secureCookie).toMatch(/^__Secure-backline\.session_token=/);
    expect(secureCookie).toMatch(/; Secure/i);
  });

  it("refuses a second account for one email, in any letter case", async () => {
    const address = email();
    const input = { name: "A", email: address, photo: "https://e.com/a.png", password: PASSWORD };
    expect((await auth.signUp(request(), input, "203.0.113.1")).ok).toBe(true);
    expect(await auth.signUp(request(), { ...input, email: address.toLowerCase() }, "203.0.113.1")).toEqual({
      ok: false,
      reason: "email-taken",
    });
  });

  it("creates exactly one account when 20 sign-ups for one email arrive at once", async () => {
    const address = email();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        auth.signUp(
          request(),
          { name: `N${i}`, email: address, photo: "https://e.com/a.png", password: PASSWORD },
          "203.0.113.1",
        ),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok && result.reason === "email-taken")).toHaveLength(19);
    expect(await engine.db.select().from(users).where(eq(users.email, address))).toHaveLength(1);
  });

  it("logs in with the right password only, with one answer for every failure", async () => {
    const address = email();
    await auth.signUp(
      request(),
      { name: "A", email: address, photo: "https://e.com/a.png", password: PASSWORD },
      "203.0.113.1",
    );
    expect(await auth.logIn(request(), { email: address, password: "Wr0ng!Pass" }, "203.0.113.2")).toEqual({
      ok: false,
      reason: "invalid-credentials",
    });
    expect(await auth.logIn(request(), { email: email(), password: PASSWORD }, "203.0.113.2")).toEqual({
      ok: false,
      reason: "invalid-credentials",
    });
    const ok = await auth.logIn(request(), { email: address, password: PASSWORD }, "203.0.113.2");
    expect(ok.ok).toBe(true);
  });

  it("re-hashes, at the next login, a password stored with weaker parameters than today's", async () => {
    const { address, signedUp } = await newAccount();
    // An account from before the parameters were raised.
    const weak = await hashPassword(PASSWORD, { ...PASSWORD_HASH_PARAMETERS, memory: 4096, passes: 1 });
    await engine.db.update(accounts).set({ password: weak }).where(eq(accounts.userId, signedUp.user.id));

    expect((await auth.logIn(request(), { email: address, password: PASSWORD }, "203.0.113.2")).ok).toBe(
      true,
    );
    const [stored] = await engine.db
      .select({ password: accounts.password })
      .from(accounts)
      .where(eq(accounts.userId, signedUp.user.id));
    expect(stored?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // The new hash still opens the account; a wrong password still does not.
    expect((await auth.logIn(request(), { email: address, password: PASSWORD }, "203.0.113.2")).ok).toBe(
      true,
    );
    expect((await auth.logIn(request(), { email: address, password: "Wr0ng!Pass" }, "203.0.113.2")).ok).toBe(
      false,
    );
  });

  it("starts a new session on every sign-in and ends the one the browser had", async () => {
    const { address, signedUp } = await newAccount();
    const first = cookieHeader(signedUp.headers);
    const again = await auth.logIn(request(first), { email: address, password: PASSWORD }, "203.0.113.1");
    if (!again.ok) throw new Error("login failed");
    const second = cookieHeader(again.headers, first);
    expect(second).not.toBe(first);
    expect((await auth.getSession(request(first))).user).toBeNull();
    expect((await auth.getSession(request(second))).user?.email).toBe(address);
  });

  it("logging out deletes the session on the server", async () => {
    const signedUp = await auth.signUp(
      request(),
      { name: "A", email: email(), photo: "https://e.com/a.png", password: PASSWORD },
      "203.0.113.1",
    );
    if (!signedUp.ok) throw new Error("sign-up failed");
    const cookie = cookieHeader(signedUp.headers);
    const before = await engine.db.select().from(sessions).where(eq(sessions.userId, signedUp.user.id));
    expect(before).toHaveLength(1);
    const cleared = await auth.logOut(request(cookie));
    expect(
      cleared.getSetCookie().some((value) => /session_token=;/.test(value) || /Max-Age=0/i.test(value)),
    ).toBe(true);
    expect(await engine.db.select().from(sessions).where(eq(sessions.userId, signedUp.user.id))).toHaveLength(
      0,
    );
    expect((await auth.getSession(request(cookie))).user).toBeNull();
  });

  it("sessions expire", async () => {
    const signedUp = await auth.signUp(
      request(),
      { name: "A", email: email(), photo: "https://e.com/a.png", password: PASSWORD },
      "203.0.113.1",
    );
    if (!signedUp.ok) throw new Error("sign-up failed");
    const cookie = cookieHeader(signedUp.headers);
    const [row] = await engine.db.select().from(sessions).where(eq(sessions.userId, signedUp.user.id));
    const days = ((row?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    await engine.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, signedUp.user.id));
    expect((await auth.getSession(request(cookie))).user).toBeNull();
  });

  it("ends a session at its absolute lifetime, however active it stayed", async () => {
    const signedUp = await auth.signUp(
      request(),
      { name: "A", email: email(), photo: "https://e.com/a.png", password: PASSWORD },
      "203.0.113.1",
    );
    if (!signedUp.ok) throw new Error("sign-up failed");
    const cookie = cookieHeader(signedUp.headers);
    // Still within its sliding expiry (extended by recent use), but signed in long ago.
    const signedInAt = new Date(Date.now() - (SESSION_ABSOLUTE_LIFETIME_SECONDS + 60) * 1000);
    await engine.db
      .update(sessions)
      .set({ createdAt: signedInAt, expiresAt: new Date(Date.now() + 86_400_000) })
      .where(eq(sessions.userId, signedUp.user.id));
    const { user, headers } = await auth.getSession(request(cookie));
    expect(user).toBeNull();
    expect(headers.getSetCookie().some((value) => /session_token=;|Max-Age=0/i.test(value))).toBe(true);
    expect(await engine.db.select().from(sessions).where(eq(sessions.userId, signedUp.user.id))).toHaveLength(
      0,
    );
  });

  it("refuses a session past its absolute lifetime on every way in: the account page, each of its forms, the profile", async () => {
    /** A fresh account whose session was signed in 31 days ago and kept alive since; and a second, current session of it. */
    const oldSession = async () => {
      const { address, signedUp } = await newAccount();
      const elsewhere = await auth.logIn(request(), { email: address, password: PASSWORD }, "203.0.113.2");
      if (!elsewhere.ok) throw new Error("login failed");
      const [current] = await engine.db
        .select({ id: sessions.id })
        .from(sessions)
        .where(eq(sessions.token, tokenOf(elsewhere.headers)));
      await engine.db
        .update(sessions)
        .set({
          createdAt: new Date(Date.now() - (SESSION_ABSOLUTE_LIFETIME_SECONDS + 60) * 1000),
          expiresAt: new Date(Date.now() + 86_400_000),
        })
        .where(and(eq(sessions.userId, signedUp.user.id), ne(sessions.id, current?.id ?? "")));
      return { address, userId: signedUp.user.id, old: request(cookieHeader(signedUp.headers)) };
    };
    const tokenOf = (headers: Headers) =>
      decodeURIComponent(cookieHeader(headers).match(/session_token=([^.;]+)/)?.[1] ?? "");

    expect(await auth.accountOverview((await oldSession()).old)).toBeNull();

    const others = await oldSession();
    expect(await auth.revokeOtherSessions(others.old)).toBe(0);
    expect(await engine.db.select().from(sessions).where(eq(sessions.userId, others.userId))).toHaveLength(1);

    const password = await oldSession();
    expect(
      await auth.changePassword(
        password.old,
        { currentPassword: PASSWORD, newPassword: "N3w!Passw0rd" },
        "203.0.113.9",
      ),
    ).toEqual({ ok: false, reason: "sign-in-again" });

    const move = await oldSession();
    const sentBefore = (await mail.delivered()).length;
    expect(
      await auth.requestEmailChange(move.old, { newEmail: email(), password: PASSWORD }, "203.0.113.9"),
    ).toEqual({ ok: false, reason: "sign-in-again" });
    expect((await mail.delivered()).length).toBe(sentBefore);

    const leaver = await oldSession();
    expect(await auth.deleteAccount(leaver.old, { password: PASSWORD }, "203.0.113.9")).toEqual({
      ok: false,
      reason: "sign-in-again",
    });
    expect(await engine.db.select().from(users).where(eq(users.id, leaver.userId))).toHaveLength(1);

    const renamed = await oldSession();
    expect(await auth.updateProfile(renamed.old, { name: "Mallory", image: null })).toBeNull();
    const [row] = await engine.db.select().from(users).where(eq(users.id, renamed.userId));
    expect(row?.name).toBe("A");
  });

  it("a sign-up that fails part-way leaves no trace: the email can sign up afterwards", async () => {
    const address = email();
    const input = { name: "A", email: address, photo: "https://e.com/a.png", password: PASSWORD };
    // The password row cannot be written (as when the database dies or its disk fills up
    // between the two inserts): the user row written just before must not survive.
    await engine.db.execute(sql`
      create or replace function backline_test_refuse_account() returns trigger as $$
      begin raise exception 'simulated failure while storing the password'; end $$ language plpgsql`);
    await engine.db.execute(sql`
      create trigger backline_test_refuse_account before insert on accounts
      for each row execute function backline_test_refuse_account()`);
    try {
      const failed = await auth.signUp(request(), input, "203.0.113.1");
      expect(failed).toEqual({ ok: false, reason: "unavailable" });
    } finally {
      await engine.db.execute(sql`drop trigger backline_test_refuse_account on accounts`);
    }
    expect(await engine.db.select().from(users).where(eq(users.email, address))).toHaveLength(0);
    const retried = await auth.signUp(request(), input, "203.0.113.1");
    expect(retried.ok).toBe(true);
    expect((await auth.logIn(request(), { email: address, password: PASSWORD }, "203.0.113.1")).ok).toBe(
      true,
    );
  });

  it("a guesser cannot lock the owner out: the browser the owner signed up in still gets in", async () => {
    const address = email();
    const guarded = createAuthService({
      db: engine.db,
      secret: SECRET,
      baseUrl: "http://localhost:3000",
      google: null,
      limiter: createAuthRateLimiter({
        limits: {
          loginPerAccountAndAddress: { points: 3, duration: 900 },
          loginPerAccountFromUnknownDevices: { points: 6, duration: 3600 },
        },
      }),
      trustedProxies: 0,
      mail: recordingMail(engine.db).queue,
    });
    const signedUp = await guarded.signUp(
      request(),
      { name: "Owner", email: address, photo: "https://e.com/a.png", password: PASSWORD },
      "198.51.100.20",
    );
    if (!signedUp.ok) throw new Error("sign-up failed");
    // The browser the account was created in keeps a device cookie.
    const ownersBrowser = cookieHeader(signedUp.headers);
    expect(ownersBrowser).toMatch(/backline_device=/);

    // A guesser from many addresses uses up the account's budget for unknown clients…
    for (let i = 0; i < 6; i++)
      await guarded.logIn(request(), { email: address, password: `Wr0ng!${i}x` }, `203.0.113.${50 + i}`);
    const guesser = await guarded.logIn(request(), { email: address, password: PASSWORD }, "203.0.113.99");
    expect(guesser).toMatchObject({ ok: false, reason: "rate-limited" });
    // …an unknown browser, even with the right password, is refused for now; the owner's is not.
    const back = await guarded.logIn(
      request(ownersBrowser),
      { email: address, password: PASSWORD },
      "198.51.100.20",
    );
    expect(back.ok).toBe(true);
  });

  it("a device cookie counts only for its own account and only when its signature holds", async () => {
    const deviceCookies = createDeviceCookies({ secret: SECRET, secure: false });
    const issued = await deviceCookies.remember(request(), "owner@example.com");
    const cookie = issued.split(";")[0] ?? "";
    expect(await deviceCookies.knownDevice(request(cookie), "owner@example.com")).toEqual(expect.any(String));
    expect(await deviceCookies.knownDevice(request(cookie), "other@example.com")).toBeNull();
    const [name, value = ""] = cookie.split("=");
    const tampered = `${name}=${value.replace(/^.{4}/, "AAAA")}`;
    expect(await deviceCookies.knownDevice(request(tampered), "owner@example.com")).toBeNull();
    const otherSecret = createDeviceCookies({ secret: `${SECRET}-other`, secure: false });
    expect(await otherSecret.knownDevice(request(cookie), "owner@example.com")).toBeNull();
  });

  it("strangers cannot stop a shopper's reset emails: the owner's browser, or an address it signed in from, still gets one", async () => {
    const { address, signedUp } = await newAccount();
    // Only the device cookie of the browser the account was made in (signed out since).
    const ownersBrowser = cookieHeader(signedUp.headers)
      .split("; ")
      .filter((cookie) => cookie.startsWith("backline_device="))
      .join("; ");
    const resets = async () =>
      (await mail.delivered()).filter(
        (message) => message.to === address && message.kind === "password-reset",
      ).length;
    // Ten requests from four addresses use up the mailbox's ten an hour from anywhere…
    for (let i = 0; i < 10; i++) {
      expect(await auth.requestPasswordReset(request(), address, `198.51.100.${60 + (i % 4)}`)).toEqual({
        ok: true,
      });
    }
    expect(await resets()).toBe(10);
    // …so a stranger's next one gets the usual answer and sends nothing,
    expect(await auth.requestPasswordReset(request(), address, "198.51.100.70")).toEqual({ ok: true });
    expect(await resets()).toBe(10);
    // but the owner's own browser, from an address never seen, still gets a link,
    expect(await auth.requestPasswordReset(request(ownersBrowser), address, "192.0.2.44")).toEqual({
      ok: true,
    });
    expect(await resets()).toBe(11);
    // and so does another browser at the address the account was signed in from.
    expect(await auth.requestPasswordReset(request(), address, "203.0.113.1")).toEqual({ ok: true });
    expect(await resets()).toBe(12);
  });

  /** The token in the last email to `to` whose link starts with `path`. */
  const tokenSentTo = async (to: string, path: string) => {
    const message = (await mail.delivered()).findLast((sent) => sent.to === to && sent.text.includes(path));
    const link = message?.text.match(/https?:\/\/\S+/)?.[0];
    return link ? (new URL(link).searchParams.get("token") ?? "") : "";
  };

  it("stores link tokens only as hashes: the database holds no token that works", async () => {
    const { address } = await newAccount();
    expect((await auth.requestPasswordReset(request(), address, "203.0.113.9")).ok).toBe(true);
    const resetToken = await tokenSentTo(address, "/reset-password?token=");
    const confirmToken = await tokenSentTo(address, "/verify-email?token=");
    expect(resetToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(confirmToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const stored = await engine.db.select({ identifier: verifications.identifier }).from(verifications);
    for (const { identifier } of stored) {
      expect(identifier).not.toContain(resetToken);
      expect(identifier).not.toContain(confirmToken);
    }
    expect((await auth.checkPasswordResetToken(resetToken, "203.0.113.9")).ok).toBe(true);
  });

  it("a confirmation link works once, and not after it expires", async () => {
    const first = await newAccount();
    const token = await tokenSentTo(first.address, "/verify-email?token=");
    const owner = first.signedUp.user.id;
    expect(await auth.verifyEmail(token, owner, "203.0.113.9")).toMatchObject({ ok: true });
    expect(await auth.verifyEmail(token, owner, "203.0.113.9")).toEqual({
      ok: false,
      reason: "invalid-token",
    });
    const [row] = await engine.db.select().from(users).where(eq(users.email, first.address));
    expect(row?.emailVerified).toBe(true);

    const second = await newAccount();
    const late = await tokenSentTo(second.address, "/verify-email?token=");
    await engine.db.update(verifications).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(await auth.verifyEmail(late, second.signedUp.user.id, "203.0.113.9")).toEqual({
      ok: false,
      reason: "invalid-token",
    });
  });

  it("only the account's own owner confirms its link: anyone else's click changes nothing and leaves it unused", async () => {
    // Someone registered an address that is not theirs; its owner, signed in to their own account, clicks.
    const squatter = await newAccount();
    const owner = await newAccount();
    const token = await tokenSentTo(squatter.address, "/verify-email?token=");
    expect(await auth.verifyEmail(token, owner.signedUp.user.id, "203.0.113.9")).toEqual({
      ok: false,
      reason: "invalid-token",
    });
    const [row] = await engine.db.select().from(users).where(eq(users.id, squatter.signedUp.user.id));
    expect(row?.emailVerified).toBe(false);
    expect(await auth.verifyEmail(token, squatter.signedUp.user.id, "203.0.113.9")).toMatchObject({
      ok: true,
    });
  });

  it("a new password ends every link the account had pending", async () => {
    const { address, signedUp } = await newAccount();
    const confirmation = await tokenSentTo(address, "/verify-email?token=");
    await auth.requestPasswordReset(request(), address, "203.0.113.11");
    const firstReset = await tokenSentTo(address, "/reset-password?token=");
    await auth.requestPasswordReset(request(), address, "203.0.113.11");
    const secondReset = await tokenSentTo(address, "/reset-password?token=");
    expect(await auth.resetPassword(secondReset, "N3w!Passw0rd", "203.0.113.11")).toEqual({ ok: true });
    expect((await auth.checkPasswordResetToken(firstReset, "203.0.113.11")).ok).toBe(false);
    expect(await auth.verifyEmail(confirmation, signedUp.user.id, "203.0.113.11")).toEqual({
      ok: false,
      reason: "invalid-token",
    });
  });

  it("a reset link expires, and a used one cannot be used again", async () => {
    const { address } = await newAccount();
    await auth.requestPasswordReset(request(), address, "203.0.113.9");
    const token = await tokenSentTo(address, "/reset-password?token=");
    expect(await auth.resetPassword(token, "N3w!Passw0rd", "203.0.113.9")).toEqual({ ok: true });
    expect(await auth.resetPassword(token, "An0ther!Pass", "203.0.113.9")).toEqual({
      ok: false,
      reason: "invalid-token",
    });

    await auth.requestPasswordReset(request(), address, "203.0.113.10");
    const late = await tokenSentTo(address, "/reset-password?token=");
    expect(late).not.toBe(token);
    await engine.db.update(verifications).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await auth.checkPasswordResetToken(late, "203.0.113.9")).ok).toBe(false);
    expect(await auth.resetPassword(late, "An0ther!Pass", "203.0.113.9")).toEqual({
      ok: false,
      reason: "invalid-token",
    });
    const logIn = await auth.logIn(request(), { email: address, password: "N3w!Passw0rd" }, "203.0.113.9");
    expect(logIn.ok).toBe(true);
  });

  it("a confirmation link sent before the email changed does not confirm the new email", async () => {
    const { address, signedUp } = await newAccount();
    const token = await tokenSentTo(address, "/verify-email?token=");
    const moved = `moved-${address}`;
    await engine.db.update(users).set({ email: moved }).where(eq(users.id, signedUp.user.id));
    expect(await auth.verifyEmail(token, signedUp.user.id, "203.0.113.9")).toEqual({
      ok: false,
      reason: "invalid-token",
    });
    const [row] = await engine.db.select().from(users).where(eq(users.id, signedUp.user.id));
    expect(row?.emailVerified).toBe(false);
  });

  it("an account without a password proves itself by a recent sign-in: deleting it needs one from the last 10 minutes", async () => {
    const { address, signedUp } = await newAccount();
    const cookie = cookieHeader(signedUp.headers);
    // As an account made by Google sign-in: no password.
    await engine.db.delete(accounts).where(eq(accounts.userId, signedUp.user.id));
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    await engine.db
      .update(sessions)
      .set({ createdAt: minutesAgo(11) })
      .where(eq(sessions.userId, signedUp.user.id));
    expect(await auth.deleteAccount(request(cookie), { password: undefined }, "203.0.113.9")).toEqual({
      ok: false,
      reason: "sign-in-again",
    });
    expect((await auth.accountOverview(request(cookie)))?.hasPassword).toBe(false);

    await engine.db
      .update(sessions)
      .set({ createdAt: minutesAgo(1) })
      .where(eq(sessions.userId, signedUp.user.id));
    expect((await auth.deleteAccount(request(cookie), { password: undefined }, "203.0.113.9")).ok).toBe(true);
    expect(await engine.db.select().from(users).where(eq(users.email, address))).toEqual([]);
    expect(await engine.db.select().from(sessions).where(eq(sessions.userId, signedUp.user.id))).toEqual([]);
  });

  it("refuses attempts over the rate limit before touching the database", async () => {
    const strict = createAuthService({
      db: engine.db,
      secret: SECRET,
      baseUrl: "http://localhost:3000",
      google: null,
      limiter: createAuthRateLimiter({ limits: { loginPerAddress: { points: 1, duration: 60 } } }),
      trustedProxies: 0,
      mail: recordingMail(engine.db).queue,
    });
    await strict.logIn(request(), { email: email(), password: PASSWORD }, "198.51.100.1");
    const refused = await strict.logIn(request(), { email: email(), password: PASSWORD }, "198.51.100.1");
    expect(refused).toEqual({ ok: false, reason: "rate-limited", retryAfterSeconds: expect.any(Number) });
  });
});

reportPostgresSkipped("auth service on $name");

describe("what an identity provider says, held to the shop's rules", () => {
  it("keeps a valid email, name and https photo", () => {
    expect(
      profileFromProvider({ email: "Ada@Example.com", name: "Ada Lovelace", image: "https://e.com/a.png" }),
    ).toEqual({ email: "ada@example.com", name: "Ada Lovelace", image: "https://e.com/a.png" });
  });

  it("drops an email that is not one, so the sign-in fails cleanly instead of storing it", () => {
    expect(profileFromProvider({ email: "ada\u0000@example.com", name: "Ada" }).email).toBeNull();
    expect(profileFromProvider({ email: `${"a".repeat(300)}@example.com`, name: "Ada" }).email).toBeNull();
  });

  it("replaces a name with control characters by the email's first part, and a non-http photo by none", () => {
    expect(
      profileFromProvider({
        email: "ada@example.com",
        name: "Ada\u0000\u202e",
        image: "javascript:alert(1)",
      }),
    ).toEqual({ email: "ada@example.com", name: "ada", image: undefined });
  });
});
