/**
 * Security headers. The document's Content-Security-Policy carries a fresh
 * nonce per response, so React Router's inline hydration scripts run and no
 * other inline script can (no 'unsafe-inline' for scripts).
 */
export function contentSecurityPolicy(
  nonce: string,
  options: { formActionOrigins?: readonly string[] } = {},
): string {
  // The login page's "Continue with Google" form is redirected to the identity
  // provider, and form-action also governs where a form submission redirects.
  const formAction = ["'self'", ...(options.formActionOrigins ?? [])].join(" ");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    // Inline style attributes (React's style prop) are harmless; scripts are not.
    "style-src 'self' 'unsafe-inline'",
    // Profile photos may live on any http(s) host (the sign-up form accepts
    // both); an image cannot run script.
    "img-src 'self' data: https: http:",
    "font-src 'self'",
    "connect-src 'self'",
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** Headers every response carries, documents and API alike. */
const STATIC_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  // Keeps the opener link to a same-origin popup (the Google sign-in popup
  // reports back through it) while cutting it for cross-origin windows.
  "Cross-Origin-Opener-Policy": "same-origin-allow-popups",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
};

/**
 * The headers for every response of a shop served at BASE_URL. Over https,
 * HSTS tells browsers never to try plain http for this host again (two years,
 * subdomains included; not preloaded, which is the operator's own decision).
 */
export function securityHeaders(options: { https: boolean }): Readonly<Record<string, string>> {
  if (!options.https) return STATIC_SECURITY_HEADERS;
  return { ...STATIC_SECURITY_HEADERS, "Strict-Transport-Security": "max-age=63072000; includeSubDomains" };
}
