import { PRICE_MOST_CENTS, SKU_MAX_LENGTH, STOCK_MOST } from "~/commerce/catalog-limits";
import type { CurrencyCode } from "~/commerce/money";
import { amountField } from "~/utils/money-field";
import { z } from "~/utils/zod";
import { PICTURE_MAX_BYTES, pictureFile } from "./product-form-schema";

/**
 * The back office's options and variants form (`/admin/products/<id>/variants`):
 * up to three options, each a name and its values typed in order ("S, M, L";
 * a colour's swatch after it: "Red #b91c1c"), and the table of variants, one
 * row each. `intent` says which button sent it: Save, Make every combination,
 * or a bulk action on the selected rows (set their price, add stock).
 * Prices are the shop's currency as typed (money-field.ts).
 */

const units = (label: string) =>
  z
    .number(`${label} must be a whole number of units, such as 12.`)
    .int(`${label} must be a whole number of units, such as 12.`)
    .min(0, `${label} must be 0 or more.`)
    .max(STOCK_MOST, `${label} must be at most ${STOCK_MOST.toLocaleString("en-US")}.`);

const optionRowSchema = z.object({
  name: z.string().trim().max(40, "Option name must be at most 40 characters.").optional(),
  values: z.string().trim().max(4_000, "Values must be at most 4,000 characters.").optional(),
});

const variantRowSchema = (currency: CurrencyCode) =>
  z.object({
    id: z.number().int().positive().max(2_147_483_647).optional(),
    option1: z.string().trim().max(60).optional(),
    option2: z.string().trim().max(60).optional(),
    option3: z.string().trim().max(60).optional(),
    sku: z
      .string({ error: "SKU is required." })
      .trim()
      .min(1, "SKU is required.")
      .max(SKU_MAX_LENGTH, `SKU must be at most ${SKU_MAX_LENGTH} characters.`),
    price: amountField("Price", currency, { most: PRICE_MOST_CENTS }),
    compareAt: amountField("Compare-at price", currency, { most: PRICE_MOST_CENTS }).optional(),
    stock: units("Stock"),
    /** The stock the page showed: it is set only if still that (a sale meanwhile is not undone). */
    stockShown: units("The stock shown").optional(),
    weight: z
      .number("Weight must be whole grams.")
      .int("Weight must be whole grams.")
      .min(0)
      .max(1_000_000_000)
      .optional(),
    /** A new picture of its own; none keeps the one it has. */
    picture: pictureFile("Picture must be a picture file.").optional(),
    /** Ticked: it shows the product's picture again. */
    removePicture: z.literal("on").optional(),
    selected: z.literal("on").optional(),
  });

const VARIANT_INTENTS = ["save", "combine", "set-price", "add-stock"] as const;

export const variantsFormSchema = (currency: CurrencyCode) =>
  z
    .object({
      intent: z.enum(VARIANT_INTENTS, { error: "intent must be save, combine, set-price or add-stock." }),
      options: z.array(optionRowSchema).max(3).default([]),
      variants: z
        .array(variantRowSchema(currency))
        .max(100, "A product has at most 100 variants.")
        .default([]),
      bulkPrice: amountField("New price", currency, { most: PRICE_MOST_CENTS }).optional(),
      bulkStock: units("Units to add").min(1, "Units to add must be 1 or more.").optional(),
    })
    .superRefine((form, context) => {
      // The page's body holds one picture's size: together, the pictures of one save.
      const pictures = form.variants.reduce((bytes, row) => bytes + (row.picture?.size ?? 0), 0);
      if (pictures > PICTURE_MAX_BYTES) {
        context.addIssue({
          code: "custom",
          path: ["variants"],
          message: `The pictures of one save must be at most ${PICTURE_MAX_BYTES / 1024 / 1024} MB together: send fewer at a time.`,
        });
      }
      for (const [at, option] of form.options.entries()) {
        if (parsedValues(option.values).length > 100) {
          context.addIssue({
            code: "custom",
            path: ["options", at, "values"],
            message: "An option has at most 100 values.",
          });
        }
      }
      const selected = form.variants.some((row) => row.selected);
      if ((form.intent === "set-price" || form.intent === "add-stock") && !selected) {
        context.addIssue({
          code: "custom",
          path: ["variants"],
          message: "Select the variants to change first.",
        });
      }
      if (form.intent === "set-price" && form.bulkPrice === undefined) {
        context.addIssue({ code: "custom", path: ["bulkPrice"], message: "Enter the new price." });
      }
      if (form.intent === "add-stock" && form.bulkStock === undefined) {
        context.addIssue({ code: "custom", path: ["bulkStock"], message: "Enter the units to add." });
      }
    });

export type VariantsForm = z.output<ReturnType<typeof variantsFormSchema>>;

/** An option's values as typed, in order: "S, M, L"; a swatch after a value: "Red #b91c1c". */
export function parsedValues(typed: string | undefined): { value: string; swatch?: string }[] {
  return (typed ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const swatch = /^(.*\S)\s+(#[0-9a-fA-F]{6})$/.exec(part);
      return swatch
        ? { value: swatch[1] as string, swatch: (swatch[2] as string).toLowerCase() }
        : { value: part };
    });
}

/** Values as the form's field shows them again: "Red #b91c1c, Blue". */
export function valuesText(values: readonly { value: string; swatch?: string | undefined }[]): string {
  return values.map(({ value, swatch }) => (swatch ? `${value} ${swatch}` : value)).join(", ");
}
