import { randomUUID } from "node:crypto";
import { MESSAGES } from "./auth-schema";

/**
 * Toasts that must survive a redirect ("Logged out.", "Account created.
 * Welcome!") travel in a short-lived cookie that the root loader reads once
 * and clears. The cookie carries a code from this list, never text, so
 * nothing a third party writes into it can show up on screen.
 */
const FLASH_MESSAGES = {
  "logged-in": { kind: "success", message: MESSAGES.loginSuccess },
  "signed-up": { kind: "success", message: MESSAGES.signUpSuccess },
  "logged-out": { kind: "success", message: MESSAGES.loggedOut },
  "google-signed-in": { kind: "success", message: MESSAGES.googleSuccess },
  "google-failed": { kind: "error", message: MESSAGES.googleFailed },
  "google-not-linked": { kind: "error", message: MESSAGES.googleNotLinked },
} as const satisfies Record<string, { kind: "success" | "error"; message: string }>;

export type FlashCode = keyof typeof FLASH_MESSAGES;

export interface Toast {
  /** Unique per toast, so one message shown twice is two toasts. */
  id: string;
  kind: "success" | "error";
  message: string;
}

const COOKIE = "backline_flash";

export function flashCookie(code: FlashCode, secure: boolean): string {
  return `${COOKIE}=${code}; Path=/; Max-Age=60; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The pending toast, if any, and the Set-Cookie that clears it. */
export function takeFlash(request: Request): { toast: Toast; clear: string } | null {
  const cookies = request.headers.get("Cookie") ?? "";
  const match = new RegExp(`(?:^|;\\s*)${COOKIE}=([a-z-]+)`).exec(cookies);
  const code = match?.[1];
  if (!code || !Object.hasOwn(FLASH_MESSAGES, code)) return null;
  const { kind, message } = FLASH_MESSAGES[code as FlashCode];
  return {
    toast: { id: randomUUID(), kind, message },
    clear: `${COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`,
  };
}
