import { iso31661, iso31662 } from "iso-3166";
import { z } from "~/utils/zod";
import { percentOf, RATE_DECIMALS } from "./checkout-quote";
import {
  type CurrencyCode,
  decimalAmount,
  decimalText,
  minorDigitsOf,
  money,
  unitsOfDecimalText,
} from "./money";
import { TAX_CLASS } from "./tax-class";

/**
 * Where a shop charges which tax and what shipping costs (issue 35,
 * docs/decisions/0048): one document an owner edits at /admin/settings or
 * replaces through the API (`/api/admin/tax-and-shipping`), kept in a file
 * and copied between shops. In the document amounts are decimals of the
 * shop's currency and rates are percent, as an owner writes them; parsed,
 * amounts are whole minor units and rates whole millionths (19 % is
 * 190,000), so every figure a checkout works out is integer arithmetic.
 */

/** A place a zone covers: a country (ISO 3166-1 alpha-2, "DE") or a region of one (ISO 3166-2, "US-OR"). */
export type Area = string;

export interface TaxZone {
  name: string;
  areas: Area[];
  /** The standard rate, in millionths (19 % is 190,000). */
  rate: number;
  /** Another rate for the products of a tax class ("reduced": 70,000), in millionths. */
  classRates: Record<string, number>;
  /** Shipping to the zone is taxed at its standard rate. */
  taxShipping: boolean;
}

/** How a shipping method is priced, in minor units of the shop's currency. */
type MethodPrice =
  | { flat: number }
  /** Bands of the order's subtotal, `from` ascending and the first from 0: the last band the subtotal reaches. */
  | { bySubtotal: { from: number; price: number }[] }
  /** Bands of the parcel's weight, ascending: the first band it fits; heavier than the last, the method is not offered. */
  | { byWeight: { upToGrams: number; price: number }[] };

export type ShippingMethod = { id: string; name: string; estimate: string } & MethodPrice;

export interface ShippingZone {
  name: string;
  areas: Area[];
  methods: ShippingMethod[];
}

export interface TaxShippingSetup {
  /** Catalogue prices include tax (usual in the EU, the UK, Australia) or have it added (the US, Canada). */
  pricesIncludeTax: boolean;
  /** For an address in no tax zone: charge no tax, or do not sell there. */
  outsideTaxZones: "no-tax" | "refuse";
  taxZones: TaxZone[];
  shippingZones: ShippingZone[];
}

/** Limits that keep a document a setup, not a load: far above any shop's. */
const SETUP_LIMITS = {
  zones: 200,
  areasPerZone: 400,
  methodsPerZone: 20,
  bands: 50,
  classes: 20,
  /** The dearest shipping price, in major units. */
  mostPrice: 1_000_000,
  /** The heaviest weight band: 10 tonnes. */
  mostGrams: 10_000_000,
} as const;

const COUNTRIES = new Set(iso31661.map((country) => country.alpha2));
const REGIONS = new Set(iso31662.map((region) => region.code));

/** Whether `area` is a country's ISO 3166-1 alpha-2 code or a region's ISO 3166-2 code. */
const isArea = (area: string): boolean => COUNTRIES.has(area) || REGIONS.has(area);

/**
 * A decimal with at most `decimals` digits after the point, as a whole number
 * of its `10^-decimals` units, read from the number's own digits (String
 * writes the shortest text that reads back as the same number): no float
 * arithmetic. Undefined for a negative, an exponent or too many decimals.
 */
const unitsOfDecimal = (value: number, decimals: number): number | undefined =>
  // String of a negative, an exponent or NaN is no plain decimal: refused by the text's reading.
  unitsOfDecimalText(String(value), decimals);

const rateField = () =>
  z
    .number("Enter the rate in percent, like 19 or 5.75.")
    .min(0, "A rate is at least 0 %.")
    .max(100, "A rate is at most 100 %.")
    .refine(
      (rate) => unitsOfDecimal(rate, RATE_DECIMALS) !== undefined,
      "A rate has at most 4 decimals, like 8.875.",
    )
    .transform((rate) => unitsOfDecimal(rate, RATE_DECIMALS) as number);

/** An amount of `currency` as minor units: at most its minor unit's decimals. */
function priceField(currency: CurrencyCode) {
  const digits = minorDigitsOf(currency);
  const example = decimalText(money(490 * 10 ** Math.max(0, digits - 2), currency));
  return z
    .number(`Enter a price in ${currency}, like ${example}.`)
    .min(0, "A price is at least 0.")
    .max(SETUP_LIMITS.mostPrice, `A price is at most ${SETUP_LIMITS.mostPrice.toLocaleString("en-US")}.`)
    .refine(
      (price) => unitsOfDecimal(price, digits) !== undefined,
      digits === 0
        ? `${currency} has no decimals: enter whole amounts.`
        : `A price in ${currency} has at most ${digits} decimals.`,
    )
    .transform((price) => unitsOfDecimal(price, digits) as number);
}

