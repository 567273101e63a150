import { type CurrencyCode, decimalText, minorDigitsOf, minorOfDecimalText, money } from "~/commerce/money";
import { z } from "./zod";

/** "4.99" in a two-decimal currency, "499" in yen, "4.990" in dinars: what a field's hint and message show. */
export function amountExample(currency: CurrencyCode): string {
  return decimalText(money(499 * 10 ** Math.max(0, minorDigitsOf(currency) - 2), currency));
}

/**
 * An amount typed in the shop's currency ("4.99", "50", "1,250.00"; "1250" in
 * yen) as whole minor units, read as text (never through a float): the back
 * office's price and shipping fields. A currency sign before or after it and
 * thousands separators (",") are allowed; more decimals than the currency has
 * are refused. `most` is in minor units.
 */
export function amountField(label: string, currency: CurrencyCode, { most }: { most: number }) {
  const digits = minorDigitsOf(currency);
  const asked = `Enter the ${label.toLowerCase()} in ${currency === "USD" ? "dollars" : currency}, like ${amountExample(currency)}.`;
  const pattern = digits === 0 ? /^\d{1,11}$/ : new RegExp(`^\\d{1,11}(\\.\\d{1,${digits}})?$`);
  return z
    .string({ error: asked, label })
    .trim()
    .transform((typed) =>
      // A sign before or after ("$", "€", "¥") and spaces go; words stay, to be refused as words.
      typed.replace(/^[^\p{L}\d.]+|[^\p{L}\d.]+$/gu, "").replaceAll(",", ""),
    )
    .pipe(
      z
        // The form's coercion makes an emptied field undefined: the same words for it.
        .string({ error: asked })
        .regex(pattern, asked)
        // Matched above: at most the currency's decimals, so it always reads.
        .transform((amount) => minorOfDecimalText(amount, currency) as number),
    )
    .refine(
      (minor) => minor <= most,
      `The ${label.toLowerCase()} can be at most ${decimalText(money(most, currency))}.`,
    );
}

/** Minor units as a form field shows them: "4.99" or "499" (no currency sign, no thousands separator). */
export function amountText(minor: number, currency: CurrencyCode): string {
  return decimalText(money(minor, currency));
}
