import { randomBytes } from "node:crypto";
import type http from "node:http";
import type { Duplex } from "node:stream";
import { fileURLToPath } from "node:url";
import { createRequestListener } from "@remix-run/node-fetch-server";
import compression from "compression";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import sirv from "sirv";
import {
  type RequestInfo,
  requestInfoContext,
  type ShopServices,
  servicesContext,
} from "../app/context.server";
import { MAX_CATALOG_UPLOAD_BYTES } from "../app/features/catalog/core/catalog-import-schema";
import { PICTURE_MAX_BYTES } from "../app/features/catalog/core/product-form-schema";
import type { DemoIdentityProvider } from "../app/features/demo-identity-provider/demo-identity-provider.server";
import type { DemoPaymentProvider } from "../app/features/demo-payment-provider/demo-payment-provider.server";
import { clientAddress } from "../app/utils/client-address.server";
import { CROSS_SITE_REJECTION, isCrossSiteRequest } from "../app/utils/cross-site-guard.server";
import { type ApiError, apiErrorBody } from "../app/utils/http.server";
import { securityHeaders } from "../app/utils/security-headers.server";
import { scopedResourceHandlers } from "./scoped-routes";

type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;

export interface ShopServerOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  services: ShopServices;
  /** The local stand-in for Google (DEMO_IDENTITY_PROVIDER=1 only), answered at /demo-idp. */
  demoIdentityProvider?: DemoIdentityProvider | null;
  /** The local stand-in for Stripe (DEMO_PAYMENT_PROVIDER=1 only), answered at /v1 and /demo-payment-provider. */
  demoPaymentProvider?: DemoPaymentProvider | null;
  mode: "production" | "development";
  /** Serves static files; by default the built client folder. */
  staticFiles?: Middleware;
  /** TRUST_PROXY: how many reverse proxies' forwarding headers to believe. */
  trustedProxies?: number;
}

const ONE_YEAR = 60 * 60 * 24 * 365;

/**
 * The largest request body the shop reads. Its forms and its JSON API take a
 * few hundred bytes; anything larger is refused before a byte of it is read.
 */
const MAX_BODY_BYTES = 32 * 1024;

/**
 * The few posts that send more, each with its own ceiling: the back
 * office's catalogue upload (20 MB, the import page says so) and Stripe's
 * webhooks. Only a POST to exactly that path gets it; the route checks who
 * is sending (a session, a signature) before it acts on it.
 */
const LARGER_BODIES: ReadonlyMap<string, number> = new Map([
  ["/admin/products/import", MAX_CATALOG_UPLOAD_BYTES + 64 * 1024],
  // Stripe's events carry the whole Checkout session: a few KiB, more with long metadata.
  ["/api/webhooks/stripe", 256 * 1024],
]);

/** The tax and shipping setup, replaced whole: a shop's zones list their countries and regions. */
const SETUP_PATH = "/api/admin/tax-and-shipping";
const SETUP_MAX_BYTES = 512 * 1024;

function bodyLimitOf(req: http.IncomingMessage): number {
  if (req.method === "PUT" && (req.url ?? "").split("?")[0] === SETUP_PATH) return SETUP_MAX_BYTES;
  if (req.method !== "POST") return MAX_BODY_BYTES;
  // A form sent by the router in the browser posts to the page's data URL (`….data`): the same limit.
  const pathname = ((req.url ?? "").split("?")[0] ?? "").replace(/\.data$/, "");
  // A product's form (new, or one product's) sends its picture with it; its variants' form, theirs
  // (together at most one picture's size) and up to 100 rows, each field a part of its own.
  if (/^\/admin\/products\/(new|\d{1,9})$/.test(pathname)) return PICTURE_MAX_BYTES + 64 * 1024;
  if (/^\/admin\/products\/\d{1,9}\/variants$/.test(pathname)) return PICTURE_MAX_BYTES + 512 * 1024;
  return LARGER_BODIES.get(pathname) ?? MAX_BODY_BYTES;
}

