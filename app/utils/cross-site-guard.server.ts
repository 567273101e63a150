/**
 * Rejects cross-site requests that could change something (CSRF), before any
 * route sees them — the rule of Go's http.CrossOriginProtection, judged
 * against the shop's public origin (BASE_URL), not against whatever Host the
 * request names:
 *
 * - GET, HEAD and OPTIONS never change anything here: always allowed;
 * - a browser's Sec-Fetch-Site says where the request comes from: only
 *   "same-origin" (or "none": typed by the user) may change state;
 * - an Origin header, when present, must be the shop's origin (scheme, host
 *   and port): a page on another origin, or an opaque "null" one, may not post;
 * - neither header: not a browser (curl, a server), so no ambient cookies to
 *   abuse — allowed.
 *
 * SameSite=Lax session cookies already stop most cross-site POSTs; this also
 * covers same-site attackers (a sibling subdomain) and login CSRF, where the
 * victim has no cookie yet.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isCrossSiteRequest(
  request: {
    method?: string;
    headers: { origin?: string | string[]; "sec-fetch-site"?: string | string[] };
  },
  shopOrigin: string,
): boolean {
  const method = (request.method ?? "GET").toUpperCase();
  if (SAFE_METHODS.has(method)) return false;
  const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const site = single(request.headers["sec-fetch-site"]);
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = single(request.headers.origin);
  if (!origin) return false;
  if (!URL.canParse(origin)) return true;
  return new URL(origin).origin !== shopOrigin;
}

export const CROSS_SITE_REJECTION = JSON.stringify({
  error: { code: "cross_site_request", message: "Requests from other sites cannot change anything here." },
});
