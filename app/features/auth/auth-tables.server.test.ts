import { getIP } from "better-auth/api";
import { describe, expect, it } from "vitest";
import { sessionAddress } from "./auth-tables.server";

describe("the address a session records", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    [" 203.0.113.9 ", "203.0.113.9"],
    ["::ffff:203.0.113.9", "203.0.113.9"],
    ["::ffff:cb00:7109", "203.0.113.9"],
    ["2001:db8:85a3:8d3:1319:8a2e:370:7348", "2001:0db8:85a3:08d3:0000:0000:0000:0000"],
    ["2001:DB8::1", "2001:0db8:0000:0000:0000:0000:0000:0000"],
    ["::1", "0000:0000:0000:0000:0000:0000:0000:0000"],
  ])("%j is recorded as %j, as Better Auth recorded it", (address, recorded) => {
    expect(sessionAddress(address)).toBe(recorded);
    // What Better Auth itself makes of the address in a header: an upgrade that changes it shows here.
    expect(getIP(new Headers({ "x-forwarded-for": address }), {})).toBe(recorded);
  });

  it.each(["", "unknown", "1", "203.0.113", "fe80::1%eth0", undefined])(
    "%j is no address: none is recorded",
    (address) => {
      expect(sessionAddress(address)).toBeNull();
    },
  );
});
