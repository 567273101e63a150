import { unitsText } from "./money";
import type { Area, ShippingMethod, TaxShippingSetup, TaxZone } from "./tax-shipping-setup";

/**
 * What a cart comes to at an address (issue 35, docs/decisions/0048): the
 * shipping methods the address's zone offers at their prices, the tax of
 * each line at the rate of the address's tax zone (destination-based) and
 * the total. Whole minor units and whole millionths throughout; the one
 * rounding is each line's tax (and shipping's), half-up to the minor unit,
 * so the taxes per rate are sums of figures the order's lines show.
 */

/** Percent with up to 4 decimals (8.875 % in New York) as millionths. */
export const RATE_DECIMALS = 4;

/** A rate in millionths as people write it: 190,000 is 19, 57,500 is 5.75. */
export const percentOf = (millionths: number): number => Number(unitsText(millionths, RATE_DECIMALS));

/** Where the order goes: a country (ISO 3166-1 alpha-2) and, where its addresses have one, its region (ISO 3166-2). */
export interface Destination {
  country: string;
  region?: string | null;
}

export interface QuoteLine<Id = number> {
  lineId: Id;
  /** What the line costs after discounts, in minor units, as the catalogue prices it (with or without tax). */
  total: number;
  /** The product's tax class; null for the standard rate. */
  taxClass: string | null;
  /** The line's weight: its variant's weight times its quantity (0 when not given). */
  grams: number;
}

/** A line as a quote takes it: `quantity` of a variant at `unitPrice`, its product's tax class and its weight. */
export function quoteLineOf<Id>(line: {
  lineId: Id;
  unitPrice: number;
  quantity: number;
  taxClass: string | null;
  weightGrams: number | null;
}): QuoteLine<Id> {
  return {
    lineId: line.lineId,
    total: line.unitPrice * line.quantity,
    taxClass: line.taxClass,
    grams: (line.weightGrams ?? 0) * line.quantity,
  };
}

interface MethodOffer {
  id: string;
  name: string;
  estimate: string;
  price: number;
  /** Where a band of subtotal makes it free, the subtotal it is free from (what the checkout tells the shopper). */
  freeFrom: number | null;
}

/** One rate's tax on a quote, and on the order placed at it (`orders.taxes`). */
export interface TaxAmount {
  /** The zone's name, and the class's beside it for a class rate: "Germany", "Germany (reduced)". */
  name: string;
  /** In millionths: 190,000 is 19 %. */
  rate: number;
  amount: number;
}

export interface Quote<Id = number> {
  lines: { lineId: Id; total: number; tax: number }[];
  subtotal: number;
  shippingMethods: MethodOffer[];
  /** The method the quote charges for: the one asked, else the first the zone offers. */
  shippingMethod: MethodOffer;
  shipping: number;
  taxes: TaxAmount[];
  /** The sum of `taxes`. */
  tax: number;
  /** Prices include tax: `taxes` are contained in the lines and shipping, not added. */
  taxIncluded: boolean;
  total: number;
}

/** Why there is no quote: the shop does not ship there, does not sell there, the method is not one offered. */
export type QuoteRefusal = "not-shipped" | "not-taxed" | "no-method-fits" | "unknown-method";

/**
 * The zone an address is in: a zone listing its region first (US-OR), else
 * one listing its country (US). The setup puts an area in one zone at most.
 */
function zoneOf<Zone extends { areas: Area[] }>(
  zones: readonly Zone[],
  destination: Destination,
): Zone | undefined {
  const { region } = destination;
  return (
    (region ? zones.find((zone) => zone.areas.includes(region)) : undefined) ??
    zones.find((zone) => zone.areas.includes(destination.country))
  );
}

/** A method's price for a parcel, or undefined when it does not take one this heavy. */
function methodPrice(method: ShippingMethod, subtotal: number, grams: number): number | undefined {
  if ("flat" in method) return method.flat;
  if ("bySubtotal" in method) {
    let price = method.bySubtotal[0]?.price;
    for (const band of method.bySubtotal) if (subtotal >= band.from) price = band.price;
    return price;
  }
  return method.byWeight.find((band) => grams <= band.upToGrams)?.price;
}

/** The subtotal from which a method priced by bands of subtotal is free, if one band is. */
function freeFromOf(method: ShippingMethod): number | null {
  if (!("bySubtotal" in method)) return null;
  return method.bySubtotal.find((band) => band.price === 0 && band.from > 0)?.from ?? null;
}

