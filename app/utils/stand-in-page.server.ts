import type http from "node:http";

/**
 * A page of one of the demo's local stand-ins (for Google's sign-in, for
 * Stripe's Checkout): never cached, and allowed no script, no other origin's
 * form target and no frame, as the real services' pages would be.
 */
export function sendStandInPage(res: http.ServerResponse, status: number, html: string) {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader(
    "Content-Security-Policy",
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  res.end(html);
}
