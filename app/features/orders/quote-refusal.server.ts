import type { Destination, QuoteRefusal } from "~/commerce/checkout-quote";
import { countryName } from "./checkout-schema";
import { quoteRefusal } from "./quote-refusal";

/** Why there is no quote for an address, its country named from the country list (the server's callers). */
export const quoteRefusalAt = (refusal: QuoteRefusal, destination: Destination) =>
  quoteRefusal(refusal, destination, countryName(destination.country) ?? destination.country);
