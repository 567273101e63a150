import type { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { accounts, users, verifications } from "~/db/schema";
import {
  cookieHeader,
  newAccount,
  PASSWORD,
  request,
  TEST_SECRET,
  testAuth,
  uniqueEmail,
} from "../../../../tests/support/auth-service";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../../tests/support/test-database";
import { createDeviceCookies } from "../device-cookie.server";
import { hashPassword, PASSWORD_HASH_PARAMETERS } from "../password-hasher.server";
import { createAuthRateLimiter } from "../rate-limit.server";

const engines = await openTestDatabases();

describe.each(engines)("passwords: sign-up, login, reset on $name", (engine) => {
  const shop = testAuth(engine.db);
  const from = shop.from;
  const signUpInput = (email: string, name = "A") => ({
    name,
    email,
    photo: "https://e.com/a.png",
    password: PASSWORD,
  });

  it("signs up with name and photo, stores an argon2id hash and signs the user in", async () => {
    const address = uniqueEmail();
    const result = await from("203.0.113.1").credentials.signUp({
      name: "Ada",
      email: address,
      photo: "https://example.com/ada.png",
      password: PASSWORD,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.user).toMatchObject({ name: "Ada", email: address, image: "https://example.com/ada.png" });
    const [stored] = await engine.db.select().from(accounts).where(eq(accounts.userId, result.user.id));
    expect(stored?.providerId).toBe("credential");
    expect(stored?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const { user } = await from("203.0.113.1", cookieHeader(result.headers)).sessions.current();
    expect(user?.email).toBe(address);
  });

  it("sets an HttpOnly, SameSite=Lax session cookie that expires, Secure with a __Secure- name over https", async () => {
    const plain = await from("203.0.113.1").credentials.signUp(signUpInput(uniqueEmail()));
    if (!plain.ok) throw new Error("sign-up failed");
    const cookie = plain.headers.getSetCookie().find((value) => value.includes("session_token"));
    expect(cookie).toMatch(/^backline\.session_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=604800/);
    expect(cookie).not.toMatch(/Secure/);

    const secure = await testAuth(engine.db, { baseUrl: "https://shop.example" })
      .from("203.0.113.1")
      .credentials.signUp(signUpInput(uniqueEmail(), "B"));
    if (!secure.ok) throw new Error("sign-up failed");
    const secureCookie = secure.headers.getSetCookie().find((value) => value.includes("session_token"));
    expect(secureCookie).toMatch(/^__Secure-backline\.session_token=/);
    expect(secureCookie).toMatch(/; Secure/i);
  });

  it("refuses a second account for one email, in any letter case", async () => {
    const address = uniqueEmail();
    expect((await from("203.0.113.1").credentials.signUp(signUpInput(address))).ok).toBe(true);
    expect(await from("203.0.113.1").credentials.signUp(signUpInput(address.toLowerCase()))).toEqual({
      ok: false,
      reason: "email-taken",
    });
  });

  it("creates exactly one account when 20 sign-ups for one email arrive at once", async () => {
    const address = uniqueEmail();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        from("203.0.113.1").credentials.signUp(signUpInput(address, `N${i}`)),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok && result.reason === "email-taken")).toHaveLength(19);
    expect(await engine.db.select().from(users).where(eq(users.email, address))).toHaveLength(1);
  });

  it("logs in with the right password only, with one answer for every failure", async () => {
    const { address } = await newAccount(shop);
    const elsewhere = from("203.0.113.2").credentials;
    expect(await elsewhere.logIn({ email: address, password: "Wr0ng!Pass" })).toEqual({
      ok: false,
      reason: "invalid-credentials",
    });
    expect(await elsewhere.logIn({ email: uniqueEmail(), password: PASSWORD })).toEqual({
      ok: false,
      reason: "invalid-credentials",
    });
    expect((await elsewhere.logIn({ email: address, password: PASSWORD })).ok).toBe(true);
  });

  it("re-hashes, at the next login, a password stored with weaker parameters than today's", async () => {
    const { address, signedUp } = await newAccount(shop);
    // An account from before the parameters were raised.
    const weak = await hashPassword(PASSWORD, { ...PASSWORD_HASH_PARAMETERS, memory: 4096, passes: 1 });
    await engine.db.update(accounts).set({ password: weak }).where(eq(accounts.userId, signedUp.user.id));

    const credentials = from("203.0.113.2").credentials;
    expect((await credentials.logIn({ email: address, password: PASSWORD })).ok).toBe(true);
    const [stored] = await engine.db
      .select({ password: accounts.password })
      .from(accounts)
      .where(eq(accounts.userId, signedUp.user.id));
    expect(stored?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // The new hash still opens the account; a wrong password still does not.
    expect((await credentials.logIn({ email: address, password: PASSWORD })).ok).toBe(true);
    expect((await credentials.logIn({ email: address, password: "Wr0ng!Pass" })).ok).toBe(false);
  });

  it("starts a new session on every sign-in and ends the one the browser had", async () => {
    const { address, cookie: first } = await newAccount(shop);
    const again = await from("203.0.113.1", first).credentials.logIn({ email: address, password: PASSWORD });
    if (!again.ok) throw new Error("login failed");
    const second = cookieHeader(again.headers, first);
    expect(second).not.toBe(first);
    expect((await from("203.0.113.1", first).sessions.current()).user).toBeNull();
    expect((await from("203.0.113.1", second).sessions.current()).user?.email).toBe(address);
  });

  it("a sign-up that fails part-way leaves no trace: the email can sign up afterwards", async () => {
    const address = uniqueEmail();
    const input = signUpInput(address);
    // The password row cannot be written (as when the database dies or its disk fills up
    // between the two inserts): the user row written just before must not survive.
    await engine.db.execute(sql`
      create or replace function backline_test_refuse_account() returns trigger as $$
      begin raise exception 'simulated failure while storing the password'; end $$ language plpgsql`);
    await engine.db.execute(sql`
      create trigger backline_test_refuse_account before insert on accounts
      for each row execute function backline_test_refuse_account()`);
    try {
      const failed = await from("203.0.113.1").credentials.signUp(input);
      expect(failed).toEqual({ ok: false, reason: "unavailable" });
    } finally {
      await engine.db.execute(sql`drop trigger backline_test_refuse_account on accounts`);
    }
    expect(await engine.db.select().from(users).where(eq(users.email, address))).toHaveLength(0);
    expect((await from("203.0.113.1").credentials.signUp(input)).ok).toBe(true);
    expect((await from("203.0.113.1").credentials.logIn({ email: address, password: PASSWORD })).ok).toBe(
      true,
    );
  });

  it("a guesser cannot lock the owner out: the browser the owner signed up in still gets in", async () => {
    const address = uniqueEmail();
    const guarded = testAuth(engine.db, {
      limiter: createAuthRateLimiter({
        limits: {
          loginPerAccountAndAddress: { points: 3, duration: 900 },
          loginPerAccountFromUnknownDevices: { points: 6, duration: 3600 },
        },
      }),
    });
    const signedUp = await guarded.from("198.51.100.20").credentials.signUp(signUpInput(address, "Owner"));
    if (!signedUp.ok) throw new Error("sign-up failed");
    // The browser the account was created in keeps a device cookie.
    const ownersBrowser = cookieHeader(signedUp.headers);
    expect(ownersBrowser).toMatch(/backline_device=/);

    // A guesser from many addresses uses up the account's budget for unknown clients…
    for (let i = 0; i < 6; i++)
      await guarded
        .from(`203.0.113.${50 + i}`)
        .credentials.logIn({ email: address, password: `Wr0ng!${i}x` });
    const guesser = await guarded
      .from("203.0.113.99")
      .credentials.logIn({ email: address, password: PASSWORD });
    expect(guesser).toMatchObject({ ok: false, reason: "rate-limited" });
    // …an unknown browser, even with the right password, is refused for now; the owner's is not.
    const back = await guarded
      .from("198.51.100.20", ownersBrowser)
      .credentials.logIn({ email: address, password: PASSWORD });
    expect(back.ok).toBe(true);
  });

  it("a device cookie counts only for its own account and only when its signature holds", async () => {
    const deviceCookies = createDeviceCookies({ secret: TEST_SECRET, secure: false });
    const issued = await deviceCookies.remember(request(), "owner@example.com");
    const cookie = issued.split(";")[0] ?? "";
    expect(await deviceCookies.knownDevice(request(cookie), "owner@example.com")).toEqual(expect.any(String));
    expect(await deviceCookies.knownDevice(request(cookie), "other@example.com")).toBeNull();
    const [name, value = ""] = cookie.split("=");
    const tampered = `${name}=${value.replace(/^.{4}/, "AAAA")}`;
    expect(await deviceCookies.knownDevice(request(tampered), "owner@example.com")).toBeNull();
    const otherSecret = createDeviceCookies({ secret: `${TEST_SECRET}-other`, secure: false });
    expect(await otherSecret.knownDevice(request(cookie), "owner@example.com")).toBeNull();
  });

  /** The token in the last email to `to` whose link starts with `path`. */
  const tokenSentTo = async (to: string, path: string) => {
    const message = (await shop.delivered()).findLast((sent) => sent.to === to && sent.text.includes(path));
    const link = message?.text.match(/https?:\/\/\S+/)?.[0];
    return link ? (new URL(link).searchParams.get("token") ?? "") : "";
  };

  it("a new password ends every link the account had pending", async () => {
    const { address, signedUp } = await newAccount(shop);
    const visitor = from("203.0.113.11");
    const confirmation = await tokenSentTo(address, "/verify-email?token=");
    await visitor.emailLinks.requestPasswordReset(address);
    const firstReset = await tokenSentTo(address, "/reset-password?token=");
    await visitor.emailLinks.requestPasswordReset(address);
    const secondReset = await tokenSentTo(address, "/reset-password?token=");
    expect(await visitor.credentials.resetPassword(secondReset, "N3w!Passw0rd")).toEqual({ ok: true });
    expect((await visitor.credentials.checkResetToken(firstReset)).ok).toBe(false);
    expect(await visitor.emailLinks.verifyEmail(confirmation, signedUp.user.id)).toEqual({
      ok: false,
      reason: "invalid-token",
    });
  });

  it("a reset link expires, and a used one cannot be used again", async () => {
    const { address } = await newAccount(shop);
    const visitor = from("203.0.113.9");
    await visitor.emailLinks.requestPasswordReset(address);
    const token = await tokenSentTo(address, "/reset-password?token=");
    expect(await visitor.credentials.resetPassword(token, "N3w!Passw0rd")).toEqual({ ok: true });
    expect(await visitor.credentials.resetPassword(token, "An0ther!Pass")).toEqual({
      ok: false,
      reason: "invalid-token",
    });

    await from("203.0.113.10").emailLinks.requestPasswordReset(address);
    const late = await tokenSentTo(address, "/reset-password?token=");
    expect(late).not.toBe(token);
    await engine.db.update(verifications).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await visitor.credentials.checkResetToken(late)).ok).toBe(false);
    expect(await visitor.credentials.resetPassword(late, "An0ther!Pass")).toEqual({
      ok: false,
      reason: "invalid-token",
    });
    expect((await visitor.credentials.logIn({ email: address, password: "N3w!Passw0rd" })).ok).toBe(true);
  });

  it("refuses attempts over the rate limit before the password is checked: the one query looks up the account for the log", async () => {
    const strict = testAuth(engine.db, {
      limiter: createAuthRateLimiter({ limits: { loginPerAddress: { points: 1, duration: 60 } } }),
    });
    const { address } = await newAccount(shop);
    await strict.from("198.51.100.1").credentials.logIn({ email: address, password: "Wr0ng!Pass1" });
    const visitor = strict.from("198.51.100.1");
    const { result: refused, statements } = await statementsDuring(engine, () =>
      visitor.credentials.logIn({ email: address, password: PASSWORD }),
    );
    expect(refused).toEqual({ ok: false, reason: "rate-limited", retryAfterSeconds: expect.any(Number) });
    // No password hash read, no session written: only the account's id, for the log line.
    expect(statements).toEqual([expect.stringMatching(/^select "id", "email" from "users" where/)]);
  });
});

/**
 * The SQL sent to the test database while `action` runs: every statement a
 * PostgreSQL connection sends (pooled or in a transaction), or every query
 * and transaction on the embedded database. Nothing else uses the database
 * meanwhile: a test file's tests run one at a time.
 */
async function statementsDuring<T>(engine: TestDatabase, action: () => Promise<T>) {
  const pglite = (engine.db as unknown as { $client: PGlite }).$client;
  const spies =
    engine.kind === "postgres"
      ? { query: vi.spyOn(pg.Client.prototype, "query") }
      : {
          query: vi.spyOn(pglite, "query"),
          exec: vi.spyOn(pglite, "exec"),
          transaction: vi.spyOn(pglite, "transaction"),
        };
  try {
    const result = await action();
    const statements = Object.entries(spies).flatMap(([call, spy]) =>
      spy.mock.calls.map(([query]: unknown[]) => {
        if (call === "transaction") return "a transaction";
        return typeof query === "string" ? query : (query as { text: string }).text;
      }),
    );
    return { result, statements };
  } finally {
    for (const spy of Object.values(spies)) spy.mockRestore();
  }
}

reportPostgresSkipped("passwords: sign-up, login, reset on $name");
