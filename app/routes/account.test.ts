import { RouterContextProvider } from "react-router";
import { afterAll, describe, expect, it } from "vitest";
import { requestInfoContext, type ShopServices, servicesContext } from "~/context.server";
import { MESSAGES } from "~/features/auth/auth-schema";
import { cookieHeader, newAccount, PASSWORD, testAuth } from "../../tests/support/auth-service";
import { openPgliteTestDatabase } from "../../tests/support/test-database";
import { loader } from "./account";
import { action as deleteAccount } from "./account.delete";
import { action as changeEmail } from "./account.email";
import { action as changePassword } from "./account.password";
import { action as saveProfile } from "./account.profile";
import { action as signOutSession } from "./account.sessions.sign-out";
import { action as signOutOthers } from "./account.sessions.sign-out-others";

/**
 * The account page's forms, each at its own route, called as the router
 * calls them (a real database, the shop's account services): what a browser
 * gets back for bad input, for a visitor who is not signed in, and when the
 * form goes through.
 */
const engine = await openPgliteTestDatabase();
afterAll(() => engine.close());
const shop = testAuth(engine.db);

const ADDRESS = "203.0.113.40";
const LOGIN_AND_BACK = "/login?redirectTo=%2Faccount";

// biome-ignore lint/suspicious/noExplicitAny: any of the account routes' actions and loader
type RouteFunction = (args: any) => unknown;

interface Outcome {
  status: number;
  location: string | null;
  headers: Headers;
  body: unknown;
}

/** What the browser gets: a redirect (thrown), data() with its status, or plain data. */
async function outcomeOf(run: () => unknown): Promise<Outcome> {
  const settle = (value: unknown): Outcome => {
    if (value instanceof Response) {
      return {
        status: value.status,
        location: value.headers.get("Location"),
        headers: value.headers,
        body: null,
      };
    }
    const wrapped = value as { type?: string; data: unknown; init: ResponseInit | null };
    if (wrapped?.type === "DataWithResponseInit") {
      return {
        status: wrapped.init?.status ?? 200,
        location: null,
        headers: new Headers(wrapped.init?.headers),
        body: wrapped.data,
      };
    }
    return { status: 200, location: null, headers: new Headers(), body: value };
  };
  try {
    return settle(await run());
  } catch (thrown) {
    const outcome = settle(thrown);
    if (outcome.status === 200) throw thrown;
    return outcome;
  }
}

function argsFor(path: string, init: RequestInit & { cookie?: string }) {
  const context = new RouterContextProvider();
  context.set(servicesContext, { auth: shop.auth } as unknown as ShopServices);
  context.set(requestInfoContext, { cspNonce: "test-nonce", clientAddress: ADDRESS });
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("Cookie", init.cookie);
  const url = new URL(path, "http://localhost:3000");
  return { request: new Request(url, { ...init, headers }), url, pattern: url.pathname, context, params: {} };
}

/** A form posted to `path` as a browser posts it. */
function post(action: RouteFunction, path: string, fields: Record<string, string>, cookie = "") {
  return outcomeOf(() =>
    action(argsFor(path, { method: "POST", body: new URLSearchParams(fields), cookie })),
  );
}

/** The messages a refused form came back with, by field ("" for the whole form's). */
function errorsOf(outcome: Outcome): Record<string, string[]> {
  return (outcome.body as { result: { error: Record<string, string[]> } }).result.error;
}

const overviewOf = async (cookie: string) => shop.from(ADDRESS, cookie).account.overview();

describe("the account page, /account", () => {
  it("sends a visitor to log in and back", async () => {
    const outcome = await outcomeOf(() => loader(argsFor("/account", {})));
    expect(outcome).toMatchObject({ status: 302, location: LOGIN_AND_BACK });
  });

  it("shows the signed-in shopper's account and sessions, never a session's token", async () => {
    const { address, cookie } = await newAccount(shop);
    const outcome = await outcomeOf(() => loader(argsFor("/account", { cookie })));
    expect(outcome.status).toBe(200);
    expect(outcome.body).toMatchObject({
      user: { email: address },
      hasPassword: true,
      google: "not-configured",
    });
    const token = decodeURIComponent(cookie.match(/session_token=([^.;]+)/)?.[1] ?? "");
    expect(token.length).toBeGreaterThan(10);
    expect(JSON.stringify(outcome.body)).not.toContain(token);
  });
});

