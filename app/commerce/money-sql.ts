import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { type CurrencyCode, minorDigitsOf } from "./money";

/**
 * Whole minor units as the decimal the API writes (`price`: 1250 → 12.50),
 * computed by the database in exact numeric arithmetic and read back from its
 * text: 12.50 parses as the same number JSON has for it.
 */
export function decimalOfMinor(minor: AnyColumn | SQL, currency: CurrencyCode): SQL<number> {
  const digits = minorDigitsOf(currency);
  return sql<number>`round(${minor}::numeric / ${sql.raw(String(10 ** digits))}, ${sql.raw(String(digits))})`.mapWith(
    Number,
  );
}
