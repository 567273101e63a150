import type { Destination, QuoteRefusal } from "~/commerce/checkout-quote";

/**
 * Why the shop has no quote for an address, as the quote's API, the
 * checkout's and the checkout page say it: each names the field to change.
 */
export function quoteRefusal(
  refusal: QuoteRefusal,
  destination: Destination,
  /** The destination's country by name ("France"). */
  country: string,
): { code: string; message: string; field: string } {
  switch (refusal) {
    case "not-shipped":
      return {
        code: "not_shipped_there",
        message: `The shop does not ship to ${country}.`,
        field: "shippingAddress.country",
      };
    case "not-taxed":
      return {
        code: "not_sold_there",
        message: `The shop does not sell to ${destination.region ? "this region of " : ""}${country}.`,
        field: destination.region ? "shippingAddress.region" : "shippingAddress.country",
      };
    case "no-method-fits":
      return {
        code: "no_shipping_method",
        message: `No shipping method takes this order to ${country}: it is heavier than the shop sends there.`,
        field: "shippingAddress.country",
      };
    case "unknown-method":
      return {
        code: "invalid_shipping_method",
        message: "Choose one of the shipping methods offered for this address.",
        field: "shippingMethod",
      };
  }
}
