import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import {
  type EntryContext,
  type HandleDataRequestFunction,
  type HandleErrorFunction,
  isRouteErrorResponse,
  type RouterContextProvider,
  ServerRouter,
} from "react-router";
import { requestInfoContext, servicesContext } from "~/context.server";
import { isTransientFailure } from "~/db/client.server";
import { refusedValueCode } from "~/db/errors.server";
import { logFailure, logger } from "~/utils/logger.server";
import { NonceProvider } from "~/utils/nonce";
import { contentSecurityPolicy } from "~/utils/security-headers.server";

export const streamTimeout = 5_000;

const PRIVATE = "private, no-store";

/** React Router's `.data` answers carry the same user data as the pages: never stored either. */
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  response.headers.set("Cache-Control", PRIVATE);
  return response;
};

/**
 * Errors thrown by loaders and actions go to the shop's logger, whose
 * serialiser keeps query values (emails, names) out of the log, instead of
 * to console.error. A request the client abandoned is not an error.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const path = new URL(request.url).pathname;
  if (isTransientFailure(error)) mark(context, "failedTransiently");
  // A value the database refused (NUL in text, a number out of range) that a
  // schema let through: the client's mistake, answered 400; a warning, with
  // the code and never the value, says which schema to tighten.
  const refused = refusedValueCode(error);
  if (refused) {
    mark(context, "refusedValue");
    logger.warn({ path, code: refused }, "the database refused a value of this request");
    return;
  }
  // A 4xx the router answers by itself (a method a page does not take, a
  // malformed form) is the client's mistake, not the shop's: no error log.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logFailure(error, "request failed", { path });
};

/**
 * Tells the HTTP layer (server/shop-server.ts) what the failure was: one of
 * the moment (503, try again) or a refused value (400), instead of 500.
 */
function mark(
  context: Readonly<RouterContextProvider> | undefined,
  flag: "failedTransiently" | "refusedValue",
) {
  try {
    const info = context?.get(requestInfoContext);
    if (info) info[flag] = true;
  } catch {
    // A context without the request's info (not the shop's own server): the 500 stands.
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.get(requestInfoContext).cspNonce;
  const { auth, orders } = loadContext.get(servicesContext);
  // Google's sign-in (a form redirected there), and the page a card order is paid on (checkout's redirect).
  const formActionOrigins = [...auth.formActionOrigins, ...(orders.card ? [orders.card.pageOrigin] : [])];
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // Every page shows who is signed in (the navbar, the account menu with the
  // email): no cache, shared or the browser's own, may keep it.
  responseHeaders.set("Cache-Control", PRIVATE);
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce, { formActionOrigins }));

  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole page at once; people get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell are logged by React Router itself.
          if (shellRendered) logger.error({ err: error }, "render failed after the shell was sent");
        },
      },
    );
  });
}
