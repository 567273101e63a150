import { SKU_MAX_LENGTH } from "~/commerce/catalog-limits";
import { z } from "~/utils/zod";

/**
 * One product as a catalogue file gives it (`npm run catalog:import`, and
 * what `catalog:export` writes): its columns, each value as the file has it
 * (text from CSV, text or numbers from JSON). An empty optional value means
 * "not given": a new product gets the default, an existing one keeps its own.
 */
const fileText = (column: string, max: number, { lines = false } = {}) =>
  z
    .string({ error: `${column} must be text.`, label: column, multiline: lines })
    .trim()
    .max(max, `${column} must be at most ${max} characters.`);
const requiredFileText = (column: string, max: number) =>
  z.preprocess(
    // A JSON file may give a number where text is meant (a numeric sku): it is read as written.
    (value) => (typeof value === "number" ? String(value) : (value ?? "")),
    fileText(column, max).min(1, `${column} is required (1 to ${max} characters).`),
  );
/** A value a file may leave empty: "" and null are "not given". */
const optionalFileValue = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" || value === null ? undefined : value), schema.optional());
/** A decimal from CSV text or a JSON number, checked as written. */
const decimal = (column: string, pattern: RegExp, allowed: string) =>
  z.preprocess(
    (value) => (typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : value),
    z
      .string({ error: `${column} must be ${allowed}.`, label: column })
      .regex(pattern, `${column} must be ${allowed}.`)
      .transform(Number),
  );

const CATALOG_FILE_LIMITS = { sku: SKU_MAX_LENGTH, name: 200, description: 10_000, facet: 100, image: 2_000 };

/** An option's name (on a product's first row) and a variant's value of it (on every row of a product with options). */
const optionName = (column: string) =>
  optionalFileValue(fileText(column, 40)).refine((name) => !name?.includes(":"), {
    error: `${column} cannot hold a colon (:): the shop's filter writes a choice as name:value.`,
  });
const optionValue = (column: string) => optionalFileValue(fileText(column, 60));

/**
 * A row's variant (docs/decisions/0045): a product sold in options has a row
 * per variant, all with its sku, the first also with the product's columns
 * and its options' names; a product without options is one row, as ever.
 * Empty means "not given": a variant the shop has keeps its own.
 */
const variantColumns = {
  option1_name: optionName("option1_name"),
  option1_value: optionValue("option1_value"),
  option2_name: optionName("option2_name"),
  option2_value: optionValue("option2_value"),
  option3_name: optionName("option3_name"),
  option3_value: optionValue("option3_value"),
  variant_sku: optionalFileValue(fileText("variant_sku", SKU_MAX_LENGTH)).describe(
    "The variant's own SKU, unique in the shop: required for a product with options; a product without options is sold under its sku.",
  ),
  compare_at_price: optionalFileValue(
    decimal(
      "compare_at_price",
      /^\d{1,8}(\.\d{1,2})?$/,
      "an amount above the price, such as 24.99 (at most two decimals)",
    ),
  ),
  weight_grams: optionalFileValue(
    decimal("weight_grams", /^\d{1,9}$/, "a whole number of grams, 0 or more, such as 450"),
  ),
  variant_image: optionalFileValue(fileText("variant_image", CATALOG_FILE_LIMITS.image)).describe(
    "The variant's own picture, as `image` is given; empty shows the product's.",
  ),
};

/** A product's row without variant columns: most rows of most files, read by this narrower schema. */
export const productRowSchema = z.object({
  sku: requiredFileText("sku", CATALOG_FILE_LIMITS.sku).describe(
    "The product's own key (a SKU, a handle): importing a row with a known sku updates that product.",
  ),
  name: requiredFileText("name", CATALOG_FILE_LIMITS.name),
  description: optionalFileValue(fileText("description", CATALOG_FILE_LIMITS.description, { lines: true })),
  price: z.preprocess(
    (value) => value ?? "",
    decimal(
      "price",
      /^\d{1,8}(\.\d{1,2})?$/,
      "an amount such as 19.99 (0 to 99999999.99, at most two decimals)",
    ),
  ),
  stock: optionalFileValue(
    decimal("stock", /^\d{1,9}$/, "a whole number of units, 0 or more, such as 12").describe(
      "Units on hand. Empty or absent: an existing product keeps its stock, a new one has 0.",
    ),
  ),
  rating: optionalFileValue(
    decimal(
      "rating",
      /^([0-4](\.\d)?|5(\.0)?)$/,
      "a number from 0 to 5 with at most one decimal, such as 4.5",
    ),
  ),
  brand: requiredFileText("brand", CATALOG_FILE_LIMITS.facet),
  brand_label: optionalFileValue(fileText("brand_label", CATALOG_FILE_LIMITS.facet)),
  category: requiredFileText("category", CATALOG_FILE_LIMITS.facet),
  category_label: optionalFileValue(fileText("category_label", CATALOG_FILE_LIMITS.facet)),
  created: optionalFileValue(
    z.preprocess(
      (value) => (typeof value === "string" ? value.trim() : value),
      z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
        error: "created must be a date such as 2026-03-01 or 2026-03-01T09:30:00Z.",
      }),
    ),
  ).transform((value) => (value === undefined ? undefined : new Date(value))),
  image: optionalFileValue(fileText("image", CATALOG_FILE_LIMITS.image)).describe(
    "A picture file (relative to the file's folder or --images), an http(s) URL, or a picture already on this shop (/pictures/…, /images/…).",
  ),
});

export const catalogFileRowSchema = productRowSchema.extend(variantColumns);

/** The columns that are a variant's (or name the options): a row that leaves them all empty is a product's alone. */
export const VARIANT_COLUMNS = Object.keys(variantColumns) as (keyof typeof variantColumns)[];

export type CatalogFileRow = z.output<typeof catalogFileRowSchema>;
/** The columns of a catalogue file, in the order export writes them. */
export const CATALOG_FILE_COLUMNS = Object.keys(catalogFileRowSchema.shape) as (keyof CatalogFileRow)[];

/** The columns that are the product's, given on its first row; a variant's further rows leave them empty or repeat them. */
export const PRODUCT_COLUMNS = [
  "name",
  "description",
  "rating",
  "brand",
  "brand_label",
  "category",
  "category_label",
  "created",
  "image",
  "option1_name",
  "option2_name",
  "option3_name",
] as const satisfies readonly (keyof CatalogFileRow)[];

/** A variant's further row: its sku, and its variant's columns. */
export const variantRowSchema = catalogFileRowSchema.pick({
  sku: true,
  price: true,
  stock: true,
  option1_value: true,
  option2_value: true,
  option3_value: true,
  variant_sku: true,
  compare_at_price: true,
  weight_grams: true,
  variant_image: true,
});

export type VariantFileRow = z.output<typeof variantRowSchema>;