/** The methods some URL of the shop answers; anything else is refused before routing. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Static files of the production build: hashed names are cached forever, the rest for an hour. */
function builtClientFiles(
  // The bundled server lives in <build>/server/, its client files in <build>/client/.
  clientDir = fileURLToPath(new URL("../client", import.meta.url)),
): Middleware {
  return sirv(clientDir, {
    etag: true,
    gzip: true,
    brotli: true,
    setHeaders(res, pathname) {
      const fingerprinted = pathname.startsWith("/assets/") || pathname.startsWith("/images/products/");
      res.setHeader(
        "Cache-Control",
        fingerprinted ? `public, max-age=${ONE_YEAR}, immutable` : "public, max-age=3600",
      );
    },
  });
}

function sendJsonError(
  res: http.ServerResponse,
  status: number,
  error: ApiError,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(apiErrorBody(error));
}

const TRANSIENT_FAILURE_ERROR = JSON.stringify({
  error: {
    code: "unavailable",
    message:
      "The shop could not finish this just now: a service it needs is down or busy. Try again in a few seconds.",
  },
});

/**
 * A request that failed only because the database, or another service it
 * needed, was down or too busy (client.server.ts, isTransientFailure) is
 * answered 503 with Retry-After, where a 500 would say the shop itself is
 * broken. A page keeps its error page; a JSON or text answer becomes the
 * API's error body; React Router's own data answers keep theirs, which its
 * client reads. (Whether a write happened when a connection broke mid-way is
 * not known: a checkout sent again with its Idempotency-Key is safe, a cart
 * change is worth reading back first — docs/operations.md says so.)
 */
function transientFailureAnswer(failed: Response): Response {
  const headers = new Headers(failed.headers);
  headers.set("Retry-After", "5");
  headers.set("Cache-Control", "no-store");
  const type = headers.get("Content-Type") ?? "";
  if (type.startsWith("text/html") || type.startsWith("text/x-script")) {
    return new Response(failed.body, { status: 503, headers });
  }
  void failed.body?.cancel();
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.delete("Content-Length");
  return new Response(TRANSIENT_FAILURE_ERROR, { status: 503, headers });
}

const REFUSED_VALUE_ERROR = JSON.stringify({
  error: {
    code: "invalid_value",
    message:
      "A value of this request cannot be stored as sent (text with characters the shop does not keep, or a number out of range). Correct it and send it again.",
  },
});

/**
 * A request that failed only because the database refused a value it carried
 * (entry.server.tsx, refusedValueCode) is answered 400: the value was the
 * client's, and sending it again will not help. A page keeps its error page,
 * React Router's data answers theirs; a JSON or text answer becomes the API's
 * error body.
 */
function refusedValueAnswer(failed: Response): Response {
  const headers = new Headers(failed.headers);
  headers.set("Cache-Control", "no-store");
  const type = headers.get("Content-Type") ?? "";
  if (type.startsWith("text/html") || type.startsWith("text/x-script")) {
    return new Response(failed.body, { status: 400, headers });
  }
  void failed.body?.cancel();
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.delete("Content-Length");
  return new Response(REFUSED_VALUE_ERROR, { status: 400, headers });
}

/**
 * Requests the shop refuses before routing them, each with the reason a
 * client can act on: a body that is too large or of unknown length (refused
 * unread, and the connection closed so the rest is never read either), or a
 * request line or Host that is not a URL.
 */
function refusal(req: http.IncomingMessage): {
  status: number;
  code: string;
  message: string;
  field?: string;
  headers?: Record<string, string>;
} | null {
  if (!KNOWN_METHODS.has(req.method ?? "")) {
    // Node parses TRACE, PROPFIND and friends; the web Request the router is
    // built on refuses some of them outright (a 500). None is the shop's.
    return {
      status: 405,
      code: "method_not_allowed",
      message: `The shop does not answer ${String(req.method).slice(0, 20)} requests.`,
      headers: { Allow: [...KNOWN_METHODS].join(", ") },
    };
  }
  if (!req.url?.startsWith("/")) {
    return { status: 400, code: "bad_request", message: "The request target must be a path." };
  }
  // No Host at all is allowed (HTTP/1.0 health checks); one that is not a host name is not.
  const host = req.headers.host;
  if (host !== undefined && !URL.canParse(`http://${host}/`)) {
    return {
      status: 400,
      code: "bad_request",
      field: "Host",
      message: "The Host header is not a valid host.",
    };
  }
  if (req.headers["transfer-encoding"] !== undefined) {
    return {
      status: 411,
      code: "length_required",
      field: "Content-Length",
      message: "Send the body with a Content-Length.",
    };
  }
  const length = Number(req.headers["content-length"] ?? 0);
  const limit = bodyLimitOf(req);
  if (!Number.isSafeInteger(length) || length > limit) {
    return {
      status: 413,
      code: "payload_too_large",
      field: "Content-Length",
      message: `Request bodies are limited to ${limit / 1024} KiB.`,
    };
  }
  return null;
}

