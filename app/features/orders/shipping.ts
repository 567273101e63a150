/**
 * What shipping costs, in cents. These are the shop's defaults; the back
 * office (issue 24) makes them settings an owner edits.
 */
export const SHIPPING_DEFAULTS = Object.freeze({
  standardCents: 499,
  /** Standard shipping is free from this subtotal. */
  freeStandardFromCents: 5_000,
  expressCents: 1_499,
});

export type ShippingRates = typeof SHIPPING_DEFAULTS;

export function shippingCents(
  method: "standard" | "express",
  subtotalCents: number,
  rates: ShippingRates,
): number {
  if (method === "express") return rates.expressCents;
  return subtotalCents >= rates.freeStandardFromCents ? 0 : rates.standardCents;
}
