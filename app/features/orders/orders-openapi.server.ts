import type { ApiPart } from "~/utils/openapi";
import { errorResponse, jsonResponse, jsonSchemaOf } from "~/utils/openapi.server";
import { checkoutSchema, orderAnswerSchema } from "./checkout-schema";

/** Checkout in the shop's OpenAPI description (/openapi.json). */
export const ordersApi: ApiPart = {
  paths: {
    "/api/checkout": {
      post: {
        operationId: "checkout",
        tags: ["Checkout"],
        summary: "Place the cart as an order",
        description:
          "Places the visitor's cart (the guest cart cookie, or the signed-in account's) as one order, in one transaction: every price and stock level is read again, the stock taken, and the cart emptied; if any line is short, nothing is taken. Send an `Idempotency-Key` header (a random value made once per checkout, 8–200 characters): the same key again answers the same order, however many times and however at once it is sent. Prices include tax; Standard shipping is $4.99, free from $50; Express $14.99.",
        security: [{ cart: [] }, { session: [] }],
        parameters: [
          {
            name: "Idempotency-Key",
            in: "header",
            required: true,
            description: "Made once per checkout by the client (a UUID): a retry sends the same.",
            schema: { type: "string", pattern: "^[\\w.:-]{8,200}$" },
          },
        ],
        requestBody: {
          required: true,
          content: { "application/json": { schema: jsonSchemaOf(checkoutSchema, "input") } },
        },
        responses: {
          "201": jsonResponse("The order, placed now.", orderAnswerSchema),
          "200": jsonResponse("The order this key placed before.", orderAnswerSchema),
          "400": errorResponse(
            "The Idempotency-Key or a field is not valid: `field` names it (`shippingAddress.postalCode`, …).",
          ),
          "409": errorResponse(
            "The cart is empty (`cart_empty`), or some lines are short (`stock_short`, with `lines`: each product, how many were asked and how many are left); nothing was taken.",
          ),
          "422": errorResponse("The Idempotency-Key was used for another checkout."),
        },
      },
    },
  },
};