const nameField = (what: string) =>
  z
    .string(`Enter the ${what}'s name.`)
    .trim()
    .min(1, `Enter the ${what}'s name.`)
    .max(80, `A ${what}'s name has at most 80 characters.`);

const areasField = () =>
  z
    .array(
      z
        .string("Enter a country (DE) or region (US-OR) code.")
        .trim()
        .toUpperCase()
        .refine(isArea, "Enter a country's ISO 3166-1 code (DE) or a region's ISO 3166-2 code (US-OR)."),
      "List the zone's countries or regions.",
    )
    .min(1, "List the zone's countries or regions.")
    .max(SETUP_LIMITS.areasPerZone, `A zone has at most ${SETUP_LIMITS.areasPerZone} areas.`);

/**
 * Each area in at most one zone of the list: an address has one zone, never a
 * choice of two. And each zone its own name: taxes go under it, and the
 * activity log tells zones apart by it.
 */
function areasOnce(zones: unknown, context: z.RefinementCtx, list: string) {
  // Checked even when other values are bad (so one answer names every fault): nothing here is typed yet.
  if (!Array.isArray(zones)) return;
  const seen = new Map<Area, number>();
  const names = new Set<string>();
  zones.forEach((zone: { name?: unknown; areas?: unknown }, at) => {
    if (typeof zone !== "object" || zone === null || !Array.isArray(zone.areas)) return;
    if (typeof zone.name === "string" && names.has(zone.name)) {
      context.addIssue({
        code: "custom",
        path: [list, at, "name"],
        message: `Another zone is called ${zone.name}: give each its own name.`,
      });
    }
    if (typeof zone.name === "string") names.add(zone.name);
    zone.areas.forEach((area: unknown, areaAt) => {
      if (typeof area !== "string") return;
      const first = seen.get(area);
      if (first === undefined) seen.set(area, at);
      else {
        context.addIssue({
          code: "custom",
          path: [list, at, "areas", areaAt],
          message: `${area} is already in zone ${first + 1}: an area belongs to one zone.`,
        });
      }
    });
  });
}

const taxZoneSchema = z.object({
  name: nameField("tax zone"),
  areas: areasField(),
  rate: rateField(),
  classRates: z
    .record(
      z.string().regex(TAX_CLASS, "A tax class is lowercase letters, digits and dashes, like reduced."),
      rateField(),
      'Give each tax class its rate: { "reduced": 7 }.',
    )
    .refine(
      (rates) => Object.keys(rates).length <= SETUP_LIMITS.classes,
      `A zone has at most ${SETUP_LIMITS.classes} tax classes.`,
    )
    .default({}),
  taxShipping: z.boolean("Say true or false: is shipping taxed?").default(true),
});

function bandsOf<Band>(band: z.ZodType<Band>, what: string) {
  return z
    .array(band, `List the ${what} bands.`)
    .min(1, `List at least one ${what} band.`)
    .max(SETUP_LIMITS.bands, `A method has at most ${SETUP_LIMITS.bands} bands.`);
}

function methodSchema(currency: CurrencyCode) {
  const price = priceField(currency);
  return z
    .object({
      id: z
        .string("Give the method an id, like standard.")
        .regex(
          /^[a-z][a-z0-9-]{0,39}$/,
          "A method's id is lowercase letters, digits and dashes, like express.",
        ),
      name: nameField("method"),
      estimate: z
        .string("Say how long delivery takes, like 2-4 days.")
        .trim()
        .max(80, "A delivery estimate has at most 80 characters."),
      flat: price.optional(),
      bySubtotal: bandsOf(z.object({ from: price, price }), "subtotal")
        .refine((bands) => bands[0]?.from === 0, "The first subtotal band starts from 0.")
        .refine(
          (bands) =>
            bands.every((band, at) => at === 0 || band.from > (bands[at - 1] as { from: number }).from),
          "Subtotal bands go up: each starts above the one before.",
        )
        .optional(),
      byWeight: bandsOf(
        z.object({
          upToGrams: z
            .number("Enter the band's weight in grams, like 5000.")
            .int("Enter the band's weight in whole grams.")
            .min(1, "A weight band is at least 1 gram.")
            .max(SETUP_LIMITS.mostGrams, "A weight band is at most 10,000,000 grams."),
          price,
        }),
        "weight",
      )
        .refine(
          (bands) =>
            bands.every(
              (band, at) => at === 0 || band.upToGrams > (bands[at - 1] as { upToGrams: number }).upToGrams,
            ),
          "Weight bands go up: each heavier than the one before.",
        )
        .optional(),
    })
    .superRefine((method, context) => {
      const ways = ["flat", "bySubtotal", "byWeight"].filter(
        (way) => method[way as keyof typeof method] !== undefined,
      );
      if (ways.length !== 1) {
        context.addIssue({
          code: "custom",
          path: ways.length === 0 ? ["flat"] : [ways[1] as string],
          message: "Price the method one way: flat, bySubtotal or byWeight.",
        });
      }
    })
    .transform(({ flat, bySubtotal, byWeight, ...method }): ShippingMethod => {
      if (bySubtotal) return { ...method, bySubtotal };
      if (byWeight) return { ...method, byWeight };
      return { ...method, flat: flat as number };
    });
}

