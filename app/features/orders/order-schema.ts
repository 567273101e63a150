import { z } from "~/utils/zod";
import { checkoutSchema, orderAnswerSchema } from "./checkout-schema";
import { isOrderNumber } from "./order-number";

/**
 * What the order's page (/orders/{number}), its JSON twin and the shopper's
 * list of orders take, and what the JSON API answers about one order.
 */

/** The path's order number: one written otherwise names no order, and is answered as such (404). */
export const orderParamsSchema = z.object({
  number: z.string().refine(isOrderNumber, "An order number is BL- and five letters or digits."),
});

/** The signed link's token; anything else in the query is ignored. */
export const orderQuerySchema = z.object({
  token: z.string().max(200).optional(),
});

/** /account/orders?page=N: 1-based. */
export const orderListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/** The address as it was when the order was placed (placeholders once its account is deleted). */
const shippingAddressSnapshotSchema = z.object({
  name: z.answerString(),
  line1: z.answerString(),
  line2: z.answerString().optional(),
  city: z.answerString(),
  postalCode: z.answerString(),
  country: z.answerString().describe("ISO 3166-1 alpha-2."),
  region: z
    .answerString()
    .optional()
    .describe('ISO 3166-2 ("US-OR"), for a country whose addresses need one.'),
});

const paymentInstructionsSchema = z.object({
  paragraphs: z.array(z.answerString()).describe("What to do to pay, in a sentence or two each."),
  details: z
    .array(z.answerString())
    .describe("Lines to copy as they are: the bank's details for a bank transfer; empty otherwise."),
});

export const orderDetailsAnswerSchema = z.object({
  order: orderAnswerSchema.shape.order.extend({
    placedAt: z.iso.datetime().describe("When the order was placed (ISO 8601, UTC)."),
    shippingAddress: shippingAddressSnapshotSchema,
    shippingMethod: checkoutSchema.shape.shippingMethod,
    paymentMethod: checkoutSchema.shape.paymentMethod,
    paymentInstructions: paymentInstructionsSchema,
  }),
});
