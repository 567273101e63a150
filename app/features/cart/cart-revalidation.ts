import type { ShouldRevalidateFunctionArgs } from "react-router";

/** Where every cart form of the shop is sent (app/routes/cart.tsx). */
export const CART_ACTION = "/cart";

/**
 * For the pages that carry Add to cart (the shop, a product page): a cart
 * form changes the cart, not what the page shows, so only the root's cart
 * count is read again — not the listing or the product with it.
 */
export function revalidateUnlessCartChange({
  formAction,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return formAction === CART_ACTION ? false : defaultShouldRevalidate;
}
