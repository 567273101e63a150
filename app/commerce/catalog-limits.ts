/**
 * The dearest price and the most units on hand a product may have, in a
 * catalogue file, the back office's form and every answer alike: numeric(10,2)'s
 * largest amount (64-bit cents everywhere money is summed) and nine digits of
 * units (PostgreSQL's integer, comfortably). The catalogue file's patterns
 * (catalog/core/catalog-schema.ts) spell the same limits as digits.
 */
export const PRICE_MOST_CENTS = 9_999_999_999;
export const STOCK_MOST = 999_999_999;

/** A product's SKU, in a catalogue file and in the back office's form alike: 1 to this many characters. */
export const SKU_MAX_LENGTH = 100;
