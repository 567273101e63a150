import { dollarsField } from "~/utils/money-field";
import { z } from "~/utils/zod";

/** The settings form (/admin/settings), checked with this schema in the browser and on the server. */
export const shopSettingsSchema = z.object({
  standardShipping: dollarsField("Standard shipping", { most: 100_000 }),
  freeShippingFrom: dollarsField("Free shipping threshold"),
  expressShipping: dollarsField("Express shipping", { most: 100_000 }),
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
  // Digits only: a number field's " 5 " or "0x5" is not what an owner means.
  lowStockAt: z
    .string({ error: "Enter a whole number of units, like 5.", label: "Low stock" })
    .trim()
    .regex(/^\d{1,6}$/, "Enter a whole number of units, like 5.")
    .transform(Number)
    .refine((units) => units <= 100_000, "Enter at most 100,000 units."),
});
