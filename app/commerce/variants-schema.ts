import { z } from "~/utils/zod";
import { PRICE_MOST_CENTS, SKU_MAX_LENGTH, STOCK_MOST } from "./catalog-limits";

/**
 * A product's options and variants as the owner writes them (the product
 * form's variant table, the catalogue import): one schema for the form's
 * messages and the one module that writes them (docs/decisions/0045).
 * Money here is already whole minor units of the shop's currency.
 */

/** At most three options (Shopify's layout: option1–option3), and 100 variants. */
const MOST_OPTIONS = 3;
const MOST_VARIANTS = 100;
const NAME_MAX = 40;
const VALUE_MAX = 60;

const optionValueSchema = z.object({
  value: z
    .string({ error: "A value is required." })
    .trim()
    .min(1, "A value is required.")
    .max(VALUE_MAX, `A value must be at most ${VALUE_MAX} characters.`),
  swatch: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, "A swatch must be a colour such as #1f6feb.")
    .optional(),
});

const optionSchema = z.object({
  name: z
    .string({ error: "Option name is required." })
    .trim()
    .min(1, "Option name is required.")
    .max(NAME_MAX, `Option name must be at most ${NAME_MAX} characters.`)
    // The shop's filter writes a choice as name:value (`option=Size:M`).
    .refine((name) => !name.includes(":"), "An option name cannot hold a colon (:)."),
  values: z.array(optionValueSchema).min(1, "An option needs at least one value.").max(MOST_VARIANTS),
});

const minorUnits = (label: string) =>
  z
    .number(`${label} must be an amount.`)
    .int(`${label} must be whole minor units.`)
    .min(0, `${label} must be 0 or more.`)
    .max(PRICE_MOST_CENTS, `${label} is too large.`);

const variantSchema = z.object({
  /** An existing variant of this product; none for a new one. */
  id: z.number().int().positive().optional(),
  /** One value per option, in the options' order. */
  values: z.array(z.string().trim()).max(MOST_OPTIONS),
  sku: z
    .string({ error: "SKU is required." })
    .trim()
    .min(1, "SKU is required.")
    .max(SKU_MAX_LENGTH, `SKU must be at most ${SKU_MAX_LENGTH} characters.`),
  priceMinor: minorUnits("Price"),
  compareAtMinor: minorUnits("Compare-at price").nullable().optional(),
  /** Units on hand to set; none leaves them as they are (a new variant starts at 0). */
  onHand: z
    .number("Stock must be a whole number.")
    .int("Stock must be a whole number.")
    .min(0, "Stock must be 0 or more.")
    .max(STOCK_MOST, "Stock is too large.")
    .optional(),
  /**
   * The units on hand the owner's page showed: `onHand` is set only if they are still those (a
   * sale made meanwhile is refused, not undone). None sets `onHand` whatever is there.
   */
  onHandShown: z.number().int().min(0).max(STOCK_MOST).optional(),
  weightGrams: z
    .number()
    .int()
    .min(0, "Weight must be 0 grams or more.")
    .max(1_000_000_000)
    .nullable()
    .optional(),
  /** A site-relative picture of its own; none shows the product's. */
  image: z.string().trim().min(1).max(2_000).nullable().optional(),
});

export type VariantsAsked = z.output<typeof productVariantsSchema>;
export type VariantAsked = VariantsAsked["variants"][number];

/** The options and the variants, checked against each other: every message names where it belongs. */
export const productVariantsSchema = z
  .object({
    options: z.array(optionSchema).max(MOST_OPTIONS, `A product has at most ${MOST_OPTIONS} options.`),
    variants: z
      .array(variantSchema)
      .min(1, "A product needs at least one variant.")
      .max(MOST_VARIANTS, `A product has at most ${MOST_VARIANTS} variants.`),
  })
  .superRefine(({ options, variants }, context) => {
    const issue = (path: (string | number)[], message: string) =>
      context.addIssue({ code: "custom", path, message });
    const names = new Set<string>();
    for (const [at, option] of options.entries()) {
      const name = option.name.toLowerCase();
      if (names.has(name)) issue(["options", at, "name"], `Two options are called ${option.name}.`);
      names.add(name);
      const values = new Set<string>();
      for (const [valueAt, { value }] of option.values.entries()) {
        if (values.has(value))
          issue(["options", at, "values", valueAt, "value"], `${option.name} has ${value} twice.`);
        values.add(value);
      }
    }
    if (options.length === 0 && variants.length > 1) {
      issue(["variants"], "A product without options has exactly one variant.");
    }
    const combinations = new Set<string>();
    const skus = new Set<string>();
    for (const [at, variant] of variants.entries()) {
      if (variant.values.length !== options.length) {
        issue(["variants", at, "values"], `A variant has one value for each option (${options.length}).`);
        continue;
      }
      for (const [position, value] of variant.values.entries()) {
        const option = options[position];
        if (option && !option.values.some((known) => known.value === value)) {
          issue(
            ["variants", at, "values", position],
            `${value || "An empty value"} is not one of ${option.name}'s values.`,
          );
        }
      }
      const combination = JSON.stringify(variant.values);
      if (combinations.has(combination))
        issue(["variants", at, "values"], `${variant.values.join(" / ")} is there twice.`);
      combinations.add(combination);
      if (skus.has(variant.sku))
        issue(["variants", at, "sku"], `SKU ${variant.sku} is used by two variants.`);
      skus.add(variant.sku);
      if (variant.compareAtMinor != null && variant.compareAtMinor <= variant.priceMinor) {
        issue(["variants", at, "compareAtMinor"], "Compare-at price must be above the price.");
      }
    }
  });

/**
 * Every combination of the options' values, in the options' order (S/Red,
 * S/Blue, M/Red, …): the variants "make all" creates at once. One empty
 * combination for a product without options.
 */
export function everyCombination(options: readonly { values: readonly { value: string }[] }[]): string[][] {
  return options.reduce<string[][]>(
    (combinations, option) =>
      combinations.flatMap((combination) => option.values.map(({ value }) => [...combination, value])),
    [[]],
  );
}
