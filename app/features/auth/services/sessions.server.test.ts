import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions } from "~/db/schema";
import {
  cookieHeader,
  newAccount,
  PASSWORD,
  sessionPastLifetime,
  testAuth,
  uniqueEmail,
} from "../../../../tests/support/auth-service";
import { openTestDatabases, reportPostgresSkipped } from "../../../../tests/support/test-database";

const engines = await openTestDatabases();

describe.each(engines)("sessions on $name", (engine) => {
  const shop = testAuth(engine.db);
  const from = shop.from;
  const sessionsOf = (userId: string) => engine.db.select().from(sessions).where(eq(sessions.userId, userId));

  it("logging out deletes the session on the server", async () => {
    const { signedUp, cookie } = await newAccount(shop);
    expect(await sessionsOf(signedUp.user.id)).toHaveLength(1);
    const cleared = await from("203.0.113.1", cookie).sessions.logOut();
    expect(
      cleared.getSetCookie().some((value) => /session_token=;/.test(value) || /Max-Age=0/i.test(value)),
    ).toBe(true);
    expect(await sessionsOf(signedUp.user.id)).toHaveLength(0);
    expect((await from("203.0.113.1", cookie).sessions.current()).user).toBeNull();
  });

  it("sessions expire", async () => {
    const { signedUp, cookie } = await newAccount(shop);
    const [row] = await sessionsOf(signedUp.user.id);
    const days = ((row?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    await engine.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, signedUp.user.id));
    expect((await from("203.0.113.1", cookie).sessions.current()).user).toBeNull();
  });

  it("ends a session at its absolute lifetime, however active it stayed", async () => {
    const { signedUp, cookie } = await newAccount(shop);
    // Still within its sliding expiry (extended by recent use), but signed in long ago.
    await engine.db.update(sessions).set(sessionPastLifetime()).where(eq(sessions.userId, signedUp.user.id));
    const { user, headers } = await from("203.0.113.1", cookie).sessions.current();
    expect(user).toBeNull();
    expect(headers.getSetCookie().some((value) => /session_token=;|Max-Age=0/i.test(value))).toBe(true);
    expect(await sessionsOf(signedUp.user.id)).toHaveLength(0);
  });

  it("a session records the client address the shop resolved, never one the request's headers claim", async () => {
    const email = uniqueEmail();
    // Headers a client can send, claiming another address: Better Auth reads none of them.
    const spoofing = {
      "x-forwarded-for": "192.0.2.66",
      "x-real-ip": "192.0.2.67",
      "x-backline-client-address": "192.0.2.68",
    };
    const signedUp = await shop.auth
      .for({ request: new Request("http://localhost:3000/", { headers: spoofing }), address: "198.51.100.7" })
      .credentials.signUp({ name: "A", email, photo: "https://e.com/a.png", password: PASSWORD });
    if (!signedUp.ok) throw new Error("sign-up failed");
    // IPv6 as Better Auth records it: the /64 network, written out; an IPv4-mapped address as IPv4.
    await from("2001:db8:85a3:8d3:1319:8a2e:370:7348").credentials.logIn({ email, password: PASSWORD });
    await from("::ffff:203.0.113.8").credentials.logIn({ email, password: PASSWORD });
    const listed = await from("203.0.113.1", cookieHeader(signedUp.headers)).sessions.list();
    expect(listed?.map((session) => session.address).sort()).toEqual([
      "198.51.100.7",
      "2001:0db8:85a3:08d3:0000:0000:0000:0000",
      "203.0.113.8",
    ]);
  });

  it("lists the shopper's sessions by device, this one marked, and ends another by its id or all the others", async () => {
    const { address, cookie } = await newAccount(shop);
    const chrome = new Request("http://localhost:3000/", {
      headers: {
        "user-agent":
          "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
      },
    });
    const inChrome = await shop.auth
      .for({ request: chrome, address: "203.0.113.2" })
      .credentials.logIn({ email: address, password: PASSWORD });
    const third = await from("203.0.113.3").credentials.logIn({ email: address, password: PASSWORD });
    if (!inChrome.ok || !third.ok) throw new Error("login failed");
    const chromeCookie = cookieHeader(inChrome.headers);

    const mine = from("203.0.113.1", cookie).sessions;
    const listed = (await mine.list()) ?? [];
    expect(listed).toHaveLength(3);
    expect(listed.filter((session) => session.current).map((session) => session.address)).toEqual([
      "203.0.113.1",
    ]);
    const chromeSession = listed.find((session) => session.address === "203.0.113.2");
    expect(chromeSession?.device).toBe("Chrome on Linux");

    // Another account's shopper cannot end it; its owner can.
    const stranger = await newAccount(shop);
    expect(await from("203.0.113.1", stranger.cookie).sessions.end(chromeSession?.id ?? "")).toBe(false);
    expect((await from("203.0.113.2", chromeCookie).sessions.current()).user?.email).toBe(address);
    expect(await mine.end(chromeSession?.id ?? "")).toBe(true);
    expect((await from("203.0.113.2", chromeCookie).sessions.current()).user).toBeNull();

    expect(await mine.endOthers()).toBe(1);
    expect((await mine.list())?.map((session) => session.current)).toEqual([true]);
    expect(await from("203.0.113.1").sessions.list()).toBeNull();
  });
});

reportPostgresSkipped("sessions on $name");
