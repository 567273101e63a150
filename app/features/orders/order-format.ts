import { percentOf } from "~/commerce/checkout-quote";

/**
 * How the shop words an order, the same on its page, in its email and in
 * the shopper's list of orders. Shared with the browser: no server imports.
 */

/** An order's status as a shopper reads it; a placed order's depends on how it is paid (payment-methods.server.ts). */
const ORDER_STATUS_WORDS: Readonly<Record<string, string>> = {
  "awaiting-payment": "Waiting for your card payment",
  paid: "Paid: we are preparing it",
  shipped: "On its way",
  cancelled: "Cancelled",
};

export const statusInWords = (status: string): string => ORDER_STATUS_WORDS[status] ?? status;

const SHIPPING_METHOD_LABELS: Readonly<Record<string, string>> = {
  standard: "Standard shipping",
  express: "Express shipping",
};

/**
 * The shipping line's label: the method's name as its zone offered it
 * ("Colissimo shipping"), or for an order from before zones its id's label.
 */
export function shippingMethodLabel(method: string, name?: string | null): string {
  if (!name) return SHIPPING_METHOD_LABELS[method] ?? method;
  return /shipping/i.test(name) ? name : `${name} shipping`;
}

/**
 * A tax's line on an order, its page, its email and Stripe's page: added
 * ("Tax, Ohio 5.75 %") or contained in the prices ("Includes tax, Germany 19 %").
 */
export const taxLabel = (tax: { name: string; rate: number }, included: boolean): string =>
  `${included ? "Includes tax" : "Tax"}, ${tax.name} ${percentOf(tax.rate)} %`;

export interface AddressSnapshot {
  name: string;
  line1: string;
  line2?: string;
  city: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** ISO 3166-2 ("US-OR"), for a country whose addresses need one (shipping-regions.ts); absent otherwise. */
  region?: string;
}

/** "1 item", "3 items". */
export const itemCount = (count: number): string => `${count} ${count === 1 ? "item" : "items"}`;

const DATE_FORMATS = new Map<string, Intl.DateTimeFormat>();

/**
 * "Mar 4, 2026" in the shopper's locale (the same on server and browser, so
 * hydration agrees), in UTC: the shop names one day for an order wherever
 * it is read.
 */
export function orderDate(iso: string, locale: string): string {
  let format = DATE_FORMATS.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
    DATE_FORMATS.set(locale, format);
  }
  return format.format(new Date(iso));
}
