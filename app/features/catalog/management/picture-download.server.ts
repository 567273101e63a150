import dns from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * A product picture downloaded for the catalogue import, from the public
 * internet only. A catalogue file may come from anyone (a supplier, a
 * Shopify export), so its URLs must not reach the shop's own network: the
 * cloud's metadata service (169.254.169.254), the database, an admin page on
 * localhost. The address checked is the one the socket connects to (the
 * lookup the connection itself uses), on the first request and on every
 * redirect, so a name that resolves to a private address, or that resolves
 * differently a moment later (DNS rebinding), is refused too. An owner whose
 * pictures are on their own network says so (`--allow-private-network`).
 */

/** Redirects followed, each one checked, before giving up. */
const MAX_REDIRECTS = 5;
const TIMEOUT_MS = 20_000;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Why a picture could not be downloaded, in words fit for the import's report. */
export class DownloadError extends Error {
  override name = "DownloadError";
}

/** A connection the policy refuses: raised by the lookup, before any connection is made. */
class PrivateAddressRefused extends Error {
  override name = "PrivateAddressRefused";
}

export interface DownloadOptions {
  /** The owner's pictures are on their own network: any address will do. */
  allowPrivateNetwork?: boolean;
  /** Which addresses count as the public internet (tests stand a local server in for it). */
  isPublic?: (address: string) => boolean;
  /** How a name becomes addresses (tests give a name the answers they need). */
  resolve?: (hostname: string, family: number) => Promise<{ address: string; family: number }[]>;
  maxBytes: number;
}

const NAT64 = ipaddr.parseCIDR("64:ff9b::/96");

/**
 * Whether an address is on the public internet: global unicast only, so
 * loopback, private, link-local (the metadata service), carrier-grade NAT,
 * unique-local, unspecified (0.0.0.0 reaches this machine), multicast and
 * reserved ranges are not. An IPv4 address written as IPv6 (::ffff:127.0.0.1)
 * or behind the NAT64 prefix counts as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv6" && parsed.match(NAT64)) {
    return isPublicAddress(parsed.toByteArray().slice(-4).join("."));
  }
  return parsed.range() === "unicast";
}

const systemResolve: NonNullable<DownloadOptions["resolve"]> = (hostname, family) =>
  dns.lookup(hostname, { all: true, family });

/** The lookup a connection makes, refusing a name when any of its addresses is not allowed. */
function checkedLookup(
  resolve: NonNullable<DownloadOptions["resolve"]>,
  allowed: (address: string) => boolean,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options.family === 4 || options.family === 6 ? options.family : 0).then(
      (addresses) => {
        const [first] = addresses;
        if (!first)
          callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "");
        else if (addresses.some(({ address }) => !allowed(address)))
          callback(new PrivateAddressRefused(), "");
        else if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}

function get(url: URL, lookup: LookupFunction, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    // agent: false: a connection of its own, never one kept alive to an address checked earlier.
    const headers = { accept: "image/*", "user-agent": "Backline catalogue import" };
    client.get(url, { agent: false, lookup, signal, headers }, resolve).on("error", reject);
  });
}

/**
 * The picture at `start`, following at most five redirects, each checked;
 * at most `maxBytes`, counted as they arrive, within 20 s in all. Failures
 * are told in plain words, never as the connection's own error (which would
 * tell what answers at an address and what does not).
 */
export async function downloadPicture(start: URL, options: DownloadOptions): Promise<Buffer> {
  const allowed = options.allowPrivateNetwork ? () => true : (options.isPublic ?? isPublicAddress);
  const lookup = checkedLookup(options.resolve ?? systemResolve, allowed);
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  const failed = (error: unknown, hop: number, during: string) => {
    if (error instanceof DownloadError) return error;
    if (error instanceof PrivateAddressRefused) return privateAddress(start, hop);
    if (signal.aborted)
      return new DownloadError(`${start.href} could not be downloaded: no answer within 20 s.`);
    return new DownloadError(`${start.href} could not be downloaded: ${during}.`);
  };
  let url = start;
  for (let hop = 0; ; hop++) {
    // A connection to an address as written makes no lookup: checked here instead.
    const literal = url.hostname.replace(/^\[(.*)\]$/, "$1");
    if (isIP(literal) && !allowed(literal)) throw privateAddress(start, hop);
    let response: http.IncomingMessage;
    try {
      response = await get(url, lookup, signal);
    } catch (error) {
      throw failed(error, hop, "its server could not be reached");
    }
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECTS.has(status) && location) {
      response.destroy();
      if (hop === MAX_REDIRECTS)
        throw new DownloadError(`${start.href} redirects more than ${MAX_REDIRECTS} times.`);
      const next = URL.parse(location, url);
      if (next?.protocol !== "http:" && next?.protocol !== "https:")
        throw new DownloadError(`${start.href} redirects to an address that is not an http(s) URL.`);
      url = next;
      continue;
    }
    if (status < 200 || status > 299) {
      response.destroy();
      throw new DownloadError(`${start.href} answered ${status} ${response.statusMessage}.`);
    }
    const tooLarge = () =>
      new DownloadError(`${start.href} is larger than ${options.maxBytes / 2 ** 20} MB.`);
    if (Number(response.headers["content-length"] ?? 0) > options.maxBytes) {
      response.destroy();
      throw tooLarge();
    }
    // Counted as it arrives: a server may send more than it announced, or announce nothing.
    const chunks: Buffer[] = [];
    let received = 0;
    try {
      for await (const chunk of response as AsyncIterable<Buffer>) {
        received += chunk.length;
        if (received > options.maxBytes) throw tooLarge();
        chunks.push(chunk);
      }
    } catch (error) {
      response.destroy();
      throw failed(error, hop, "the connection broke off");
    }
    return Buffer.concat(chunks);
  }
}

function privateAddress(start: URL, hop: number): DownloadError {
  return new DownloadError(
    `${start.href} ${hop === 0 ? "is on" : "redirects to"} a private or local network address: the import downloads pictures only from the public internet. If they are on your own network, run again with --allow-private-network.`,
  );
}
