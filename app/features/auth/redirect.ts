/**
 * Where a visitor goes after logging in: a path on this site, never anywhere
 * else. Pages that send a visitor to /login pass `redirectTo`; anything that is
 * not a plain same-origin path falls back to `/`.
 */
const PLACEHOLDER_ORIGIN = "http://backline.invalid";
const MAX_LENGTH = 2048;

/** A single leading slash and nothing a browser could read as another host. */
function looksLikeOwnPath(value: string): boolean {
  // "//host" and "/\host" are other sites to a browser. Browsers treat "\"
  // as "/" and drop tabs and newlines inside URLs, so "/\evil.example" or
  // "/\t/evil.example" would turn into "//evil.example".
  return (
    value.startsWith("/") &&
    !value.startsWith("//") &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
    !/[\\\u0000-\u001f\u007f\s]/.test(value)
  );
}

export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return fallback;
  if (!looksLikeOwnPath(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return fallback;
  // Judge what is finally used: normalising "/.//evil.example" (or "/..//",
  // "/%2e%2e//") yields "//evil.example", which is another site.
  const path = `${url.pathname}${url.search}${url.hash}`;
  return looksLikeOwnPath(path) && path.length <= MAX_LENGTH ? path : fallback;
}

/** Pages only a signed-in shopper may see: logging out there goes home instead. */
const SIGNED_IN_ONLY = ["/account", "/verify-email"];

/** Where logging out leaves the shopper: the page they were on when it is public, else home. */
export function publicPageAfterLogOut(returnTo: unknown): string {
  const target = safeRedirectPath(returnTo, "/");
  const path = new URL(target, PLACEHOLDER_ORIGIN).pathname;
  return SIGNED_IN_ONLY.some((page) => path === page || path.startsWith(`${page}/`)) ? "/" : target;
}

/** The login page that brings the visitor back to `returnTo` afterwards. */
export function loginPath(returnTo?: string): string {
  const target = safeRedirectPath(returnTo, "/");
  return target === "/" || target.startsWith("/login") || target.startsWith("/sign-up")
    ? "/login"
    : `/login?redirectTo=${encodeURIComponent(target)}`;
}