/**
 * Ends a socket Node handed over without a response with a JSON answer, as
 * the shop answers, and closes it (the client may hang up first; the socket
 * is the shop's to close either way).
 */
function endWithJson(
  socket: Duplex,
  statusLine: string,
  error: { code: string; message: string },
  headers: string[] = [],
): void {
  socket.on("error", () => socket.destroy());
  const body = JSON.stringify({ error });
  const lines = [
    `HTTP/1.1 ${statusLine}`,
    ...headers,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Cache-Control: no-store",
    "Connection: close",
  ];
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
}

/**
 * A request Node's parser refuses before the shop sees it (an address or headers past Node's
 * 16 KB, a malformed request line, headers too slow): answered as the shop answers, in JSON,
 * where Node's own answer has no body. The socket is closed after it.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  if (error.code === "HPE_HEADER_OVERFLOW") {
    endWithJson(socket, "431 Request Header Fields Too Large", {
      code: "headers_too_large",
      message: "The address or headers are longer than the shop reads (16 KB).",
    });
  } else if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    endWithJson(socket, "408 Request Timeout", {
      code: "request_timeout",
      message: "The request took too long to arrive.",
    });
  } else {
    endWithJson(socket, "400 Bad Request", {
      code: "bad_request",
      message: "The request could not be read.",
    });
  }
}

/**
 * For Node's `connect` event. CONNECT asks for a tunnel, which the shop never
 * opens; Node hands such a request over as a bare socket, without a response,
 * and closes it unanswered when nobody listens. It gets the 405 every other
 * method the shop never answers gets.
 */
export function refuseTunnel(req: http.IncomingMessage, socket: Duplex): void {
  endWithJson(
    socket,
    "405 Method Not Allowed",
    { code: "method_not_allowed", message: `The shop does not answer ${req.method} requests.` },
    [`Allow: ${[...KNOWN_METHODS].join(", ")}`],
  );
}

/**
 * Tab, line feed and carriage return, percent-encoded in a path. The URL
 * standard drops them wherever they stand, so no address of the shop holds
 * one; React Router decodes the path and reads each matched part back as a
 * URL, which turned `/%09/` into `//` — a URL without a host — and a 500.
 */
const DROPPED_BY_URL_PARSERS = /%(0[9ad])/gi;

/**
 * A path holding such a character, kept as text (`%09` → `%2509`) so the
 * router shows its 404 page for it like for any unknown address; null for
 * every other path.
 */
function withDroppedCharactersAsText(url: string): string | null {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  if (!path.match(DROPPED_BY_URL_PARSERS)) return null;
  return path.replace(DROPPED_BY_URL_PARSERS, "%25$1") + (end === -1 ? "" : url.slice(end));
}

/**
 * For Node's `checkContinue`: answers "100 Continue" only to a request the
 * shop will read, then handles it as usual (a refused one gets its error
 * without the client having sent a byte of its body).
 */
export function continueWhenAccepted(handler: http.RequestListener): http.RequestListener {
  return (req, res) => {
    if (!refusal(req)) res.writeContinue();
    handler(req, res);
  };
}

/**
 * Where a GET or HEAD that arrived under another host name than BASE_URL's
 * belongs (127.0.0.1 instead of localhost, a bare IP instead of the domain),
 * or null. Sessions are cookies of BASE_URL's host: the visitor must be there
 * for sign-in, the Google popup included, to work. /healthz stays answerable
 * under any name: load balancers check each process by its own address.
 */
