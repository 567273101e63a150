import type { Database } from "~/db/client.server";
import { logFailure } from "~/utils/logger.server";
import { type CartOwner, GUEST_CART_DAYS, mergeGuestCart, newGuestToken } from "./cart.server";

/**
 * Whose cart a request is about, for the JSON API and the cart's pages
 * alike: a guest's is behind an httpOnly cookie holding a random token (the
 * database keeps its hash), a signed-in shopper's is their account's.
 */

/** The guest's cart cookie: a random token (its hash is what the database keeps). */
export const CART_COOKIE = "backline_cart";
const GUEST_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Who asks: the database, the signed-in user (null for a guest), and whether cookies must be Secure. */
export interface CartVisitor {
  db: Database;
  userId: string | null;
  secureCookies: boolean;
}

function guestTokenOf(request: Request): string | null {
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, value] = pair.trim().split("=");
    if (name === CART_COOKIE && value && GUEST_TOKEN.test(value)) return value;
  }
  return null;
}

function cartCookie(token: string, secure: boolean): string {
  const maxAge = GUEST_CART_DAYS * 24 * 60 * 60;
  return `${CART_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The cookie that empties a browser's guest cart (after logging out, or once merged into an account's). */
export function clearedCartCookie(secure: boolean): string {
  return `${CART_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * On signing in or up: the guest's cart (if the browser has one) joins the
 * account's, and the answer's Set-Cookie clears the guest's. A failure keeps
 * the guest's cart for the next sign-in rather than failing the sign-in.
 */
export async function takeGuestCart(
  request: Request,
  visitor: CartVisitor & { userId: string },
): Promise<string | null> {
  const guestToken = guestTokenOf(request);
  if (!guestToken) return null;
  try {
    await mergeGuestCart(visitor.db, guestToken, visitor.userId);
    return clearedCartCookie(visitor.secureCookies);
  } catch (error) {
    logFailure(error, "the guest's cart could not join the account's; kept for the next sign-in");
    return null;
  }
}

/** The visitor's cart, or null for a guest who has none yet. */
export function ownerOf(request: Request, visitor: Pick<CartVisitor, "userId">): CartOwner | null {
  if (visitor.userId) return { userId: visitor.userId };
  const guestToken = guestTokenOf(request);
  return guestToken ? { guestToken } : null;
}

/** The visitor's cart for a change: a guest without one gets a token, and the cookie is (re)set for 30 days. */
export function ownerForChange(
  request: Request,
  visitor: CartVisitor,
): { owner: CartOwner; headers: HeadersInit } {
  if (visitor.userId) return { owner: { userId: visitor.userId }, headers: {} };
  const guestToken = guestTokenOf(request) ?? newGuestToken();
  return { owner: { guestToken }, headers: { "Set-Cookie": cartCookie(guestToken, visitor.secureCookies) } };
}
