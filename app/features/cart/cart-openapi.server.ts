import type { ApiPart } from "~/utils/openapi";
import { errorResponse, jsonResponse, jsonSchemaOf } from "~/utils/openapi.server";
import { z } from "~/utils/zod";
import { addLineSchema, cartAnswerSchema, setQuantitySchema } from "./cart-schema";
import { CART_COOKIE } from "./cart-visitor.server";

const addAnswerSchema = cartAnswerSchema.extend({
  notice: z
    .answerString()
    .optional()
    .describe('When less was added than asked, because of the stock: "Only 3 left: your cart has 3."'),
});

const lineId = {
  name: "lineId",
  in: "path" as const,
  required: true,
  description: "The line's id, as `lines[].id` gives it (its product's id).",
  schema: { type: "integer", minimum: 1 },
};

const security: Record<string, string[]>[] = [{ cart: [] }, { session: [] }];

/** The cart's calls in the shop's OpenAPI description (/openapi.json). */
export const cartApi: ApiPart = {
  securitySchemes: {
    cart: {
      type: "apiKey",
      in: "cookie",
      name: CART_COOKIE,
      description:
        "A guest's cart: set by the first change to it, httpOnly, kept 30 days. A signed-in shopper's cart is their account's (the session cookie), on every device.",
    },
  },
  paths: {
    "/api/cart": {
      get: {
        operationId: "readCart",
        tags: ["Cart"],
        summary: "The visitor's cart",
        description:
          "Each line at today's price, with the stock on hand and whether the price changed since it was added; the number of items and the subtotal. Without a cart: no lines.",
        security,
        responses: { "200": jsonResponse("The cart.", cartAnswerSchema) },
      },
    },
    "/api/cart/lines": {
      post: {
        operationId: "addToCart",
        tags: ["Cart"],
        summary: "Add a product to the cart",
        description:
          "Adds `quantity` (1–99, default 1) to the product's line, never past the stock on hand nor 99 in all: less than asked is added when that is all there is, and `notice` says so. A guest's first change sets the cart cookie.",
        security,
        requestBody: {
          required: true,
          content: { "application/json": { schema: jsonSchemaOf(addLineSchema, "input") } },
        },
        responses: {
          "200": jsonResponse("The cart after the change.", addAnswerSchema),
          "400": errorResponse(
            "The body is not a JSON object, or fields are not valid: `fields` names each, `field` the first.",
          ),
          "404": errorResponse("There is no such product."),
          "409": errorResponse("The product is sold out: nothing was added."),
        },
      },
    },
    "/api/cart/lines/{lineId}": {
      patch: {
        operationId: "setCartLineQuantity",
        tags: ["Cart"],
        summary: "Set a line's quantity",
        description:
          "Sets the quantity (0–99; 0 removes the line), never past the stock on hand. Sending it again sets the same.",
        security,
        parameters: [lineId],
        requestBody: {
          required: true,
          content: { "application/json": { schema: jsonSchemaOf(setQuantitySchema, "input") } },
        },
        responses: {
          "200": jsonResponse("The cart after the change.", cartAnswerSchema),
          "400": errorResponse("`lineId` or `quantity` is not valid: `field` (and `fields`) names it."),
        },
      },
      delete: {
        operationId: "removeCartLine",
        tags: ["Cart"],
        summary: "Remove a line",
        description: "Removes the line from the cart (a line that is not there is already removed).",
        security,
        parameters: [lineId],
        responses: {
          "200": jsonResponse("The cart after the change.", cartAnswerSchema),
          "400": errorResponse("`lineId` is not a line's id."),
        },
      },
    },
  },
};