function canonicalLocation(req: http.IncomingMessage, base: URL, trustedProxies: number): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  if (req.url === "/healthz" || req.url?.startsWith("/healthz?")) return null;
  const forwarded = trustedProxies > 0 ? req.headers["x-forwarded-host"] : undefined;
  const host =
    (typeof forwarded === "string" ? forwarded.split(",")[0]?.trim() : undefined) ?? req.headers.host;
  if (!host || host.toLowerCase() === base.host) return null;
  return `${base.origin}${req.url}`;
}

/** A request URL's path, without parsing the whole URL. */
function pathnameOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.indexOf("?", start);
  return url.slice(start, end === -1 ? undefined : end);
}

/**
 * The shop's HTTP handler: security headers on every response, the checks
 * above, compression, static files, then the JSON API and React Router.
 */
export function createShopHandler(options: ShopServerOptions): http.RequestListener {
  const { services } = options;
  const staticFiles = options.staticFiles ?? builtClientFiles();
  const compress = compression() as unknown as Middleware;
  const base = new URL(services.baseUrl);
  const handleRequest = createRequestHandler(options.build, options.mode);
  // The JSON API's fixed addresses skip the walk of the whole route tree (scoped-routes.ts). Not in
  // development, where the build is read anew on every change.
  const scoped =
    typeof options.build === "function" ? new Map() : scopedResourceHandlers(options.build, options.mode);
  const router = createRequestListener(
    // (typed here: the package's declarations are written for a newer TypeScript)
    async (request: Request, client: { address: string }) => {
      const context = new RouterContextProvider();
      context.set(servicesContext, services);
      let nonce: string | undefined;
      const info: RequestInfo = {
        // Made when a page asks for it: the JSON API's answers have no inline scripts.
        get cspNonce() {
          nonce ??= randomBytes(16).toString("base64");
          return nonce;
        },
        // Resolved once, here: what every rate limit and log line calls this client.
        clientAddress: clientAddress(
          client.address,
          request.headers.get("x-forwarded-for"),
          options.trustedProxies ?? 0,
        ),
      };
      context.set(requestInfoContext, info);
      const response = await (scoped.get(pathnameOf(request.url)) ?? handleRequest)(request, context);
      if (response.status !== 500) return response;
      if (info.failedTransiently) return transientFailureAnswer(response);
      return info.refusedValue ? refusedValueAnswer(response) : response;
    },
    // Every request's URL is on BASE_URL, whatever the socket: behind a proxy
    // that ends TLS the connection is plain HTTP, yet browsers post with
    // Origin https://…, and the router's own origin check must compare like
    // with like. Requests under other host names were redirected (GET, HEAD)
    // or judged by the origin check (the rest) before they get here.
    { protocol: base.protocol, host: base.host },
  );
  const headers = securityHeaders({ https: base.protocol === "https:" });
  const { demoIdentityProvider, demoPaymentProvider } = options;

  return (req, res) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    // Shutting down: finish this request, then let the client reconnect elsewhere.
    if (services.lifecycle.draining) res.setHeader("Connection", "close");

    const refused = refusal(req);
    if (refused) {
      const { status, headers: extra, ...error } = refused;
      sendJsonError(res, status, error, { Connection: "close", ...extra });
      return;
    }
    // CSRF: nothing that changes state is accepted from another site.
    if (isCrossSiteRequest(req, base.origin)) {
      res.writeHead(403, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
      res.end(CROSS_SITE_REJECTION);
      return;
    }
    const location = canonicalLocation(req, base, options.trustedProxies ?? 0);
    if (location) {
      res.writeHead(308, { Location: location, "Cache-Control": "no-store" });
      res.end();
      return;
    }
    const unroutable = withDroppedCharactersAsText(req.url ?? "/");
    if (unroutable) {
      if (req.method !== "GET" && req.method !== "HEAD") {
        sendJsonError(res, 404, { code: "not_found", message: "No address of the shop holds this path." });
        return;
      }
      req.url = unroutable;
    }
    // The local stand-in for Google (DEMO_IDENTITY_PROVIDER=1 only), at /demo-idp.
    if (demoIdentityProvider?.handle(req, res)) return;
    // The local stand-in for Stripe (DEMO_PAYMENT_PROVIDER=1 only): its API at /v1, its payment page.
    if (demoPaymentProvider?.handle(req, res)) return;
    compress(req, res, () => {
      staticFiles(req, res, () => {
        router(req, res);
      });
    });
  };
}
