import countries from "i18n-iso-countries";
import english from "i18n-iso-countries/langs/en.json";
import { postcodeValidator, postcodeValidatorExistsForCountry } from "postcode-validator";
import { amountSchema, currencySchema } from "~/commerce/money-schema";
import { z } from "~/utils/zod";
import { isRegionOf, regionLabel } from "./shipping-regions";

/**
 * What a checkout takes (the JSON API's body, and the checkout form's fields
 * to come): countries are ISO 3166-1 alpha-2 codes from i18n-iso-countries,
 * and a postal code follows its country's rules from postcode-validator —
 * kept libraries, not hand-written tables (docs/decisions/0028).
 */
countries.registerLocale(english);

/** Card only where card payments are on (STRIPE_* or the demo stand-in): the server refuses it elsewhere. */
const PAYMENT_METHODS = ["cash-on-delivery", "bank-transfer", "card"] as const;

/** A country's name in English, or undefined for a code that is not a country's. */
export const countryName = (code: string): string | undefined => countries.getName(code, "en") ?? undefined;

/** Whether a postal code is written as its country writes them: any text where the country has no rules. */
const postalCodeFits = (postalCode: string, country: string): boolean =>
  countryName(country) === undefined ||
  !postcodeValidatorExistsForCountry(country) ||
  postcodeValidator(postalCode, country);

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required.`, label })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

/** An address's country: an ISO 3166-1 alpha-2 code of a country. */
const countryField = () =>
  z
    .string("Choose a country from the list.")
    .refine(
      (code) => /^[A-Z]{2}$/.test(code) && countryName(code) !== undefined,
      "Choose a country from the list.",
    );

const regionField = () =>
  z
    .string()
    .optional()
    .describe(
      'ISO 3166-2 code of the state or province ("US-OR"), required for the countries whose addresses need one (United States, Canada, Australia, Brazil, Mexico, India, Malaysia); ignored for the others.',
    );

/** Where a country's addresses need a region: one of its own, or an issue on `region`. */
function checkRegion(country: string, region: unknown, context: z.RefinementCtx) {
  const label = regionLabel(country);
  if (label && (typeof region !== "string" || !isRegionOf(region, country))) {
    context.addIssue({
      code: "custom",
      path: ["region"],
      message: `Choose a ${label.toLowerCase()} from the list.`,
    });
  }
}

/** Where an order goes, for a quote: a country and, where it has them, its region. */
export const destinationSchema = z
  .object({ country: countryField(), region: regionField() })
  .superRefine(
    ({ country, region }, context) => {
      if (typeof country === "string") checkRegion(country, region, context);
    },
    { when: ({ value }) => typeof value === "object" && value !== null },
  )
  .transform(({ region, country }) => ({ country, region: regionLabel(country) ? (region ?? null) : null }));

const shippingAddressSchema = z
  .object({
    name: text("Full name", 100),
    line1: text("Address", 200),
    line2: z
      .string({ label: "Address line 2" })
      .trim()
      .max(200, "Address line 2 must be at most 200 characters.")
      .optional(),
    city: text("City", 100),
    postalCode: text("Postal code", 20),
    country: countryField(),
    region: regionField(),
  })
  .superRefine(
    (address, context) => {
      // Also run while other fields are refused (below), so every field's message shows at once:
      // then any of them may be missing.
      const { country, postalCode, region } = address;
      if (typeof country !== "string") return;
      if (
        typeof postalCode === "string" &&
        postalCode.trim() !== "" &&
        !postalCodeFits(postalCode, country)
      ) {
        context.addIssue({
          code: "custom",
          path: ["postalCode"],
          message: `Enter a postal code as it is written in ${countryName(country)}.`,
        });
      }
      checkRegion(country, region, context);
    },
    { when: ({ value }) => typeof value === "object" && value !== null },
  )
  // A region is kept only where it means something: one left from a country chosen before (a page
  // without JavaScript still sends the list it showed) does not go on the parcel.
  .transform(({ region, ...address }) => (regionLabel(address.country) ? { ...address, region } : address));

/** What a shopper was shown as the order's total, in the shop's currency: a client's copy, checked to the minor unit. */
const expectedTotalSchema = z
  .number("Send expectedTotal as a number of dollars, the total you showed (146.96).")
  .min(0, "expectedTotal cannot be negative.")
  // Any total whose cents a JavaScript number holds exactly (below 2^53): 99 of the dearest product
  // ($99,999,999.99) on many lines is still far below.
  .max(90_000_000_000_000, "expectedTotal is larger than any order.")
  // Read as the decimal text it was written as, never multiplied as a float (money.ts).
  .refine(
    (dollars) => /^\d+(\.\d{1,2})?$/.test(String(dollars)),
    "expectedTotal is in dollars with at most two decimals.",
  )
  .describe(
    "The order's total as the shopper was shown it, in the shop's currency. When the cart, a price or the shipping method makes the total another, nothing is placed: 409 `total_changed` with the new total. Leave it out to place the order at whatever it comes to.",
  );

/** A shipping method, by the id the shop's zones give it (the quote lists those an address is offered). */
export const shippingMethodIdSchema = z
  .string("Choose a shipping method.")
  .regex(/^[a-z][a-z0-9-]{0,39}$/, "Choose one of the shipping methods offered for this address.")
  .describe("One of the methods the shop's zone offers the address (`shippingMethods[].id` of a quote).");

export const checkoutSchema = z.object({
  email: z.email("Enter a valid email address."),
  shippingAddress: shippingAddressSchema,
  shippingMethod: shippingMethodIdSchema,
  paymentMethod: z.enum(PAYMENT_METHODS, "Choose how to pay: Pay on delivery, Bank transfer or Card."),
  expectedTotal: expectedTotalSchema.optional(),
});

export type Checkout = z.infer<typeof checkoutSchema>;

/** A client's Idempotency-Key: what makes a retried checkout the same checkout. */
export const idempotencyKeySchema = z
  .string("Send an Idempotency-Key header: a random value made once per checkout (a UUID).")
  .regex(/^[\w.:-]{8,200}$/, "The Idempotency-Key must be 8 to 200 letters, digits, '-', '_', '.' or ':'.");

const money = amountSchema;

/** The tax at each rate, as a quote and an order say it. */
export const taxesSchema = z
  .array(
    z.object({
      name: z
        .answerString()
        .describe('The tax zone, and the class beside it for a class rate: "Germany (reduced)".'),
      rate: z.number().min(0).max(100).describe("In percent."),
      amount: money(),
    }),
  )
  .describe("The tax at each rate the order pays: each line's tax (and shipping's, where taxed) summed.");

export const taxIncludedSchema = z
  .boolean()
  .describe("Prices include tax: `taxes` are contained in the lines and shipping, not added.");

const orderLineSchema = z.object({
  productId: z.number().int(),
  variantId: z
    .number()
    .int()
    .describe("The variant ordered (the product's one variant when it has no options)."),
  name: z.answerString().describe("The product's name when it was ordered."),
  sku: z.answerString().describe("The variant's SKU when it was ordered."),
  options: z
    .record(z.string(), z.answerString())
    .describe(
      'Its option values when it was ordered, by option name (`{ "Size": "M" }`); `{}` without options.',
    ),
  unitPrice: money(),
  quantity: z.number().int().min(1).max(99),
  lineTotal: money(),
  tax: money().describe("The line's tax: contained in `lineTotal` when `taxIncluded`, else added."),
});

export const orderAnswerSchema = z.object({
  order: z.object({
    number: z.answerString().describe('What a person reads out: "BL-" and five letters or digits.'),
    status: z
      .enum(["awaiting-payment", "placed", "paid", "shipped", "cancelled"])
      .describe("A card order is `awaiting-payment` until Stripe says it is paid."),
    lines: z.array(orderLineSchema),
    subtotal: money(),
    shipping: money(),
    tax: money().describe("The sum of `taxes`."),
    taxes: taxesSchema,
    taxIncluded: taxIncludedSchema,
    total: money().describe("subtotal + shipping, plus the tax when it is not included."),
    currency: currencySchema,
  }),
  paymentUrl: z
    .url()
    .optional()
    .describe(
      "A card order waiting for its payment: Stripe's page, where the shopper pays the order's total. Send them there.",
    ),
});

/** A checkout refused for the cart as it is now (409): nothing was taken or ordered. */
export const checkoutConflictSchema = z.object({
  error: z.discriminatedUnion("code", [
    z.object({
      code: z.literal("cart_empty"),
      message: z.string(),
    }),
    z.object({
      code: z.literal("stock_short"),
      message: z.string(),
      lines: z
        .array(
          z.object({
            productId: z.number().int(),
            variantId: z.number().int(),
            asked: z.number().int(),
            left: z.number().int(),
          }),
        )
        .describe("Each short line: how many were asked and how many are left."),
    }),
    z.object({
      code: z.literal("total_changed"),
      message: z.string(),
      field: z.literal("expectedTotal"),
      expectedTotal: money().describe("The total the request expected."),
      lines: z.array(orderLineSchema).describe("The order as it would be placed now, at today's prices."),
      subtotal: money(),
      shipping: money(),
      tax: money(),
      taxes: taxesSchema,
      taxIncluded: taxIncludedSchema,
      total: money().describe("What the order comes to now: send it as expectedTotal to place it."),
      currency: currencySchema,
    }),
  ]),
});

/**
 * The checkout page's form: the same checkout, and the key made when the
 * page was rendered, so a double click, a second tab or a resend after a lost
 * answer is the same checkout (docs/decisions/0027).
 */
export const checkoutFormSchema = checkoutSchema.extend({ idempotencyKey: idempotencyKeySchema });

export type CheckoutFormFields = z.input<typeof checkoutFormSchema>;

/** Every country a parcel can be sent to, by name, for the checkout's list. */
export function countryChoices(): { code: string; name: string }[] {
  return Object.entries(countries.getNames("en", { select: "official" }))
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
}

/** The country a shopper most likely ships to: their browser's region, when it is a country. */
export function likelyCountry(locale: string): string {
  const region = locale.split("-")[1]?.toUpperCase();
  return region && countryName(region) ? region : "US";
}

/** A line checkout found short: the variant, what was asked, and what is on hand now (0 when gone). */
export interface ShortLine {
  productId: number;
  variantId: number;
  asked: number;
  left: number;
}
