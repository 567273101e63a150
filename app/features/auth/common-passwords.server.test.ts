import { describe, expect, it } from "vitest";
import { isCommonPassword } from "./common-passwords.server";

describe("isCommonPassword", () => {
  it.each([
    "Password1!",
    "P@ssw0rd!",
    "Passw0rd#",
    "Qwerty123!",
    "Welcome1!",
    "Abc123!",
    "Letmein1@",
    "Iloveyou2!",
    "Dragon2024!",
    // Well-known variants: leetspeak, one character swapped, the shop's own name.
    "P@ssword1",
    "Pa$$word1",
    "Passwo1d!",
    "P4$$w0rd!",
    "Backline123!",
    "B@ckline2026#",
    "Backl1ne!",
    "backline1A!",
    "BACKLINE1a!",
    "Backline1!Backline1",
    "My8ackl1ne!",
  ])("refuses %s, which passes the composition rules", (password) => {
    expect(isCommonPassword(password)).toBe(true);
  });

  it.each([
    "Str0ng!Pass",
    "Tiger#Lamp9",
    "Kv8#qWm2Zp",
    "Blue-Ocean-27x",
    "Zx!9mRt4Lq",
    "Ada#Lovelace1815",
    "Mxy7!bQ2",
    "Tr0ub4dor&3",
  ])("accepts %s", (password) => {
    expect(isCommonPassword(password)).toBe(false);
  });
});
