import { type CurrencyCode, isCurrencyCode, isKnownLocale } from "~/commerce/money";
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
 * The currency a settings form chose (its `currency` field's value), when it
 * names one: its amounts are read in it, in the browser and on the server (an
 * owner switching to yen types shipping in yen). Otherwise the shop's own,
 * and the currency field says what is wrong.
 */
export function chosenCurrency(chosen: unknown, shops: CurrencyCode): CurrencyCode {
  return typeof chosen === "string" && isCurrencyCode(chosen.trim()) ? chosen.trim() : shops;
}

/**
 * The settings form (/admin/settings), its amounts in `currency` (the one it
 * chose: chosenCurrency), checked with this schema in the browser and on the server.
 */
export const shopSettingsSchema = (currency: CurrencyCode) =>
  z.object({
    currency: z
      .string({ error: "Choose the currency the shop sells in.", label: "Currency" })
      .trim()
      .refine(isCurrencyCode, "Choose the currency the shop sells in."),
    locale: z
      .string({ error: "Enter how amounts are written, like en-US or de-DE.", label: "Locale" })
      .trim()
      .max(35, "Enter how amounts are written, like en-US or de-DE.")
      .refine(isKnownLocale, "Enter how amounts are written, like en-US or de-DE."),
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
