import { randomInt } from "node:crypto";

/** Crockford's base 32: no I, L, O or U, so a number read out over the phone is not misheard. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const LENGTH = 5;

/**
 * A new order number a person can read out ("BL-7Q4K9"): 33 million random
 * values, so one order's number says nothing of the shop's volume or of the
 * next order's (docs/decisions/0039). Unique in the database; a collision is
 * drawn again by the caller.
 */
export function newOrderNumber(): string {
  let code = "";
  for (let at = 0; at < LENGTH; at++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `BL-${code}`;
}

/** Whether `text` is written as an order number is (for refusing malformed ones before any query). */
export function isOrderNumber(text: string): boolean {
  return new RegExp(`^BL-[${ALPHABET}]{${LENGTH}}$`).test(text);
}