function shippingZoneSchema(currency: CurrencyCode) {
  return z
    .object({
      name: nameField("shipping zone"),
      areas: areasField(),
      methods: z
        .array(methodSchema(currency), "List the zone's shipping methods.")
        .min(1, "A shipping zone has at least one method.")
        .max(SETUP_LIMITS.methodsPerZone, `A zone has at most ${SETUP_LIMITS.methodsPerZone} methods.`),
    })
    .superRefine((zone, context) => {
      const ids = new Set<string>();
      zone.methods.forEach((method, at) => {
        if (ids.has(method.id)) {
          context.addIssue({
            code: "custom",
            path: ["methods", at, "id"],
            message: `Another method of this zone is ${method.id}: each has its own id.`,
          });
        }
        ids.add(method.id);
      });
    });
}

/**
 * The setup document as the API and the settings page take it, its amounts in
 * `currency` (the shop's): parsed, the setup in minor units and millionths.
 */
export function taxShippingSetupSchema(currency: CurrencyCode) {
  return z
    .object({
      pricesIncludeTax: z.boolean("Say true or false: do catalogue prices include tax?"),
      outsideTaxZones: z.enum(["no-tax", "refuse"], 'Choose "no-tax" or "refuse".'),
      taxZones: z
        .array(taxZoneSchema, "List the tax zones (an empty list charges no tax).")
        .max(SETUP_LIMITS.zones, `At most ${SETUP_LIMITS.zones} tax zones.`),
      shippingZones: z
        .array(shippingZoneSchema(currency), "List the shipping zones.")
        .min(1, "Ship somewhere: list at least one shipping zone.")
        .max(SETUP_LIMITS.zones, `At most ${SETUP_LIMITS.zones} shipping zones.`),
    })
    .superRefine(
      (setup, context) => {
        areasOnce(setup.taxZones, context, "taxZones");
        areasOnce(setup.shippingZones, context, "shippingZones");
      },
      { when: (payload) => typeof payload.value === "object" && payload.value !== null },
    ) satisfies z.ZodType<TaxShippingSetup, unknown>;
}

/** The document of a setup: amounts as decimals of `currency`, rates in percent (what GET answers). */
export function setupDocument(setup: TaxShippingSetup, currency: CurrencyCode) {
  const amount = (minor: number) => decimalAmount(money(minor, currency));
  return {
    pricesIncludeTax: setup.pricesIncludeTax,
    outsideTaxZones: setup.outsideTaxZones,
    taxZones: setup.taxZones.map((zone) => ({
      name: zone.name,
      areas: zone.areas,
      rate: percentOf(zone.rate),
      classRates: Object.fromEntries(
        Object.entries(zone.classRates).map(([name, rate]) => [name, percentOf(rate)]),
      ),
      taxShipping: zone.taxShipping,
    })),
    shippingZones: setup.shippingZones.map((zone) => ({
      name: zone.name,
      areas: zone.areas,
      methods: zone.methods.map((method) => {
        const base = { id: method.id, name: method.name, estimate: method.estimate };
        if ("bySubtotal" in method) {
          return {
            ...base,
            bySubtotal: method.bySubtotal.map((band) => ({
              from: amount(band.from),
              price: amount(band.price),
            })),
          };
        }
        if ("byWeight" in method) {
          return {
            ...base,
            byWeight: method.byWeight.map((band) => ({
              upToGrams: band.upToGrams,
              price: amount(band.price),
            })),
          };
        }
        return { ...base, flat: amount(method.flat) };
      }),
    })),
  };
}

/**
 * The setup of a shop that has saved none: no tax (as before issue 35), and
 * the standard and express prices of its settings as the methods of one zone,
 * "Everywhere", so an existing shop keeps charging what it charged.
 */
export function everywhereSetup(shipping: {
  standard: number;
  freeFrom: number;
  express: number;
}): TaxShippingSetup {
  const bySubtotal =
    shipping.freeFrom > 0
      ? [
          { from: 0, price: shipping.standard },
          { from: shipping.freeFrom, price: 0 },
        ]
      : [{ from: 0, price: 0 }];
  return {
    pricesIncludeTax: false,
    outsideTaxZones: "no-tax",
    taxZones: [],
    shippingZones: [
      {
        name: "Everywhere",
        areas: [...COUNTRIES].sort(),
        methods: [
          { id: "standard", name: "Standard", estimate: "3-5 business days", bySubtotal },
          { id: "express", name: "Express", estimate: "1-2 business days", flat: shipping.express },
        ],
      },
    ],
  };
}

/** The tax classes the zones give a rate, in order: what a product's Tax class field suggests. */
export function taxClassesOf(setup: TaxShippingSetup): string[] {
  return [...new Set(setup.taxZones.flatMap((zone) => Object.keys(zone.classRates)))].sort();
}
