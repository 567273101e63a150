/**
 * Cents as the JSON API writes money: dollars with two decimals, as product
 * prices are. For answers only: every sum is made in integer cents before.
 */
export const dollarsFromCents = (cents: number): number => cents / 100;

const MONEY_FORMAT = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Cents as a shopper reads them, "$1,234.50": the shop's prices are US dollars, written one way everywhere. */
export const formatCents = (cents: number): string => MONEY_FORMAT.format(cents / 100);
