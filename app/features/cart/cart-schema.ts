import { z } from "~/utils/zod";

/** The cart's JSON API: what it takes and answers (one schema for the server, the forms and /openapi.json). */

export const addLineSchema = z.object({
  productId: z
    .number()
    .int("productId must be a product's id.")
    .positive("productId must be a product's id."),
  quantity: z
    .number()
    .int("Quantity must be a whole number.")
    .min(1, "Quantity must be at least 1.")
    .max(99, "Quantity must be at most 99.")
    .default(1),
});

export const setQuantitySchema = z.object({
  quantity: z
    .number()
    .int("Quantity must be a whole number.")
    .min(0, "Quantity must be 0 (to remove the line) or more.")
    .max(99, "Quantity must be at most 99."),
});

/** A line's id in the API's paths: the product's id (a cart holds each product once). */
export const lineIdSchema = z.coerce.number().int().positive();

const money = () => z.number().min(0).describe("In dollars, with at most two decimals.");

export const cartAnswerSchema = z.object({
  lines: z.array(
    z.object({
      id: z.number().int().describe("The line's id in /api/cart/lines/{lineId}: its product's id."),
      productId: z.number().int(),
      name: z.string(),
      image: z.string(),
      unitPrice: money().describe("Today's price of one, in dollars (what checkout charges)."),
      quantity: z.number().int().min(1).max(99),
      lineTotal: money(),
      stock: z.number().int().min(0).describe("Units on hand now."),
      priceChanged: z.boolean().describe("The price changed since the line was added."),
    }),
  ),
  itemCount: z.number().int().min(0),
  subtotal: money(),
});

export type CartAnswer = z.infer<typeof cartAnswerSchema>;
