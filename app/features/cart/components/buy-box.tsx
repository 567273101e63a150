import type { ReactNode } from "react";
import { AddToCart } from "./add-to-cart";

interface BuyBoxProps {
  productId: number;
  /** The variant chosen on the page; none adds the product's only one. */
  variantId?: number | undefined;
  productName: string;
  stock: number;
  /** The stock in words ("Only 2 left"), as the catalogue says it on its cards. */
  stockState: ReactNode;
  /** The lines on shipping and returns, from the shop's settings. */
  notes: string[];
  /** The values chosen are no variant the shop makes: no button (the stock's words say why). */
  unavailable?: boolean;
}

/** The product page's buy box: stock, quantity, Add to cart, and what shipping and returns cost. */
export function BuyBox({
  productId,
  variantId,
  productName,
  stock,
  stockState,
  notes,
  unavailable = false,
}: BuyBoxProps) {
  return (
    <section aria-label="Buy" className="space-y-4 rounded-xl border border-slate-300 bg-white p-5">
      {/* Polite: a variant chosen is heard as its stock. */}
      <div aria-live="polite">{stockState}</div>
      {unavailable ? null : (
        <AddToCart
          productId={productId}
          variantId={variantId}
          productName={productName}
          stock={stock}
          withQuantity
        />
      )}
      <ul className="space-y-1 text-sm text-slate-700">
        {notes.map((note) => (
          <li key={note}>{note}</li>
        ))}
      </ul>
    </section>
  );
}
