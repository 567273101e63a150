import { randomBytes } from "node:crypto";
import { createCookie } from "react-router";
import { accountKey } from "./rate-limit.server";

/**
 * The device cookie (OWASP, "Slow Down Online Guessing Attacks with Device
 * Cookies"): after a successful login the browser keeps a signed note that
 * it signed in to this account before. Logins from such a browser are limited
 * on their own, so a guesser exhausting the account's budget for unknown
 * clients cannot lock the owner out of a device they already use.
 * It names the account only by a hash of its email, and nothing else.
 */
const YEAR = 60 * 60 * 24 * 365;

interface DeviceNote {
  /** Random id of this browser. */
  device: string;
  /** accountKey(email) of the account it signed in to. */
  account: string;
}

export interface DeviceCookies {
  /** The browser's device id when its cookie was issued for `email`; null otherwise. */
  knownDevice(request: Request, email: string): Promise<string | null>;
  /** Set-Cookie marking this browser as one that signed in to `email` (keeping its id if it has one). */
  remember(request: Request, email: string): Promise<string>;
}

export function createDeviceCookies(options: { secret: string; secure: boolean }): DeviceCookies {
  const cookie = createCookie(options.secure ? "__Host-backline_device" : "backline_device", {
    httpOnly: true,
    sameSite: "lax",
    secure: options.secure,
    path: "/",
    maxAge: YEAR,
    secrets: [options.secret],
  });
  const read = async (request: Request): Promise<DeviceNote | null> => {
    const value: unknown = await cookie.parse(request.headers.get("Cookie")).catch(() => null);
    const note = value as Partial<DeviceNote> | null;
    return typeof note?.device === "string" && typeof note.account === "string"
      ? { device: note.device, account: note.account }
      : null;
  };
  return {
    async knownDevice(request, email) {
      const note = await read(request);
      return note && note.account === accountKey(email) ? note.device : null;
    },
    async remember(request, email) {
      const device = (await read(request))?.device ?? randomBytes(16).toString("base64url");
      return cookie.serialize({ device, account: accountKey(email) } satisfies DeviceNote);
    },
  };
}
