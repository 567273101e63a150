/** What shipping costs, in cents: the owner's settings (/admin/settings), their defaults from the configuration. */
export interface ShippingRates {
  standardCents: number;
  /** Standard shipping is free from this subtotal. */
  freeStandardFromCents: number;
  expressCents: number;
}

/** Days a shopper has to send a product back. */
const RETURN_DAYS = 30;

/** The product page's lines on shipping and returns, its amounts written by `formatCents` (the shop's currency). */
export function shippingAndReturnsNotes(
  rates: ShippingRates,
  formatCents: (minor: number) => string,
): string[] {
  return [
    `Free standard shipping from ${formatCents(rates.freeStandardFromCents)}; otherwise ${formatCents(rates.standardCents)}. Express ${formatCents(rates.expressCents)}.`,
    `Returns: send it back within ${RETURN_DAYS} days for a full refund.`,
  ];
}
