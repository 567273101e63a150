import { describe, expect, it } from "vitest";
import { MESSAGES } from "./auth-schema";
import { refusalFor } from "./route-helpers.server";

describe("what a refused request is told", () => {
  it("too many attempts: 429, how long to wait in words and in Retry-After", () => {
    expect(refusalFor({ ok: false, reason: "rate-limited", retryAfterSeconds: 90 } as const)).toEqual({
      status: 429,
      message: MESSAGES.tooManyAttempts(90),
      headers: { "Retry-After": "90" },
    });
  });

  it("the service behind it failed: 503, nothing changed, try again in 5 s", () => {
    expect(refusalFor({ ok: false, reason: "unavailable" } as const)).toEqual({
      status: 503,
      message: MESSAGES.unavailable,
      headers: { "Retry-After": "5" },
    });
  });

  it("any other reason: the route's own answer, with no wait", () => {
    const taken = { ok: false, reason: "email-taken" } as const;
    expect(refusalFor(taken, { "email-taken": { status: 409, message: MESSAGES.emailTaken } })).toEqual({
      status: 409,
      message: MESSAGES.emailTaken,
      headers: {},
    });
  });
});
