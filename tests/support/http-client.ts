/**
 * A client that keeps cookies per host and follows redirects itself, like a
 * browser without JavaScript: enough to sign up, log in and walk an OpenID
 * Connect sign-in through the shop and an identity provider over plain HTTP.
 */
export class CookieClient {
  private readonly jars = new Map<string, Map<string, string>>();

  /** The cookies this client holds for a URL's host, as a Cookie header. */
  cookieHeader(url: string): string {
    const jar = this.jars.get(new URL(url).host);
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join("; ") : "";
  }

  cookie(url: string, name: string): string | undefined {
    return this.jars.get(new URL(url).host)?.get(name);
  }

  /** Copies this client's cookies for `url`'s host (a stolen cookie, a second tab). */
  copyCookiesTo(other: CookieClient, url: string) {
    const host = new URL(url).host;
    other.jars.set(host, new Map(this.jars.get(host)));
  }

  private remember(url: string, response: Response) {
    const host = new URL(url).host;
    let jar = this.jars.get(host);
    if (!jar) {
      jar = new Map();
      this.jars.set(host, jar);
    }
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (/max-age=0\b/i.test(cookie) || /expires=thu, 01 jan 1970/i.test(cookie) || value === "")
        jar.delete(name);
      else jar.set(name, value);
    }
  }

  /** One request, no redirects followed; cookies sent and kept. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookies = this.cookieHeader(url);
    if (cookies && !headers.has("Cookie")) headers.set("Cookie", cookies);
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    this.remember(url, response);
    return response;
  }

  /** Follows redirects (as a browser would: 303 and 302 after a POST become GETs); returns the last answer and its URL. */
  async follow(
    url: string,
    init: RequestInit = {},
    maxHops = 15,
  ): Promise<{ response: Response; url: string }> {
    let current = url;
    let request = init;
    for (let hop = 0; hop < maxHops; hop++) {
      const response = await this.fetch(current, request);
      const location = response.headers.get("Location");
      if (response.status < 300 || response.status >= 400 || !location) return { response, url: current };
      await response.body?.cancel();
      current = new URL(location, current).toString();
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && request.method === "POST")
      ) {
        request = { headers: withoutBodyHeaders(request.headers) };
      }
    }
    throw new Error(`more than ${maxHops} redirects from ${url}`);
  }

  /** POSTs a web form. */
  postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields),
    });
  }
}

function withoutBodyHeaders(headers: HeadersInit | undefined): Headers {
  const copy = new Headers(headers);
  copy.delete("Content-Type");
  copy.delete("Content-Length");
  return copy;
}

export const STRONG_PASSWORD = "Str0ng!Pass";

/** Signs up through the shop's form; resolves with the response (302 on success). */
export function signUp(
  client: CookieClient,
  baseUrl: string,
  email: string,
  headers: Record<string, string> = {},
  name = "Test Shopper",
) {
  return client.postForm(
    `${baseUrl}/sign-up`,
    { name, email, photo: "https://example.com/photo.png", password: STRONG_PASSWORD },
    headers,
  );
}

/** Logs in through the shop's form; resolves with the response (302 on success). */
export function logIn(
  client: CookieClient,
  baseUrl: string,
  email: string,
  password = STRONG_PASSWORD,
  headers: Record<string, string> = {},
) {
  return client.postForm(`${baseUrl}/login`, { email, password }, headers);
}

/** Who the shop thinks this client is: the email in the account menu, or null when signed out. */
export async function signedInEmail(client: CookieClient, baseUrl: string): Promise<string | null> {
  const response = await client.fetch(`${baseUrl}/_.data`);
  const text = await response.text();
  if (!response.ok) throw new Error(`/_.data answered ${response.status}`);
  // The root loader's data is a turbo-stream: a flat array in which the user's
  // fields follow their names ("email","ada@example.com"); signed out, there are none.
  const match = /"email","([^"]+)"/.exec(text);
  return match?.[1] ?? null;
}

/**
 * "Continue with Google" through an OpenID Connect provider that shows the
 * demo provider's sign-in form (the shop's /demo-idp, or the same provider
 * served by a test): start at the shop, type the email and name into the
 * provider's form, and follow the redirects back. Resolves with the last
 * answer and its URL (the shop's page after sign-in, or /login on refusal).
 */
export async function continueWithGoogle(
  client: CookieClient,
  baseUrl: string,
  identity: { email: string; name: string },
  headers: Record<string, string> = {},
): Promise<{ response: Response; url: string }> {
  const start = await client.postForm(`${baseUrl}/auth/google`, { redirectTo: "/", mode: "page" }, headers);
  const location = start.headers.get("Location");
  if (start.status !== 302 || !location) throw new Error(`/auth/google answered ${start.status}`);
  const form = await client.follow(new URL(location, baseUrl).toString());
  if (!/\/interaction\//.test(form.url))
    throw new Error(`expected the provider's sign-in form, got ${form.url}`);
  await form.response.text();
  return client.follow(form.url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(identity),
  });
}
