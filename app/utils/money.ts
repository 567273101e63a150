/**
 * Cents as the JSON API writes money: dollars with two decimals, as product
 * prices are. For answers only: every sum is made in integer cents before.
 */
export const dollarsFromCents = (cents: number): number => cents / 100;

const MONEY_FORMAT = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Cents as a shopper reads them, "$1,234.50": the shop's prices are US dollars, written one way everywhere. */
export const formatCents = (cents: number): string => MONEY_FORMAT.format(cents / 100);

/** "4.99" or "50" (dollars, at most two decimals, already checked) as whole cents, read as text: no float. */
export function centsOfDollarsText(amount: string): number {
  const [dollars = "0", cents = ""] = amount.split(".");
  return Number(dollars) * 100 + Number(cents.padEnd(2, "0"));
}
