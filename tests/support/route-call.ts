/**
 * Calls a route's loader or action as the router would, with a cookie and a
 * form if the test brings them, and reports what the browser would get: the
 * status, a redirect's Location, and the page's data or the Response itself.
 */

// biome-ignore lint/suspicious/noExplicitAny: any route module's loader or action
export type RouteHandler = (args: any) => unknown;

export interface RouteOutcome {
  status: number;
  location: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: what the page's component would be given
  body: any;
  /** The Response the route answered with (a redirect, a download), else null. */
  response: Response | null;
}

export interface RouteCall {
  /** The router context with the shop's services (shop-context.ts), when the route reads them. */
  context?: unknown;
  params?: object;
  /** A form post: fields (sent URL-encoded, as a form without files is) or a multipart FormData. */
  form?: Record<string, string> | URLSearchParams | FormData;
  cookie?: string;
}

export async function callRoute(
  handler: RouteHandler,
  path: string,
  { context, params = {}, form, cookie }: RouteCall = {},
): Promise<RouteOutcome> {
  const headers = new Headers();
  if (cookie) headers.set("Cookie", cookie);
  const body =
    form instanceof FormData || form instanceof URLSearchParams
      ? form
      : form
        ? new URLSearchParams(form)
        : undefined;
  if (body instanceof URLSearchParams) headers.set("Content-Type", "application/x-www-form-urlencoded");
  const url = new URL(path, "http://localhost:3000");
  const request = new Request(url, { method: body ? "POST" : "GET", headers, body });
  let result: unknown;
  try {
    result = await handler({ request, context, params, url, pattern: "/" });
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) {
    return { status: result.status, location: result.headers.get("Location"), body: null, response: result };
  }
  const wrapped = result as { type?: string; data: unknown; init: ResponseInit | null };
  if (wrapped?.type === "DataWithResponseInit") {
    return { status: wrapped.init?.status ?? 200, location: null, body: wrapped.data, response: null };
  }
  if (result instanceof Error) throw result;
  return { status: 200, location: null, body: result, response: null };
}
