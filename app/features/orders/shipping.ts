import { formatCents } from "~/utils/money";

/**
 * What shipping costs, in cents, unless SHIPPING_STANDARD, FREE_SHIPPING_FROM
 * and SHIPPING_EXPRESS say otherwise (app/utils/env.server.ts); the back
 * office (issue 24) makes them settings an owner edits.
 */
export const SHIPPING_DEFAULTS: Readonly<ShippingRates> = Object.freeze({
  standardCents: 499,
  /** Standard shipping is free from this subtotal. */
  freeStandardFromCents: 5_000,
  expressCents: 1_499,
});

export interface ShippingRates {
  standardCents: number;
  /** Standard shipping is free from this subtotal. */
  freeStandardFromCents: number;
  expressCents: number;
}

export function shippingCents(
  method: "standard" | "express",
  subtotalCents: number,
  rates: ShippingRates,
): number {
  if (method === "express") return rates.expressCents;
  return subtotalCents >= rates.freeStandardFromCents ? 0 : rates.standardCents;
}

/** Days a shopper has to send a product back. A default, like the rates: the back office makes it a setting. */
const RETURN_DAYS = 30;

/** The product page's lines on shipping and returns. */
export function shippingAndReturnsNotes(rates: ShippingRates): string[] {
  return [
    `Free standard shipping from ${formatCents(rates.freeStandardFromCents)}; otherwise ${formatCents(rates.standardCents)}. Express ${formatCents(rates.expressCents)}.`,
    `Returns: send it back within ${RETURN_DAYS} days for a full refund.`,
  ];
}
