import { amountSchema, currencySchema } from "~/commerce/money-schema";
import { z } from "~/utils/zod";
import { destinationSchema, shippingMethodIdSchema, taxesSchema, taxIncludedSchema } from "./checkout-schema";

/**
 * `POST /api/checkout/quote` (issue 35): what the visitor's cart comes to at
 * an address — its shipping methods there, each line's tax, the taxes per
 * rate and the total — before any order is placed.
 */
export const quoteRequestSchema = z.object({
  shippingAddress: destinationSchema.describe(
    "Where the order goes: `country` (ISO 3166-1 alpha-2) and, for the countries whose addresses have one, `region` (ISO 3166-2).",
  ),
  shippingMethod: shippingMethodIdSchema
    .optional()
    .describe("One of the quote's `shippingMethods[].id`; without it, the first the address is offered."),
});

const money = amountSchema;

export const quoteAnswerSchema = z.object({
  currency: currencySchema,
  lines: z
    .array(
      z.object({
        lineId: z.number().int().describe("The cart line's id (its variant's)."),
        total: money().describe("The line's total, as the catalogue prices it."),
        tax: money().describe("The tax of the line: contained in `total` when `taxIncluded`, else added."),
      }),
    )
    .describe("Every line of the cart, at today's prices."),
  subtotal: money(),
  shippingMethods: z
    .array(
      z.object({
        id: z.answerString(),
        name: z.answerString(),
        estimate: z.answerString().describe('How long delivery takes, as the shop words it ("2-4 days").'),
        price: money(),
      }),
    )
    .describe("The methods the shop offers this address for this cart, in the shop's order."),
  shippingMethod: z.answerString().describe("The method `shipping` is for."),
  shipping: money(),
  taxes: taxesSchema,
  taxIncluded: taxIncludedSchema,
  total: money().describe("subtotal + shipping, plus the taxes when they are not included."),
});