/** Every country the shop ships to, or to a region of (ISO 3166-1 alpha-2): what the checkout's list offers. */
export function shippedCountries(setup: TaxShippingSetup): Set<string> {
  return new Set(setup.shippingZones.flatMap((zone) => zone.areas.map((area) => area.slice(0, 2))));
}

/** The methods the shop offers an address for this parcel, in the owner's order; undefined where it does not ship. */
function methodsFor(
  setup: TaxShippingSetup,
  destination: Destination,
  subtotal: number,
  grams: number,
): MethodOffer[] | undefined {
  const zone = zoneOf(setup.shippingZones, destination);
  if (!zone) return undefined;
  return zone.methods.flatMap((method) => {
    const price = methodPrice(method, subtotal, grams);
    return price === undefined
      ? []
      : [
          {
            id: method.id,
            name: method.name,
            estimate: method.estimate,
            price,
            freeFrom: freeFromOf(method),
          },
        ];
  });
}

const MILLION = 1_000_000n;

/**
 * The tax of an amount at `rate` millionths, half-up to the minor unit: added
 * on top of a net amount, or contained in a gross one (gross × r / (1 + r)).
 * In BigInt: amount × rate passes 2^53 for amounts a shop takes.
 */
export function taxOf(amount: number, rate: number, included: boolean): number {
  const numerator = BigInt(amount) * BigInt(rate);
  const denominator = included ? MILLION + BigInt(rate) : MILLION;
  // Half-up for the non-negative amounts a checkout has: floor((2n + d) / 2d).
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/** The rate a line pays in a zone, and the name its tax goes under. */
function rateOf(zone: TaxZone, taxClass: string | null): { name: string; rate: number } {
  const classRate = taxClass === null ? undefined : zone.classRates[taxClass];
  return classRate === undefined
    ? { name: zone.name, rate: zone.rate }
    : { name: `${zone.name} (${taxClass})`, rate: classRate };
}

/**
 * The quote for a cart's lines at an address, with the method asked (or the
 * zone's first that takes the parcel); a refusal when the shop does not ship
 * or sell there, or the method is not one it offers.
 */
export function quoteFor<Id>(
  setup: TaxShippingSetup,
  lines: readonly QuoteLine<Id>[],
  destination: Destination,
  methodId?: string | null,
): { ok: true; quote: Quote<Id> } | { ok: false; refusal: QuoteRefusal } {
  const subtotal = lines.reduce((sum, line) => sum + line.total, 0);
  const grams = lines.reduce((sum, line) => sum + line.grams, 0);
  const offered = methodsFor(setup, destination, subtotal, grams);
  if (!offered) return { ok: false, refusal: "not-shipped" };
  const taxZone = zoneOf(setup.taxZones, destination);
  if (!taxZone && setup.outsideTaxZones === "refuse") return { ok: false, refusal: "not-taxed" };
  const chosen = methodId ? offered.find((method) => method.id === methodId) : offered[0];
  if (!chosen) return { ok: false, refusal: methodId ? "unknown-method" : "no-method-fits" };

  const included = setup.pricesIncludeTax;
  const byRate = new Map<string, TaxAmount>();
  const charge = (rated: { name: string; rate: number }, amount: number) => {
    const tax = taxOf(amount, rated.rate, included);
    const sum = byRate.get(rated.name) ?? { ...rated, amount: 0 };
    byRate.set(rated.name, { ...sum, amount: sum.amount + tax });
    return tax;
  };
  const quoted = lines.map((line) => ({
    lineId: line.lineId,
    total: line.total,
    tax: taxZone ? charge(rateOf(taxZone, line.taxClass), line.total) : 0,
  }));
  if (taxZone?.taxShipping && chosen.price > 0) charge(rateOf(taxZone, null), chosen.price);
  // A zone's 0 % rate stays listed (Oregon: 0.00): the shopper sees that no tax is due, not that it was forgotten.
  const taxes = [...byRate.values()];
  const taxTotal = taxes.reduce((sum, tax) => sum + tax.amount, 0);
  return {
    ok: true,
    quote: {
      lines: quoted,
      subtotal,
      shippingMethods: offered,
      shippingMethod: chosen,
      shipping: chosen.price,
      taxes,
      tax: taxTotal,
      taxIncluded: included,
      total: subtotal + chosen.price + (included ? 0 : taxTotal),
    },
  };
}
