import { describe, expect, it } from "vitest";
import { addressKey, clientAddress } from "./client-address.server";

describe("clientAddress", () => {
  it("uses the socket address when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress("203.0.113.7", "198.51.100.1", 0)).toBe("203.0.113.7");
    expect(clientAddress("203.0.113.7", null, 0)).toBe("203.0.113.7");
  });

  it("with one trusted proxy, takes the address that proxy appended (the rightmost)", () => {
    // The client wrote "1.1.1.1" itself; the proxy appended the real address.
    expect(clientAddress("10.0.0.2", "1.1.1.1, 198.51.100.9", 1)).toBe("198.51.100.9");
    expect(clientAddress("10.0.0.2", "198.51.100.9", 1)).toBe("198.51.100.9");
    expect(clientAddress("10.0.0.2", "2001:db8::7", 1)).toBe("2001:db8::7");
  });

  it("with two trusted proxies, skips the inner proxy's entry", () => {
    expect(clientAddress("10.0.0.3", "1.1.1.1, 198.51.100.9, 10.0.0.2", 2)).toBe("198.51.100.9");
  });

  it("with fewer entries than trusted proxies, takes the furthest one known, as Express does", () => {
    expect(clientAddress("10.0.0.2", "198.51.100.9", 2)).toBe("198.51.100.9");
  });

  it("falls back to the socket when the entry is not an address", () => {
    expect(clientAddress("10.0.0.2", "not-an-ip", 1)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "", 1)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "1.1.1.1:443", 1)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "0x7f.1", 1)).toBe("10.0.0.2");
  });
});

describe("addressKey", () => {
  it("keeps IPv4 addresses whole, however they are written", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    // The long IPv4-mapped notation is the same client, not a shared IPv6 network.
    expect(addressKey("0:0:0:0:0:ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("0:0:0:0:0:ffff:cb00:7107")).toBe("203.0.113.7");
  });

  it("groups IPv6 addresses by their /64 network", () => {
    const key = addressKey("2001:db8:abcd:12:1111:2222:3333:4444");
    expect(key).toBe("2001:db8:abcd:12::/64");
    expect(addressKey("2001:0db8:abcd:0012::1")).toBe(key);
    expect(addressKey("2001:db8:abcd:12:ffff::9%eth0")).toBe(key);
    expect(addressKey("2001:db8:abcd:13::1")).not.toBe(key);
    expect(addressKey("::1")).toBe("::/64");
    expect(addressKey("2001:db8::")).toBe("2001:db8::/64");
  });
});
