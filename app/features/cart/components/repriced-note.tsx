import type { CurrencyCode } from "~/commerce/money";

const CURRENCY_NAMES = new Intl.DisplayNames(["en"], { type: "currency" });

/**
 * Said once, on the first page that reads a cart after the shop changed its
 * currency: the lines were added at prices in another one, and what the cart
 * shows now is today's prices in the shop's.
 */
export function RepricedNote({ from, to }: { from: CurrencyCode | null; to: CurrencyCode }) {
  if (from === null) return null;
  return (
    <p
      role="status"
      className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-950"
    >
      {`Your cart was priced in ${CURRENCY_NAMES.of(from) ?? from}. The shop now sells in ${CURRENCY_NAMES.of(to) ?? to}: these are today's prices in ${to}.`}
    </p>
  );
}
