/**
 * Where a visitor goes after logging in: a path on this site, never anywhere
 * else. Pages that send a visitor to /login pass `redirectTo`; anything that is
 * not a plain same-origin path falls back to `/`.
 */
const PLACEHOLDER_ORIGIN = "http://backline.invalid";

export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return fallback;
  // A single leading slash: "//host" and "/\host" are other sites to a browser.
  if (!value.startsWith("/") || value.startsWith("//")) return fallback;
  // Browsers treat "\" as "/" and drop tabs and newlines inside URLs, so
  // "/\evil.example" or "/\t/evil.example" would turn into "//evil.example".
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\\\u0000-\u001f\u007f\s]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The login page that brings the visitor back to `returnTo` afterwards. */
export function loginPath(returnTo?: string): string {
  const target = safeRedirectPath(returnTo, "/");
  return target === "/" || target.startsWith("/login") || target.startsWith("/sign-up")
    ? "/login"
    : `/login?redirectTo=${encodeURIComponent(target)}`;
}
