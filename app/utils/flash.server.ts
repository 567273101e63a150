import { randomUUID } from "node:crypto";
import { createCookie } from "react-router";
import type { ToastMessage } from "./toast";

/**
 * Toasts that must survive a redirect ("Logged out.", "Account created.
 * Welcome!") travel in a short-lived cookie that the next page reads once and
 * clears. The cookie carries a code from the caller's list, never text, so
 * nothing a third party writes into it can show up on screen.
 */
const cookie = createCookie("backline_flash", { path: "/", maxAge: 60, httpOnly: true, sameSite: "lax" });

/** A toast with an id of its own, so one message shown twice is two toasts. */
export type Toast = ToastMessage & { id: string };

export function flashMessages<Code extends string>(messages: Record<Code, Omit<ToastMessage, "id">>) {
  return {
    /** The Set-Cookie that shows `code`'s toast on the next page. */
    set: (code: Code, secure: boolean): Promise<string> => cookie.serialize(code, { secure }),

    /** The pending toast, if any, and the Set-Cookie that clears it. */
    async take(request: Request): Promise<{ toast: Toast; clear: string } | null> {
      const code: unknown = await cookie.parse(request.headers.get("Cookie")).catch(() => null);
      if (typeof code !== "string" || !Object.hasOwn(messages, code)) return null;
      return {
        toast: { id: randomUUID(), ...messages[code as Code] },
        clear: await cookie.serialize("", { maxAge: 0 }),
      };
    },
  };
}
