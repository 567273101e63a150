import { amountSchema, currencySchema } from "~/commerce/money-schema";
import { z } from "~/utils/zod";
import { MOST_IN_ONE_LINE } from "./cart-limits";

/** The cart's JSON API: what it takes and answers (one schema for the server, the forms and /openapi.json). */

/** The largest product id there can be (a PostgreSQL integer): past it, no product, and a 400. */
const LARGEST_ID = 2_147_483_647;

/** A variant's id: a line of the cart, or the variant an add asks for. */
const variantIdField = () =>
  z
    .number("variantId must be one of the product's variants.")
    .int("variantId must be one of the product's variants.")
    .positive("variantId must be one of the product's variants.")
    .max(LARGEST_ID, "variantId must be one of the product's variants.")
    .describe("The variant: required when the product has more than one on sale.");

export const addLineSchema = z.object({
  productId: z
    .number("productId must be a product's id.")
    .int("productId must be a product's id.")
    .positive("productId must be a product's id.")
    .max(LARGEST_ID, "productId must be a product's id."),
  variantId: variantIdField().optional(),
  quantity: z
    .number("Quantity must be a whole number.")
    .int("Quantity must be a whole number.")
    .min(1, "Quantity must be at least 1.")
    .max(MOST_IN_ONE_LINE, `Quantity must be at most ${MOST_IN_ONE_LINE}.`)
    .default(1),
});

export const setQuantitySchema = z.object({
  quantity: z
    .number("Quantity must be a whole number.")
    .int("Quantity must be a whole number.")
    .min(0, "Quantity must be 0 (to remove the line) or more.")
    .max(MOST_IN_ONE_LINE, `Quantity must be at most ${MOST_IN_ONE_LINE}.`),
});

/** A line's id in the API's paths: its variant's id (a cart holds each variant once). */
export const lineIdSchema = z.coerce.number().int().positive().max(LARGEST_ID);

const money = amountSchema;

export const cartAnswerSchema = z.object({
  lines: z.array(
    z.object({
      id: z.number().int().describe("The line's id in /api/cart/lines/{lineId}: its variant's id."),
      productId: z.number().int(),
      variantId: z.number().int(),
      name: z.answerString(),
      sku: z.answerString().describe("The variant's SKU."),
      options: z
        .record(z.string(), z.answerString())
        .describe(
          'Its option values by option name (`{ "Size": "M" }`); `{}` for a product without options.',
        ),
      image: z.answerString(),
      unitPrice: money().describe("Today's price of one (what checkout charges)."),
      quantity: z.number().int().min(1).max(MOST_IN_ONE_LINE),
      lineTotal: money(),
      stock: z.number().int().min(0).describe("Units on hand now."),
      priceChanged: z.boolean().describe("The price changed since the line was added."),
    }),
  ),
  itemCount: z.number().int().min(0),
  subtotal: money(),
  currency: currencySchema,
  repricedFrom: currencySchema
    .nullable()
    .describe(
      "The currency the cart was priced in before the shop changed its own (said once); otherwise null.",
    ),
});

export type CartAnswer = z.infer<typeof cartAnswerSchema>;

/** The product and variant a cart form is about (its hidden fields). */
const productIdField = addLineSchema.shape.productId;
const variantIdFormField = variantIdField();

/**
 * The cart's forms on the shop's pages (Add to cart on a card or a product
 * page; a line's quantity and Remove on /cart), all posted to /cart. `stay`
 * is sent by the page once its JavaScript runs: the answer is then the
 * outcome, not a redirect to the cart.
 */
export const cartFormSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("add"),
      productId: productIdField,
      variantId: variantIdFormField.optional(),
      quantity: addLineSchema.shape.quantity,
      stay: z.literal("1").optional(),
    }),
    z.object({
      intent: z.literal("set"),
      productId: productIdField,
      variantId: variantIdFormField,
      quantity: setQuantitySchema.shape.quantity,
      stay: z.literal("1").optional(),
    }),
    z.object({
      intent: z.literal("remove"),
      productId: productIdField,
      variantId: variantIdFormField,
      stay: z.literal("1").optional(),
    }),
  ],
  { error: "intent must be add, set or remove." },
);

export type CartForm = z.infer<typeof cartFormSchema>;

/** What a cart form sent with JavaScript is answered: its line's outcome, or the error shown on that line. */
export type CartFormAnswer =
  | { ok: true; productId: number; variantId: number; notice?: string }
  | { ok: false; productId: number | null; variantId: number | null; error: string };

/** A line of the cart as its page shows it: today's price and stock beside what the shopper asked. */
export interface CartLine {
  productId: number;
  /** The line's id: a cart holds each variant once. */
  variantId: number;
  name: string;
  sku: string;
  /** Its option values by option name; `{}` for a product without options. */
  options: Record<string, string>;
  image: string;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
  /** On hand now. */
  stock: number;
  /** The unit price changed since the line was added (it is charged at the new one). */
  priceChanged: boolean;
}
