import { decimalAmount, money } from "~/commerce/money";
import type { Database } from "~/db/client.server";
import { apiError, parsedJsonBody } from "~/utils/http.server";
import {
  type AddOutcome,
  addToCart,
  type CartOwner,
  emptyCart,
  readCart,
  setLineQuantity,
} from "./cart.server";
import { onlyLeftNotice } from "./cart-limits";
import {
  addLineSchema,
  type CartAnswer,
  cartAnswerSchema,
  lineIdSchema,
  setQuantitySchema,
} from "./cart-schema";
import { type CartVisitor, ownerForChange, ownerOf } from "./cart-visitor.server";

/**
 * The cart's JSON API (GET /api/cart, POST /api/cart/lines, PATCH and DELETE
 * /api/cart/lines/{lineId}): the same cookies and Origin rules as the shop's
 * forms (cart-visitor.server.ts says whose cart a request is about).
 */

async function cartJson(db: Database, owner: CartOwner | { cartId: string } | null): Promise<CartAnswer> {
  const cart = owner ? await readCart(db, owner) : emptyCart();
  const decimal = (minor: number) => decimalAmount(money(minor, cart.currency));
  return cartAnswerSchema.parse({
    lines: cart.lines.map((line) => ({
      id: line.variantId,
      productId: line.productId,
      variantId: line.variantId,
      name: line.name,
      sku: line.sku,
      options: line.options,
      image: line.image,
      unitPrice: decimal(line.unitPriceCents),
      quantity: line.quantity,
      lineTotal: decimal(line.lineTotalCents),
      stock: line.stock,
      priceChanged: line.priceChanged,
    })),
    itemCount: cart.itemCount,
    subtotal: decimal(cart.subtotalCents),
    currency: cart.currency,
    repricedFrom: cart.repricedFrom,
  });
}

const answer = (body: unknown, headers: HeadersInit = {}, status = 200) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

/** GET /api/cart. */
export async function cartResponse(request: Request, visitor: CartVisitor): Promise<Response> {
  return answer(await cartJson(visitor.db, ownerOf(request, visitor)));
}

/**
 * POST /api/cart/lines `{ productId, variantId?, quantity }`: adds up to what
 * is on hand, and says when it capped.
 */
export async function addLineResponse(request: Request, visitor: CartVisitor): Promise<Response> {
  const body = await parsedJsonBody(request, addLineSchema, "{ productId, variantId, quantity }");
  if (!body.ok) return body.response;
  const { owner, headers } = ownerForChange(request, visitor);
  const added = await addToCart(visitor.db, owner, body.value);
  if (added.outcome !== "added") return refusedAdd(added, body.value.variantId !== undefined);
  const cart = await cartJson(visitor.db, { cartId: added.cartId });
  const notice = added.capped ? { notice: onlyLeftNotice(added.stock, added.quantity) } : {};
  return answer({ ...cart, ...notice }, headers);
}

/** Why nothing was added, as the API says it: the field to change, and what is left. */
function refusedAdd(outcome: Exclude<AddOutcome, { outcome: "added" }>, variantAsked: boolean): Response {
  switch (outcome.outcome) {
    case "unknown-product":
      return apiError(404, {
        code: "unknown_product",
        message: "There is no such product.",
        field: "productId",
      });
    case "variant-required":
      return apiError(400, {
        code: "invalid_field",
        message: "variantId is required: this product comes in more than one variant.",
        field: "variantId",
      });
    case "unknown-variant":
      return apiError(400, {
        code: "invalid_field",
        message: "variantId must be one of the product's variants.",
        field: "variantId",
      });
    case "sold-out":
      return apiError(409, {
        code: "sold_out",
        message: variantAsked ? "This variant is sold out: 0 left." : "This product is sold out: 0 left.",
        field: variantAsked ? "variantId" : "productId",
      });
  }
}

/** PATCH /api/cart/lines/{lineId} `{ quantity }` (0 removes), or DELETE it. */
export async function lineResponse(
  request: Request,
  visitor: CartVisitor,
  lineId: string,
): Promise<Response> {
  const variantId = lineIdSchema.safeParse(lineId);
  if (!variantId.success) {
    return apiError(400, {
      code: "invalid_parameter",
      message: "lineId must be a line's id.",
      field: "lineId",
    });
  }
  let quantity = 0;
  if (request.method === "PATCH") {
    const body = await parsedJsonBody(request, setQuantitySchema, "{ quantity }");
    if (!body.ok) return body.response;
    quantity = body.value.quantity;
  }
  const owner = ownerOf(request, visitor);
  if (owner) await setLineQuantity(visitor.db, owner, variantId.data, quantity);
  return answer(await cartJson(visitor.db, owner));
}
