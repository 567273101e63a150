import type { CurrencyCode } from "~/commerce/money";
import { amountField } from "~/utils/money-field";
import { z } from "~/utils/zod";

/**
 * A number of units, digits only: a number field's " 5 " or "0x5" is not what an owner means.
 * `most` is written with its thousands separated, as the message says it.
 */
function unitsField(label: string, most: number) {
  return z
    .string({ error: "Enter a whole number of units, like 5.", label })
    .trim()
    .regex(/^\d{1,6}$/, "Enter a whole number of units, like 5.")
    .transform(Number)
    .refine((units) => units <= most, `Enter at most ${most.toLocaleString("en-US")} units.`);
}

/**
 * The settings form (/admin/settings) of a shop selling in `currency`,
 * checked with this schema in the browser and on the server.
 */
export const shopSettingsSchema = (currency: CurrencyCode) =>
  z.object({
    standardShipping: amountField("Standard shipping", currency, { most: 100_000 }),
    freeShippingFrom: amountField("Free shipping threshold", currency, { most: 99_999_999 }),
    expressShipping: amountField("Express shipping", currency, { most: 100_000 }),
    bankDetails: z
      .string({
        error: "Enter the bank details shoppers pay a transfer to.",
        label: "Bank details",
        multiline: true,
      })
      .trim()
      .max(500, "Bank details have at most 500 characters.")
      .transform((text) =>
        text
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter(Boolean),
      )
      .pipe(
        z
          // Lines of the text above: tabs in them stay.
          .array(z.string({ label: "Bank details", multiline: true }))
          .min(1, "Enter the bank details shoppers pay a transfer to.")
          .max(10, "Bank details have at most 10 lines."),
      ),
    lowStockAt: unitsField("Low stock", 100_000),
    // A line above a thousand would have shoppers read "Only 4,000 left": not a few.
    fewLeftAt: unitsField("Few left", 1_000),
  });
