import { createHash } from "node:crypto";
import { logFailure } from "./logger.server";

export interface ApiError {
  code: string;
  message: string;
  field?: string;
}

/**
 * A JSON answer, independent of the HTTP layer: the catalogue API writes it
 * straight to Node's response (server/catalog-api.ts), route actions turn it
 * into a web Response (toResponse).
 */
export interface JsonReply {
  status: number;
  headers: Record<string, string>;
  /** null for 304. */
  body: string | null;
}

/** The API's error body: `{ "error": { code, message, field? } }`, never cached. */
export function errorReply(status: number, error: ApiError): JsonReply {
  return {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
    body: JSON.stringify({ error }),
  };
}

export function toResponse(reply: JsonReply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}

export function apiError(status: number, error: ApiError): Response {
  return toResponse(errorReply(status, error));
}

/** Resolves to null when the read fails, after logging why: the caller answers 503. */
export function unlessUnavailable<T>(read: Promise<T>): Promise<T | null> {
  return read.catch((error: unknown) => {
    logFailure(error, "catalogue read failed");
    return null;
  });
}

/** The database did not answer: the client may retry, nothing it sent was wrong. */
export function catalogUnavailable(): JsonReply {
  return errorReply(503, {
    code: "catalog_unavailable",
    message: "The catalogue cannot be read right now. Please try again in a moment.",
  });
}

/** Short public caching: a catalogue changes rarely, but not never. */
export const CATALOG_CACHE_CONTROL = "public, max-age=10, stale-while-revalidate=60";

/**
 * A JSON answer that a client may cache and revalidate: it carries an ETag
 * of its body, and a request whose If-None-Match already names that body gets
 * 304 with no body.
 */
export function cacheableReply(
  ifNoneMatch: string | null | undefined,
  answer: { json: string; etag: string },
  cacheControl = CATALOG_CACHE_CONTROL,
): JsonReply {
  const headers = {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": cacheControl,
    ETag: answer.etag,
    Vary: "Accept-Encoding",
  };
  if (matchesEtag(ifNoneMatch, answer.etag)) return { status: 304, headers, body: null };
  return { status: 200, headers, body: answer.json };
}

/** A weak ETag of a JSON body: the bytes on the wire may be compressed on the way out. */
export function etagOf(json: string): string {
  return `W/"${createHash("sha1").update(json).digest("base64url")}"`;
}

function matchesEtag(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((candidate) => opaque(candidate) === opaque(etag));
}
