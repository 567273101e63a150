import type { ApiPart } from "~/utils/openapi";
import { errorResponse, jsonResponse, jsonSchemaOf } from "~/utils/openapi.server";
import { z } from "~/utils/zod";
import { quoteAnswerSchema, quoteRequestSchema } from "./checkout-quote-schema";
import { checkoutConflictSchema, checkoutSchema, orderAnswerSchema } from "./checkout-schema";
import { orderDetailsAnswerSchema } from "./order-schema";

const webhookAnswerSchema = z.object({ received: z.literal(true) });

/** Checkout in the shop's OpenAPI description (/openapi.json). */
export const ordersApi: ApiPart = {
  paths: {
    "/api/orders/{number}": {
      get: {
        operationId: "readOrder",
        tags: ["Orders"],
        summary: "One order",
        description:
          "The order as the checkout answered it, with when it was placed, where it goes, and how to pay it (for a bank transfer, the shop's bank details and the order number as the reference). For the signed-in shopper who placed it, or with the `token` of its link. Anyone else, a wrong token and a number that names no order all get the same 404.",
        security: [{ session: [] }, {}],
        parameters: [
          {
            name: "number",
            in: "path",
            required: true,
            description: 'The order\'s number: "BL-" and five letters or digits.',
            schema: { type: "string" },
          },
          {
            name: "token",
            in: "query",
            required: false,
            description:
              "The token of the order's signed link, as its confirmation email gives it (`/orders/BL-7Q4K9?token=…`); not needed by the signed-in shopper who placed it.",
            schema: { type: "string" },
          },
        ],
        responses: {
          "200": jsonResponse("The order.", orderDetailsAnswerSchema),
          "404": errorResponse("No order with this number that this caller may see (`not_found`)."),
        },
      },
    },
    "/api/checkout": {
      post: {
        operationId: "checkout",
        tags: ["Checkout"],
        summary: "Place the cart as an order",
        description:
          "Places the visitor's cart (the guest cart cookie, or the signed-in account's) as one order, in one transaction: every price and stock level is read again, the stock taken, and the cart emptied; if any line is short, nothing is taken. Send an `Idempotency-Key` header (a random value made once per checkout, 8–200 characters): the same key again answers the same order, however many times and however at once it is sent. Send `expectedTotal`, the total the shopper was shown, and the order is placed only at that total: when a price, the cart or the shipping method makes it another, nothing is placed and the answer is 409 `total_changed` with the order as it would be now, to show the shopper; the same key with the new total then places it (a refused checkout leaves its key unused). The shipping address's `region` (ISO 3166-2, `US-OR`) is required for the countries whose addresses need one (United States, Canada, Australia, Brazil, Mexico, India, Malaysia). Prices include tax; Standard shipping is $4.99, free from $50; Express $14.99. A card order (`paymentMethod: card`, offered where the shop takes cards) is placed `awaiting-payment` with a `paymentUrl`: Stripe's page, where the shopper pays the order's total; it becomes `paid` when Stripe tells the shop, and is cancelled (its stock put back) if not paid within the shop's payment window.",
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
            "The Idempotency-Key or fields are not valid: `fields` names each bad field with its message (`shippingAddress.postalCode`, `shippingAddress.region` for a missing state or one of another country, `expectedTotal`, …), `field` the first.",
          ),
          "409": jsonResponse(
            "Nothing was taken or ordered: the cart is empty (`cart_empty`); some lines are short (`stock_short`, with `lines`: each variant, how many were asked and how many are left); or the order comes to another total than `expectedTotal` (`total_changed`, with its `lines`, `subtotal`, `shipping` and `total` now).",
            checkoutConflictSchema,
          ),
          "422": errorResponse("The Idempotency-Key was used for another checkout."),
          "503": errorResponse(
            "A card order was placed and waits for its payment, but Stripe did not answer (`payment_provider_unavailable`): send the same request with the same key again to get its `paymentUrl`.",
          ),
        },
      },
    },
    "/api/checkout/quote": {
      post: {
        operationId: "checkoutQuote",
        tags: ["Checkout"],
        summary: "What the cart comes to at an address",
        description:
          "The visitor's cart at today's prices, shipped to `shippingAddress` (its country, and its ISO 3166-2 region where the country's addresses have one): the shipping methods the shop offers there for this cart (by its zones: a flat price, bands of subtotal or bands of weight), the one charged (`shippingMethod`, or the first offered), each line's tax at the rate of the address's tax zone (half-up to the minor unit per line; a product's tax class may give it another rate), the taxes per rate, and the total. With `taxIncluded` the taxes are contained in the prices; otherwise they are added. Nothing is written. Counted as a change to the cart against the client's share (429 with Retry-After past it).",
        security: [{ cart: [] }, { session: [] }],
        requestBody: {
          required: true,
          content: { "application/json": { schema: jsonSchemaOf(quoteRequestSchema, "input") } },
        },
        responses: {
          "200": jsonResponse("The quote.", quoteAnswerSchema),
          "400": errorResponse(
            "Fields are not valid: `fields` names each (`shippingAddress.country`, `shippingAddress.region` for a missing state or one of another country, `shippingMethod`), `field` the first.",
          ),
          "409": errorResponse("The cart is empty (`cart_empty`)."),
          "422": errorResponse(
            "The shop does not ship there (`not_shipped_there`, naming `shippingAddress.country`), does not sell there (`not_sold_there`), sends nothing that heavy there (`no_shipping_method`), or `shippingMethod` is not one it offers there (`invalid_shipping_method`).",
          ),
          "429": errorResponse(
            "Too many changes to the cart from this client: try again after Retry-After seconds.",
          ),
        },
      },
    },
    "/api/webhooks/stripe": {
      post: {
        operationId: "stripeWebhook",
        tags: ["Checkout"],
        summary: "Stripe's events about card payments",
        description:
          "Where Stripe sends the events of the shop's Checkout sessions (`checkout.session.completed`, `…async_payment_succeeded`, `…async_payment_failed`, `…expired`). Believed only when the `Stripe-Signature` header verifies for the exact body with the shop's webhook secret; an order becomes paid only from here. Each event changes its order at most once, however often and in whatever order it arrives.",
        security: [{}],
        parameters: [
          {
            name: "Stripe-Signature",
            in: "header",
            required: true,
            description: "Stripe's signature of the body: `t=<unix seconds>,v1=<HMAC-SHA256>`.",
            schema: { type: "string" },
          },
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: { type: "object", description: "A Stripe Event object." } },
          },
        },
        responses: {
          "200": jsonResponse(
            "Received: applied now, applied before, or not one the shop uses.",
            webhookAnswerSchema,
          ),
          "400": errorResponse(
            "No signature (`missing_signature`), one that does not verify or is dated more than 5 minutes from now either way (`bad_signature`), an event of a Checkout session type without its session in `data.object` (`invalid_event`), or a payment whose amount or currency is not its order's (`does_not_match_order`); nothing was changed.",
          ),
          "404": errorResponse("Card payments are not turned on in this shop (`not_found`)."),
        },
      },
    },
  },
};
