import { useEffect, useId } from "react";
import { Link, useFetcher } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { useHydrated } from "~/utils/hydrated";
import { notify } from "~/utils/toast";
import { MOST_IN_ONE_LINE } from "../cart-limits";
import { CART_ACTION } from "../cart-revalidation";
import type { CartFormAnswer } from "../cart-schema";
import { QuantityOptions } from "./quantity-options";

interface AddToCartProps {
  productId: number;
  /** The variant chosen on the product page; none adds the product's only one. */
  variantId?: number | undefined;
  productName: string;
  /** On hand as the page was read (the server decides on its own count). */
  stock: number;
  /** The product page's buy box offers a quantity; a card adds one. */
  withQuantity?: boolean;
  /** The button's width: a card's fills it. */
  className?: string;
  /**
   * A card of a product sold in several variants: which one is for the product page to ask, so
   * the card links there ("Choose options") instead of adding.
   */
  chooseAt?: string | undefined;
}

/**
 * Add to cart, posted to /cart. Without JavaScript the browser follows the
 * answer to the cart; with it the page stays, the navbar's count rises at
 * once, and a toast says what the server did ("Only 2 left: your cart has 2.").
 * A sold-out product offers no button, only the words.
 */
export function AddToCart({
  productId,
  variantId,
  productName,
  stock,
  withQuantity = false,
  className = "",
  chooseAt,
}: AddToCartProps) {
  const fetcher = useFetcher<CartFormAnswer>({ key: `add-to-cart-${productId}` });
  const hydrated = useHydrated();
  const quantityId = useId();
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;

  useEffect(() => {
    if (!answer) return;
    if (answer.ok) notify({ kind: "success", message: answer.notice ?? `${productName} is in your cart.` });
    else notify({ kind: "error", message: answer.error });
  }, [answer, productName]);

  // Sold out: the stock's own words say so beside it; the buy box adds why there is no button.
  if (stock <= 0) {
    return withQuantity ? (
      <p className={`text-sm text-slate-700 ${className}`}>
        It cannot be added to a cart until it is back in stock.
      </p>
    ) : null;
  }
  if (chooseAt !== undefined) {
    return (
      <Link
        to={chooseAt}
        // As Add to cart's: the words shown first, then which product.
        aria-label={`Choose options: ${productName}`}
        className={buttonClasses("secondary", "sm", `w-full ${className}`)}
      >
        Choose options
      </Link>
    );
  }
  const most = Math.min(stock, MOST_IN_ONE_LINE);
  return (
    <fetcher.Form
      method="post"
      action={CART_ACTION}
      // A second press while the first is on its way adds nothing more.
      onSubmit={(event) => fetcher.state !== "idle" && event.preventDefault()}
      className={`flex items-end gap-3 ${className}`}
    >
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={productId} />
      {variantId === undefined ? null : <input type="hidden" name="variantId" value={variantId} />}
      {hydrated ? <input type="hidden" name="stay" value="1" /> : null}
      {withQuantity ? (
        <div>
          <label htmlFor={quantityId} className="block text-sm font-semibold text-slate-800">
            Quantity
          </label>
          <select
            id={quantityId}
            name="quantity"
            defaultValue="1"
            className="mt-1.5 block h-11 rounded-lg border border-slate-500 bg-white px-3 text-base text-slate-900 focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30 focus:outline-none"
          >
            <QuantityOptions most={most} />
          </select>
        </div>
      ) : (
        <input type="hidden" name="quantity" value="1" />
      )}
      <button
        type="submit"
        aria-disabled={fetcher.state !== "idle" || undefined}
        // Every card has one: the name says which product (and starts with the words shown).
        aria-label={`${fetcher.state === "idle" ? "Add to cart" : "Adding…"}: ${productName}`}
        className={buttonClasses("primary", withQuantity ? "md" : "sm", "grow")}
      >
        {fetcher.state === "idle" ? "Add to cart" : "Adding…"}
      </button>
    </fetcher.Form>
  );
}
