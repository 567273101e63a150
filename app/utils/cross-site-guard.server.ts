/**
 * Rejects cross-site requests that could change something (CSRF), before any
 * route sees them — the same rule as Go's http.CrossOriginProtection:
 *
 * - GET, HEAD and OPTIONS never change anything here: always allowed;
 * - a browser's Sec-Fetch-Site says where the request comes from: only
 *   "same-origin" (or "none": typed by the user) may change state;
 * - browsers without Fetch Metadata: the Origin header, when present, must
 *   name this host;
 * - neither header: not a browser (curl, a server), so no ambient cookies to
 *   abuse — allowed.
 *
 * SameSite=Lax session cookies already stop most cross-site POSTs; this also
 * covers same-site attackers (a sibling subdomain) and login CSRF, where the
 * victim has no cookie yet.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isCrossSiteRequest(request: {
  method?: string;
  headers: { origin?: string | string[]; host?: string | string[]; "sec-fetch-site"?: string | string[] };
}): boolean {
  const method = (request.method ?? "GET").toUpperCase();
  if (SAFE_METHODS.has(method)) return false;
  const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const site = single(request.headers["sec-fetch-site"]);
  if (site) return site !== "same-origin" && site !== "none";
  const origin = single(request.headers.origin);
  if (!origin) return false;
  if (origin === "null") return true;
  try {
    return new URL(origin).host !== single(request.headers.host);
  } catch {
    return true;
  }
}

export const CROSS_SITE_REJECTION = JSON.stringify({
  error: { code: "cross_site_request", message: "Requests from other sites cannot change anything here." },
});
