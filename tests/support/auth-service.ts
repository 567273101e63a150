import type { Database } from "../../app/db/client.server";
import {
  type Accounts,
  type AuthService,
  type AuthServiceOptions,
  createAuthService,
} from "../../app/features/auth/auth.server";
import { createAuthRateLimiter } from "../../app/features/auth/rate-limit.server";
import { SESSION_ABSOLUTE_LIFETIME_SECONDS } from "../../app/features/auth/session-lifetime.server";
import { recordingMail } from "./recording-mailer";

/**
 * The account services on a test database, for the tests of
 * app/features/auth/services: a service with generous limits (those tests
 * are about accounts, not limits, unless they bring their own limiter), the
 * emails it queued, and visitors — a request with the cookies a browser
 * would send and the client address the HTTP layer would have resolved.
 */
export const TEST_SECRET = "test-secret-test-secret-test-secret-0123";
export const PASSWORD = "Str0ng!Pass";

let counter = 0;
/** An email no other test uses. */
export const uniqueEmail = () => `user${++counter}-${Date.now()}@example.com`;

/** The cookies a browser would send back after these Set-Cookie headers. */
export function cookieHeader(headers: Headers, previous = ""): string {
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

/** The session token these cookies carry (the signed cookie's value, without its signature). */
export const sessionTokenOf = (cookie: string) =>
  decodeURIComponent(cookie.match(/session_token=([^.;]+)/)?.[1] ?? "");

/**
 * A session row's times as if signed in just past the absolute lifetime and
 * kept alive by use since: its sliding expiry is a day away.
 */
export const sessionPastLifetime = () => ({
  createdAt: new Date(Date.now() - (SESSION_ABSOLUTE_LIFETIME_SECONDS + 60) * 1000),
  expiresAt: new Date(Date.now() + 86_400_000),
});

/** A request to the shop carrying these cookies. */
export const request = (cookie = "", origin = "http://localhost:3000") =>
  new Request(`${origin}/`, { headers: cookie ? { cookie } : {} });

export interface TestAuth {
  auth: AuthService;
  /** What the service's emails were, once the queue has sent them. */
  delivered: ReturnType<typeof recordingMail>["delivered"];
  /** The services for a visitor from `address`, whose browser sends `cookie`. */
  from(address: string, cookie?: string): Accounts;
}

export function testAuth(db: Database, options: Partial<AuthServiceOptions> = {}): TestAuth {
  const mail = recordingMail(db);
  const baseUrl = options.baseUrl ?? "http://localhost:3000";
  const auth = createAuthService({
    db,
    secret: TEST_SECRET,
    baseUrl,
    google: null,
    limiter: createAuthRateLimiter({
      limits: {
        signUpPerAddress: { points: 1000, duration: 60 },
        signUpPerAccount: { points: 1000, duration: 60 },
        loginPerAddress: { points: 1000, duration: 60 },
        emailLinkPerAddress: { points: 1000, duration: 60 },
        emailTokenPerAddress: { points: 1000, duration: 60 },
      },
    }),
    mail: mail.queue,
    ...options,
  });
  return {
    auth,
    delivered: mail.delivered,
    from: (address, cookie = "") => auth.for({ request: request(cookie, baseUrl), address }),
  };
}

/** A fresh account, signed up from 203.0.113.1, and the sign-up's answer. */
export async function newAccount(accounts: TestAuth) {
  const address = uniqueEmail();
  const signedUp = await accounts
    .from("203.0.113.1")
    .credentials.signUp({ name: "A", email: address, photo: "https://e.com/a.png", password: PASSWORD });
  if (!signedUp.ok) throw new Error("sign-up failed");
  return { address, signedUp, cookie: cookieHeader(signedUp.headers) };
}
