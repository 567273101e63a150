import { decimalText, minorOfDecimalText, money } from "~/commerce/money";
import { z } from "./zod";

/**
 * An amount typed in dollars ("4.99", "50", "1,250.00") as whole cents, read as
 * text (never through a float): the back office's price and shipping fields.
 * `most` is in cents.
 */
export function dollarsField(label: string, { most = 99_999_999 }: { most?: number } = {}) {
  return z
    .string({ error: `Enter the ${label.toLowerCase()} in dollars, like 4.99.`, label })
    .trim()
    .transform((typed) => typed.replace(/^\$/, "").replaceAll(",", ""))
    .pipe(
      z
        .string()
        .regex(/^\d{1,8}(\.\d{1,2})?$/, `Enter the ${label.toLowerCase()} in dollars, like 4.99.`)
        // Matched above: two decimals at most, so it always reads.
        .transform((amount) => minorOfDecimalText(amount, "USD") as number),
    )
    .refine((cents) => cents <= most, `The ${label.toLowerCase()} can be at most ${dollarsText(most)}.`);
}

/** Cents as a form field shows them: "4.99" (no currency sign, no thousands separator). */
export function dollarsText(cents: number): string {
  return decimalText(money(cents, "USD"));
}
