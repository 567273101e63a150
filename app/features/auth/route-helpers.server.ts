import { data, type RouterContextProvider } from "react-router";
import { requestInfoContext, servicesContext } from "~/context.server";
import { MESSAGES } from "./auth-schema";

/** The auth service and this request's client address (TRUST_PROXY honoured). */
export function accountsFor(request: Request, context: Readonly<RouterContextProvider>) {
  const { auth } = context.get(servicesContext);
  const address = auth.addressOf(request, context.get(requestInfoContext).clientAddress);
  return { auth, address };
}

/** 429 with Retry-After and PRODUCT's message, for a form action. */
export function tooManyAttempts<T extends object>(retryAfterSeconds: number, extra: T) {
  return data(
    { ...extra, formError: MESSAGES.tooManyAttempts(retryAfterSeconds) },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}

/** Passes an action's Retry-After on to the document response (no-JavaScript form posts). */
export function retryAfterHeaders({ actionHeaders }: { actionHeaders: Headers }): HeadersInit {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter
    ? { "Retry-After": retryAfter, "Cache-Control": "no-store" }
    : { "Cache-Control": "no-store" };
}