describe.each([
  ["/account/profile", saveProfile, { name: "Ada", photo: "" }],
  ["/account/email", changeEmail, { email: "new@example.com", password: PASSWORD }],
  ["/account/password", changePassword, { currentPassword: PASSWORD, newPassword: "N3w!Passw0rd" }],
  ["/account/delete", deleteAccount, { password: PASSWORD }],
  ["/account/sessions/sign-out", signOutSession, { sessionId: "abc" }],
  ["/account/sessions/sign-out-others", signOutOthers, {}],
] as const)("POST %s, as every account form", (path, action, fields) => {
  it("sends a visitor who is not signed in to log in, then back to the account page", async () => {
    expect(await post(action, path, fields)).toMatchObject({ status: 302, location: LOGIN_AND_BACK });
  });

  it("refuses a body that is not a web form with 415", async () => {
    const { cookie } = await newAccount(shop);
    const outcome = await outcomeOf(() =>
      action(
        argsFor(path, {
          method: "POST",
          body: JSON.stringify(fields),
          headers: { "Content-Type": "application/json" },
          cookie,
        }),
      ),
    );
    expect(outcome.status).toBe(415);
  });
});

describe("POST /account/profile", () => {
  it("answers 400 naming the field at fault, and changes nothing", async () => {
    const { cookie } = await newAccount(shop);
    const badPhoto = await post(
      saveProfile,
      "/account/profile",
      { name: "Ada", photo: "javascript:alert(1)" },
      cookie,
    );
    expect(badPhoto.status).toBe(400);
    expect(errorsOf(badPhoto).photo).toEqual([MESSAGES.photoInvalid]);
    const noName = await post(saveProfile, "/account/profile", { name: "", photo: "" }, cookie);
    expect(noName.status).toBe(400);
    expect(errorsOf(noName).name).toEqual([MESSAGES.nameRequired]);
    expect((await overviewOf(cookie))?.user.name).toBe("A");
  });

  it("saves the name and photo, and goes back to the account page with its toast", async () => {
    const { cookie } = await newAccount(shop);
    const saved = await post(saveProfile, "/account/profile", { name: "Ada Byron", photo: "" }, cookie);
    expect(saved).toMatchObject({ status: 302, location: "/account" });
    expect(saved.headers.get("Set-Cookie")).toContain("flash");
    expect((await overviewOf(cookie))?.user).toMatchObject({ name: "Ada Byron", image: null });
  });
});

describe("POST /account/email", () => {
  it("answers 400 naming the field at fault", async () => {
    const { cookie } = await newAccount(shop);
    const outcome = await post(
      changeEmail,
      "/account/email",
      { email: "not-an-email", password: PASSWORD },
      cookie,
    );
    expect(outcome.status).toBe(400);
    expect(errorsOf(outcome).email).toEqual([MESSAGES.emailInvalid]);
  });

  it("answers 403 on the password's field for a wrong password", async () => {
    const { cookie } = await newAccount(shop);
    const outcome = await post(
      changeEmail,
      "/account/email",
      { email: "x@example.com", password: "Wr0ng!Pass" },
      cookie,
    );
    expect(outcome.status).toBe(403);
    expect(errorsOf(outcome).password).toEqual([MESSAGES.currentPasswordWrong]);
  });

  it("sends the link to the new address and says so, the email unchanged until it is confirmed", async () => {
    const { address, cookie } = await newAccount(shop);
    const outcome = await post(
      changeEmail,
      "/account/email",
      { email: "moved@example.com", password: PASSWORD },
      cookie,
    );
    expect(outcome.status).toBe(200);
    expect(outcome.body).toMatchObject({ sentTo: "moved@example.com" });
    expect((await overviewOf(cookie))?.user.email).toBe(address);
  });
});

describe("POST /account/password", () => {
  it("answers 400 naming the field at fault: a new password under the rules, not a common one", async () => {
    const { cookie } = await newAccount(shop);
    const weak = await post(
      changePassword,
      "/account/password",
      { currentPassword: PASSWORD, newPassword: "short" },
      cookie,
    );
    expect(weak.status).toBe(400);
    expect(Object.keys(errorsOf(weak))).toEqual(["newPassword"]);
    const common = await post(
      changePassword,
      "/account/password",
      { currentPassword: PASSWORD, newPassword: "Password1!" },
      cookie,
    );
    expect(common.status).toBe(400);
    expect(errorsOf(common).newPassword).toEqual([MESSAGES.passwordCommon]);
  });

  it("answers 403 on the current password's field, then 429 with Retry-After once the attempts run out", async () => {
    const { cookie } = await newAccount(shop);
    const fields = { currentPassword: "Wr0ng!Pass", newPassword: "N3w!Passw0rd" };
    const wrong = await post(changePassword, "/account/password", fields, cookie);
    expect(wrong.status).toBe(403);
    expect(errorsOf(wrong).currentPassword).toEqual([MESSAGES.currentPasswordWrong]);
    // Neither password comes back.
    expect(JSON.stringify(wrong.body)).not.toMatch(/Wr0ng|N3w!/);

    let refused = wrong;
    for (let attempt = 0; attempt < 10 && refused.status !== 429; attempt++) {
      refused = await post(changePassword, "/account/password", fields, cookie);
    }
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers.get("Retry-After"));
    expect(seconds).toBeGreaterThan(0);
    expect(errorsOf(refused)[""]).toEqual([MESSAGES.tooManyAttempts(seconds)]);
  });

  it("changes the password and goes back to the account page with this browser's new session", async () => {
    const { address, cookie } = await newAccount(shop);
    const changed = await post(
      changePassword,
      "/account/password",
      { currentPassword: PASSWORD, newPassword: "N3w!Passw0rd" },
      cookie,
    );
    expect(changed).toMatchObject({ status: 302, location: "/account" });
    const renewed = cookieHeader(changed.headers, cookie);
    expect((await overviewOf(renewed))?.user.email).toBe(address);
    const logIn = (password: string) => shop.from(ADDRESS).credentials.logIn({ email: address, password });
    expect((await logIn("N3w!Passw0rd")).ok).toBe(true);
  });
});

