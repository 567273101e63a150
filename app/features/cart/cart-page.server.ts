import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { readForm } from "~/utils/form-submission.server";
import { logFailure } from "~/utils/logger.server";
import { type AddOutcome, addToCart, emptyCart, readCart, setLineQuantity } from "./cart.server";
import { onlyLeftNotice } from "./cart-limits";
import { type CartForm, type CartFormAnswer, cartFormSchema } from "./cart-schema";
import { type CartVisitor, ownerForChange, ownerOf } from "./cart-visitor.server";

/**
 * The cart on the shop's pages: /cart's lines, and the forms that change
 * them (Add to cart on a card or a product page, a line's quantity, Remove),
 * all posted to /cart. Without JavaScript each form is a plain POST answered
 * with a redirect to the cart (post/redirect/get); with it, the page sends
 * `stay` and gets the outcome, and stays where it is.
 */

/** /cart's data: the visitor's lines with today's prices and stock, or an empty cart. */
export async function cartPageData(request: Request, visitor: CartVisitor) {
  const owner = ownerOf(request, visitor);
  return owner ? readCart(visitor.db, owner) : emptyCart();
}

const CHANGE_FAILED = "Your cart could not be changed just now. Try again in a moment.";

/** A cart form, applied: its outcome for the page's script, or a redirect to the cart without one. */
export async function cartFormAction(request: Request, visitor: CartVisitor) {
  const submission = parseWithZod(await readForm(request), { schema: cartFormSchema });
  if (submission.status !== "success") {
    const error = Object.values(submission.error ?? {}).flat()[0] ?? "This change could not be read.";
    const { productId, variantId } = submission.payload;
    return answer({ ok: false, productId: idOrNull(productId), variantId: idOrNull(variantId), error }, 400);
  }
  const form = submission.value;
  const { outcome, status, headers } = await applied(request, visitor, form).catch((error: unknown) => {
    // The database away or failing: the change is refused on its line, and the page stays.
    logFailure(error, "a cart change failed");
    const refused: CartFormAnswer = {
      ok: false,
      productId: form.productId,
      variantId: form.variantId ?? null,
      error: CHANGE_FAILED,
    };
    return { outcome: refused, status: 503, headers: { "Retry-After": "5" } as HeadersInit };
  });
  if (!form.stay && outcome.ok) {
    // Without JavaScript: the cart, showing what was added (post/redirect/get).
    throw redirect(form.intent === "add" ? `/cart?added=${outcome.variantId}` : "/cart", {
      status: 303,
      headers,
    });
  }
  return answer(outcome, status, headers);
}

/** A form field that should hold an id, as one, or null. */
function idOrNull(field: unknown): number | null {
  const id = Number(field);
  return typeof field === "string" && Number.isSafeInteger(id) && id > 0 ? id : null;
}

function answer(outcome: CartFormAnswer, status = 200, headers: HeadersInit = {}) {
  return data(outcome, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

async function applied(
  request: Request,
  visitor: CartVisitor,
  form: CartForm,
): Promise<{ outcome: CartFormAnswer; status: number; headers: HeadersInit }> {
  const { productId } = form;
  if (form.intent === "add") {
    const { owner, headers } = ownerForChange(request, visitor);
    const added = await addToCart(visitor.db, owner, form);
    if (added.outcome !== "added") {
      const { error, status } = ADD_REFUSED[added.outcome];
      const variantId = added.outcome === "sold-out" ? added.variantId : (form.variantId ?? null);
      return { outcome: { ok: false, productId, variantId, error }, status, headers };
    }
    const notice = added.capped ? onlyLeftNotice(added.stock, added.quantity) : undefined;
    return { outcome: { ok: true, productId, variantId: added.variantId, notice }, status: 200, headers };
  }
  const { variantId } = form;
  const asked = form.intent === "set" ? form.quantity : 0;
  const owner = ownerOf(request, visitor);
  const now = owner ? await setLineQuantity(visitor.db, owner, variantId, asked) : null;
  // null: no such line any more (removed in another tab), so nothing to say.
  let notice: string | undefined;
  if (now === 0 && asked > 0) notice = "Sold out since you added it: removed from your cart.";
  else if (now !== null && now < asked) notice = onlyLeftNotice(now, now);
  return { outcome: { ok: true, productId, variantId, notice }, status: 200, headers: {} };
}

/** What a shopper is told when Add to cart adds nothing, and the status it is answered with. */
const ADD_REFUSED: Record<Exclude<AddOutcome["outcome"], "added">, { error: string; status: number }> = {
  "unknown-product": { error: "This product is no longer sold.", status: 404 },
  "variant-required": { error: "Choose an option first.", status: 400 },
  "unknown-variant": { error: "That choice is not sold: choose another.", status: 400 },
  "sold-out": { error: "Sold out: it cannot be added.", status: 409 },
};
