import { describe, expect, it } from "vitest";
import {
  hashPassword,
  needsRehash,
  PASSWORD_HASH_PARAMETERS,
  parseHash,
  verifyPassword,
} from "./password-hasher.server";

describe("password hasher", () => {
  it("uses argon2id with at least OWASP's minimum (19 MiB, t=2, p=1)", async () => {
    const hash = await hashPassword("Str0ng!Pass");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(parseHash(hash)?.parameters).toMatchObject({
      memory: 19456,
      passes: 2,
      parallelism: 1,
      tagLength: 32,
    });
  });

  it("verifies the right password and rejects a wrong one", async () => {
    const hash = await hashPassword("Str0ng!Pass");
    expect(await verifyPassword(hash, "Str0ng!Pass")).toBe(true);
    expect(await verifyPassword(hash, "Str0ng!Pas")).toBe(false);
    expect(await verifyPassword(hash, "str0ng!pass")).toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("Str0ng!Pass")).not.toBe(await hashPassword("Str0ng!Pass"));
  });

  it("never matches a malformed or hostile stored hash", async () => {
    expect(await verifyPassword("", "x")).toBe(false);
    expect(await verifyPassword("plain-text-password", "plain-text-password")).toBe(false);
    // Parameters crafted to exhaust memory are refused before any work.
    const hostile =
      "$argon2id$v=19$m=99999999,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g";
    expect(parseHash(hostile)).toBeNull();
    expect(await verifyPassword(hostile, "x")).toBe(false);
  });

  it("verifies hashes made with other parameters and flags the weaker ones for re-hashing", async () => {
    const weaker = await hashPassword("Str0ng!Pass", {
      ...PASSWORD_HASH_PARAMETERS,
      memory: 4096,
      passes: 1,
    });
    expect(await verifyPassword(weaker, "Str0ng!Pass")).toBe(true);
    expect(needsRehash(weaker)).toBe(true);
    expect(needsRehash(await hashPassword("Str0ng!Pass"))).toBe(false);
  });

  it("does not block the event loop while hashing", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await Promise.all(Array.from({ length: 4 }, () => hashPassword("Str0ng!Pass")));
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5);
  });
});
