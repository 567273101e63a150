/**
 * Cents as the JSON API writes money: dollars with two decimals, as product
 * prices are. For answers only: every sum is made in integer cents before.
 */
export const dollarsFromCents = (cents: number): number => cents / 100;
