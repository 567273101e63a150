import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";

/**
 * Who is asking, for rate limits and logs. The socket's address, unless the
 * shop runs behind reverse proxies it was told about (TRUST_PROXY = how
 * many): then, as Express does it (proxy-addr, trusting that many hops), the
 * address the outermost trusted proxy saw, read from the right of
 * X-Forwarded-For. Anything further left was written by the client and can
 * be spoofed, so it is never used. An entry that is not an address (a
 * proxy's port appended, garbage) falls back to the socket's address.
 */
export function clientAddress(
  socketAddress: string,
  forwardedFor: string | null,
  trustedProxies: number,
): string {
  if (trustedProxies <= 0 || !forwardedFor) return socketAddress;
  // proxy-addr reads a Node request; the shop has a web Request and the socket's address.
  const request = {
    headers: { "x-forwarded-for": forwardedFor },
    socket: { remoteAddress: socketAddress },
  } as unknown as IncomingMessage;
  const chosen = proxyaddr(request, (_address, hop) => hop < trustedProxies);
  return parseAddress(chosen) === null ? socketAddress : chosen;
}

/** An address as ipaddr.js reads it ("1.2.3.4", "2001:db8::1", an IPv6 zone dropped), or null. */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = text.trim().replace(/%.*$/, "");
  // ipaddr.js also reads "1" or "0x7f.1" as IPv4; only the usual notations count here.
  if (!ipaddr.IPv4.isValidFourPartDecimal(bare) && !ipaddr.IPv6.isValid(bare)) return null;
  // process(): an IPv4-mapped IPv6 address ("::ffff:1.2.3.4", in any notation) is that IPv4 address.
  return ipaddr.process(bare);
}

/**
 * The rate-limit key of an address: IPv4 as is, IPv6 by its /64 network
 * (one subscriber usually holds a whole /64, so per-address limits on IPv6
 * would be trivial to dodge). IPv4-mapped IPv6 addresses count as IPv4.
 */
export function addressKey(address: string): string {
  const parsed = parseAddress(address);
  if (parsed === null) return address;
  if (parsed.kind() === "ipv4") return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}
