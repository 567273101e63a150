import { Link } from "react-router";
import type { Quote } from "~/commerce/checkout-quote";
import { lineName } from "~/commerce/options-label";
import { useAmountFormat, useShopMoney } from "~/commerce/use-money";
import type { ShortLine } from "../checkout-schema";
import { OrderTotals } from "./order-totals";

const TOTALS = "mt-4 space-y-2 border-t border-slate-200 pt-4 text-sm";

export interface CheckoutLine {
  productId: number;
  variantId: number;
  name: string;
  options: Record<string, string>;
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
}

interface SummaryProps {
  lines: CheckoutLine[];
  /** The order at the address and method chosen; null where the shop has no quote for the address. */
  quote: Quote | null;
}

/**
 * The order as it will be placed: its lines, shipping for the method chosen,
 * its taxes and the total the form carries. Without a quote for the address,
 * the lines and their subtotal only.
 */
export function CheckoutSummary({ lines, quote }: SummaryProps) {
  const subtotal = lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const formatAmount = useAmountFormat();
  const { currency } = useShopMoney();
  return (
    <section
      aria-labelledby="checkout-summary"
      className="h-fit rounded-xl border border-slate-200 bg-white p-5 lg:order-last lg:col-span-2"
    >
      <h2 id="checkout-summary" className="text-lg font-bold text-slate-900">
        Your order
      </h2>
      <ul className="mt-4 divide-y divide-slate-200 text-sm">
        {lines.map((line) => (
          <li key={line.variantId} className="flex justify-between gap-4 py-2">
            <span className="text-slate-800">{`${lineName(line)} × ${line.quantity}`}</span>
            <span className="font-semibold text-slate-900">{formatAmount(line.lineTotalCents)}</span>
          </li>
        ))}
      </ul>
      {/* Polite: the address and method chosen change these, and a screen reader hears the new total. */}
      <div aria-live="polite">
        {quote ? (
          // The order's own totals, as its page will show them once placed.
          <OrderTotals
            order={{
              subtotalCents: quote.subtotal,
              shippingCents: quote.shipping,
              shippingMethod: `Shipping (${quote.shippingMethod.name})`,
              taxes: quote.taxes,
              pricesIncludeTax: quote.taxIncluded,
              totalCents: quote.total,
              currency,
            }}
            className={TOTALS}
            totalClassName="text-base font-bold text-slate-900"
          />
        ) : (
          <dl className={TOTALS}>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-700">Subtotal</dt>
              <dd className="tabular-nums">{formatAmount(subtotal)}</dd>
            </div>
          </dl>
        )}
      </div>
    </section>
  );
}

/** What the checkout found short: each product, what was asked, what is left. */
export function ShortLines({ short, lines }: { short: ShortLine[]; lines: CheckoutLine[] }) {
  if (short.length === 0) return null;
  const nameOf = (variantId: number) => {
    const line = lines.find((shown) => shown.variantId === variantId);
    return line ? lineName(line) : "A product no longer sold";
  };
  return (
    <div className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
      <ul className="list-disc space-y-1 pl-5">
        {short.map((line) => (
          <li key={line.variantId}>
            {`${nameOf(line.variantId)}: you asked for ${line.asked}, ${line.left === 0 ? "none is" : `${line.left} ${line.left === 1 ? "is" : "are"}`} left.`}
          </li>
        ))}
      </ul>
      <Link to="/cart" className="mt-2 inline-block font-semibold text-red-900 underline">
        Change your cart
      </Link>
    </div>
  );
}

/**
 * After a checkout refused because its total changed: what the order comes
 * to now (the page's total, as its summary and button show it) against what
 * the page had shown.
 */
export function TotalChanged({ shownCents, totalCents }: { shownCents: number; totalCents: number }) {
  const formatAmount = useAmountFormat();
  return (
    <p className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      {`Your order now comes to ${formatAmount(totalCents)}; the page you sent showed ${formatAmount(shownCents)}.`}
    </p>
  );
}
