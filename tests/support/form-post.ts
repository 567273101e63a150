import type { RouterContextProvider } from "react-router";

/** What a browser gets back from a page's form: its status, a redirect's Location, the data, cookies set. */
export interface FormOutcome {
  status: number;
  location: string | null;
  body: Record<string, unknown> | null;
  /** The first Set-Cookie's `name=value`, as the browser sends it back. */
  cookie: string | undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: any route module's action or loader
type Handler = (args: any) => unknown;

/**
 * Calls a page's action (or loader) as the router would for a web form sent
 * without JavaScript, and reports what the browser would see, whether the
 * route returned data(), a Response, or threw a redirect.
 */
export async function sendForm(
  handler: Handler,
  context: Readonly<RouterContextProvider>,
  path: string,
  { form, cookie, method = "POST" }: { form?: Record<string, string>; cookie?: string; method?: string },
): Promise<FormOutcome> {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (form) headers["Content-Type"] = "application/x-www-form-urlencoded";
  const url = new URL(path, "http://localhost:3000");
  const request = new Request(url, { method, headers, body: form ? new URLSearchParams(form) : undefined });
  let result: unknown;
  try {
    result = await handler({ request, context, params: {}, url, pattern: "/" });
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) {
    return {
      status: result.status,
      location: result.headers.get("Location"),
      body: null,
      cookie: result.headers.get("Set-Cookie")?.split(";")[0],
    };
  }
  const wrapped = result as { type?: string; data: unknown; init: ResponseInit | null };
  if (wrapped?.type === "DataWithResponseInit") {
    const setCookie = new Headers(wrapped.init?.headers).get("Set-Cookie");
    return {
      status: wrapped.init?.status ?? 200,
      location: null,
      body: wrapped.data as Record<string, unknown>,
      cookie: setCookie?.split(";")[0],
    };
  }
  if (result instanceof Error) throw result;
  return { status: 200, location: null, body: result as Record<string, unknown>, cookie: undefined };
}
