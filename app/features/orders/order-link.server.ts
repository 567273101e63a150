import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * An order's signed link, `/orders/BL-7Q4K9?token=…`: what the confirmation
 * email carries, so a guest (or a shopper signed out) can open their order
 * (docs/decisions/0039, "Who sees an order"). The token is an HMAC-SHA256 of
 * the number with the shop's secret: it cannot be guessed from the number,
 * needs no table, and every process of one shop agrees on it. Changing the
 * secret makes every link sent so far stop working (owners still see their
 * orders when signed in).
 */

/** Ties the HMAC to this use: the same secret signing something else never makes a valid order token. */
const PURPOSE = "backline:order-link:";

/** The token of an order's link (43 characters of base64url). */
function orderToken(number: string, secret: string): string {
  return createHmac("sha256", secret)
    .update(PURPOSE + number)
    .digest("base64url");
}

/** The order's page, signed: whoever holds this path sees the order. */
export function orderPath(number: string, secret: string): string {
  return `/orders/${number}?token=${orderToken(number, secret)}`;
}

/** Whether `token` is the order's, compared in constant time (a mismatch's position says nothing). */
export function isOrderToken(number: string, token: string | undefined, secret: string): boolean {
  if (!token) return false;
  const expected = Buffer.from(orderToken(number, secret));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
