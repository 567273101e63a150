import { isIP } from "node:net";

/**
 * Who is asking, for rate limits. The socket's address, unless the shop runs
 * behind reverse proxies it was told about (TRUST_PROXY = how many): then the
 * address that the outermost trusted proxy saw, read from the right of
 * X-Forwarded-For. Anything further left was written by the client and can be
 * spoofed, so it is never used.
 */
export function clientAddress(
  socketAddress: string,
  forwardedFor: string | null,
  trustedProxies: number,
): string {
  if (trustedProxies <= 0 || !forwardedFor) return socketAddress;
  const hops = forwardedFor
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  // With N trusted proxies, the last N entries were appended by them; the
  // N-th from the right is the address the outermost proxy received from.
  const candidate = hops[hops.length - trustedProxies];
  return candidate && isIP(stripZone(candidate)) ? stripZone(candidate) : socketAddress;
}

/**
 * The rate-limit key of an address: IPv4 as is, IPv6 by its /64 network
 * (one subscriber usually holds a whole /64, so per-address limits on IPv6
 * would be trivial to dodge). IPv4-mapped IPv6 addresses count as IPv4.
 */
export function addressKey(address: string): string {
  const plain = stripZone(address);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped?.[1]) return mapped[1];
  if (isIP(plain) !== 6) return plain;
  const groups = expandIpv6(plain);
  return `${groups.slice(0, 4).join(":")}::/64`;
}

function stripZone(address: string): string {
  const percent = address.indexOf("%");
  return percent === -1 ? address : address.slice(0, percent);
}

/** "2001:db8::1" → ["2001", "db8", "0", "0", "0", "0", "0", "1"] (lower case, no leading zeros). */
function expandIpv6(address: string): string[] {
  let text = address.toLowerCase();
  // An embedded IPv4 tail ("::ffff:1.2.3.4", "64:ff9b::1.2.3.4") becomes two groups.
  const ipv4Tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (ipv4Tail) {
    const [a, b, c, d] = ipv4Tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, ipv4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array.from({ length: missing }, () => "0"), ...tailGroups].map((group) =>
    (Number.parseInt(group, 16) || 0).toString(16),
  );
}
