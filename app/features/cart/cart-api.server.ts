import type { Database } from "~/db/client.server";
import { apiError, parsedJsonBody } from "~/utils/http.server";
import { logFailure } from "~/utils/logger.server";
import { dollarsFromCents } from "~/utils/money";
import {
  addToCart,
  type CartOwner,
  GUEST_CART_DAYS,
  mergeGuestCart,
  newGuestToken,
  readCart,
  setLineQuantity,
} from "./cart.server";
import {
  addLineSchema,
  type CartAnswer,
  cartAnswerSchema,
  lineIdSchema,
  setQuantitySchema,
} from "./cart-schema";

/**
 * The cart's JSON API (GET /api/cart, POST /api/cart/lines, PATCH and DELETE
 * /api/cart/lines/{lineId}): the same cookies and Origin rules as the shop's
 * forms. A guest's cart is behind an httpOnly cookie holding a random token;
 * a signed-in shopper's is their account's.
 */

/** The guest's cart cookie: a random token (its hash is what the database keeps). */
export const CART_COOKIE = "backline_cart";
const GUEST_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Who asks: the database, the signed-in user (null for a guest), and whether cookies must be Secure. */
export interface CartVisitor {
  db: Database;
  userId: string | null;
  secureCookies: boolean;
}

function guestTokenOf(request: Request): string | null {
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, value] = pair.trim().split("=");
    if (name === CART_COOKIE && value && GUEST_TOKEN.test(value)) return value;
  }
  return null;
}

function cartCookie(token: string, secure: boolean): string {
  const maxAge = GUEST_CART_DAYS * 24 * 60 * 60;
  return `${CART_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The cookie that empties a browser's guest cart (after logging out, or once merged into an account's). */
export function clearedCartCookie(secure: boolean): string {
  return `${CART_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * On signing in or up: the guest's cart (if the browser has one) joins the
 * account's, and the answer's Set-Cookie clears the guest's. A failure keeps
 * the guest's cart for the next sign-in rather than failing the sign-in.
 */
export async function takeGuestCart(
  request: Request,
  visitor: CartVisitor & { userId: string },
): Promise<string | null> {
  const guestToken = guestTokenOf(request);
  if (!guestToken) return null;
  try {
    await mergeGuestCart(visitor.db, guestToken, visitor.userId);
    return clearedCartCookie(visitor.secureCookies);
  } catch (error) {
    logFailure(error, "the guest's cart could not join the account's; kept for the next sign-in");
    return null;
  }
}

/** The visitor's cart, or null for a guest who has none yet. */
export function ownerOf(request: Request, visitor: CartVisitor): CartOwner | null {
  if (visitor.userId) return { userId: visitor.userId };
  const guestToken = guestTokenOf(request);
  return guestToken ? { guestToken } : null;
}

/** The visitor's cart for a change: a guest without one gets a token, and the cookie is (re)set for 30 days. */
function ownerForChange(request: Request, visitor: CartVisitor): { owner: CartOwner; headers: HeadersInit } {
  if (visitor.userId) return { owner: { userId: visitor.userId }, headers: {} };
  const guestToken = guestTokenOf(request) ?? newGuestToken();
  return { owner: { guestToken }, headers: { "Set-Cookie": cartCookie(guestToken, visitor.secureCookies) } };
}

async function cartJson(db: Database, owner: CartOwner | null): Promise<CartAnswer> {
  const cart = owner ? await readCart(db, owner) : { lines: [], itemCount: 0, subtotalCents: 0 };
  return cartAnswerSchema.parse({
    lines: cart.lines.map((line) => ({
      id: line.productId,
      productId: line.productId,
      name: line.name,
      image: line.image,
      unitPrice: dollarsFromCents(line.unitPriceCents),
      quantity: line.quantity,
      lineTotal: dollarsFromCents(line.lineTotalCents),
      stock: line.stock,
      priceChanged: line.priceChanged,
    })),
    itemCount: cart.itemCount,
    subtotal: dollarsFromCents(cart.subtotalCents),
  });
}

const answer = (body: unknown, headers: HeadersInit = {}, status = 200) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

/** GET /api/cart. */
export async function cartResponse(request: Request, visitor: CartVisitor): Promise<Response> {
  return answer(await cartJson(visitor.db, ownerOf(request, visitor)));
}

/** POST /api/cart/lines `{ productId, quantity }`: adds up to what is on hand, and says when it capped. */
export async function addLineResponse(request: Request, visitor: CartVisitor): Promise<Response> {
  const body = await parsedJsonBody(request, addLineSchema, "{ productId, quantity }");
  if (!body.ok) return body.response;
  const { owner, headers } = ownerForChange(request, visitor);
  const added = await addToCart(visitor.db, owner, body.value.productId, body.value.quantity);
  if (added.outcome === "unknown-product") {
    return apiError(404, {
      code: "unknown_product",
      message: "There is no such product.",
      field: "productId",
    });
  }
  if (added.outcome === "sold-out") {
    return apiError(409, {
      code: "sold_out",
      message: "This product is sold out: 0 left.",
      field: "productId",
    });
  }
  const cart = await cartJson(visitor.db, owner);
  const notice = added.capped ? { notice: `Only ${added.stock} left: your cart has ${added.quantity}.` } : {};
  return answer({ ...cart, ...notice }, headers);
}

/** PATCH /api/cart/lines/{lineId} `{ quantity }` (0 removes), or DELETE it. */
export async function lineResponse(
  request: Request,
  visitor: CartVisitor,
  lineId: string,
): Promise<Response> {
  const productId = lineIdSchema.safeParse(lineId);
  if (!productId.success) {
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
  if (owner) await setLineQuantity(visitor.db, owner, productId.data, quantity);
  return answer(await cartJson(visitor.db, owner));
}