describe("POST /account/delete", () => {
  it("answers 400 naming the field at fault", async () => {
    const { cookie } = await newAccount(shop);
    const outcome = await post(deleteAccount, "/account/delete", { password: "x".repeat(129) }, cookie);
    expect(outcome.status).toBe(400);
    expect(Object.keys(errorsOf(outcome))).toEqual(["password"]);
    expect(await overviewOf(cookie)).not.toBeNull();
  });

  it("answers 403 on the password's field for a wrong password, and keeps the account", async () => {
    const { cookie } = await newAccount(shop);
    const outcome = await post(deleteAccount, "/account/delete", { password: "Wr0ng!Pass" }, cookie);
    expect(outcome.status).toBe(403);
    expect(errorsOf(outcome).password).toEqual([MESSAGES.currentPasswordWrong]);
    expect(await overviewOf(cookie)).not.toBeNull();
  });

  it("deletes the account and sends the shopper home", async () => {
    const { cookie } = await newAccount(shop);
    const deleted = await post(deleteAccount, "/account/delete", { password: PASSWORD }, cookie);
    expect(deleted).toMatchObject({ status: 302, location: "/" });
    expect(await overviewOf(cookie)).toBeNull();
  });
});

describe("POST /account/sessions/sign-out and /account/sessions/sign-out-others", () => {
  /** A shopper signed in here and in two other browsers. */
  async function signedInThrice() {
    const { address, cookie } = await newAccount(shop);
    const elsewhere: string[] = [];
    for (const other of ["203.0.113.41", "203.0.113.42"]) {
      const loggedIn = await shop.from(other).credentials.logIn({ email: address, password: PASSWORD });
      if (!loggedIn.ok) throw new Error("login failed");
      elsewhere.push(cookieHeader(loggedIn.headers));
    }
    return { cookie, elsewhere };
  }
  const signedIn = async (cookie: string) => (await overviewOf(cookie)) !== null;
  const otherSessionIds = async (cookie: string) =>
    ((await shop.from(ADDRESS, cookie).sessions.list()) ?? []).filter((s) => !s.current).map((s) => s.id);

  it("answers 400 naming the session id when it is not one", async () => {
    const { cookie } = await newAccount(shop);
    const outcome = await post(
      signOutSession,
      "/account/sessions/sign-out",
      { sessionId: "a\u0000b" },
      cookie,
    );
    expect(outcome.status).toBe(400);
    expect(outcome.body).toMatch(/^This form could not be read: sessionId /);
  });

  it("signs out one session, then every other, back on the account's list of sessions", async () => {
    const { cookie, elsewhere } = await signedInThrice();
    const [first] = await otherSessionIds(cookie);
    const one = await post(signOutSession, "/account/sessions/sign-out", { sessionId: first ?? "" }, cookie);
    expect(one).toMatchObject({ status: 302, location: "/account#sessions" });
    expect(await otherSessionIds(cookie)).toHaveLength(1);

    const others = await post(signOutOthers, "/account/sessions/sign-out-others", {}, cookie);
    expect(others).toMatchObject({ status: 302, location: "/account#sessions" });
    expect(await Promise.all(elsewhere.map(signedIn))).toEqual([false, false]);
    expect(await signedIn(cookie)).toBe(true);
  });

  it("gives someone else's session id the same answer as one already gone, and ends nothing", async () => {
    const { cookie, elsewhere } = await signedInThrice();
    const [theirs] = await otherSessionIds(cookie);
    const stranger = (await newAccount(shop)).cookie;
    const refused = await post(
      signOutSession,
      "/account/sessions/sign-out",
      { sessionId: theirs ?? "" },
      stranger,
    );
    expect(refused).toMatchObject({ status: 302, location: "/account#sessions" });
    expect(await Promise.all(elsewhere.map(signedIn))).toEqual([true, true]);
  });
});
