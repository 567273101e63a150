import { type CatalogFileRow, PRODUCT_COLUMNS, type VariantFileRow } from "../core/catalog-file-schema";
import type { FileProblem } from "./catalog-file.server";

/**
 * A catalogue file's rows gathered into products with their variants
 * (docs/decisions/0045): a product sold in options has a row per variant,
 * each with the product's sku, the first with the product's columns and the
 * options' names; a product without options is one row. What is checked
 * here is what the file alone can say (a value for every option, no
 * combination or SKU twice); the import compares the rest with the shop.
 */

/** The most options and variants a product has (the variant writer's limits). */
const MOST_VARIANTS = 100;
const OPTION_NUMBERS = [1, 2, 3] as const;

export interface FileVariant {
  line: number;
  sku: string;
  /** One per option, in the options' order; none without options. */
  values: string[];
  price: number;
  compareAtPrice?: number;
  stock?: number;
  weightGrams?: number;
  image?: string;
}

/** A product of the file: its first row's columns, its options' names, and its variants. */
export interface FileProduct {
  line: number;
  row: CatalogFileRow;
  /** Its first row as the file gives it: what its further rows may repeat. */
  given: Record<string, unknown>;
  optionNames: string[];
  variants: FileVariant[];
  /** A row of it has a problem: the product is not imported. */
  failed: boolean;
  /** Its first row failed the schema: its options are not known, and nothing more is checked. */
  unread?: true;
  /** One row giving no variant column (most products): nothing of variants to check or carry. */
  alone?: true;
}

const variantOf = (row: VariantFileRow, line: number, optionCount: number): FileVariant => ({
  line,
  sku: row.variant_sku ?? (optionCount === 0 ? row.sku : ""),
  values: [row.option1_value, row.option2_value, row.option3_value]
    .slice(0, Math.max(optionCount, lastGiven(row)))
    .map((value) => value ?? ""),
  price: row.price,
  ...(row.compare_at_price === undefined ? {} : { compareAtPrice: row.compare_at_price }),
  ...(row.stock === undefined ? {} : { stock: row.stock }),
  ...(row.weight_grams === undefined ? {} : { weightGrams: row.weight_grams }),
  ...(row.variant_image === undefined ? {} : { image: row.variant_image }),
});

/** How many option values a row gives, counting to the last one given. */
function lastGiven(row: VariantFileRow): number {
  if (row.option3_value !== undefined) return 3;
  if (row.option2_value !== undefined) return 2;
  return row.option1_value !== undefined ? 1 : 0;
}

/** A product begun from its first row. */
export function startProduct(row: CatalogFileRow, given: Record<string, unknown>, line: number): FileProduct {
  const names = [row.option1_name, row.option2_name, row.option3_name];
  const count = names.findLastIndex((name) => name !== undefined) + 1;
  const optionNames = names.slice(0, count).map((name) => name ?? "");
  return { line, row, given, optionNames, variants: [variantOf(row, line, count)], failed: false };
}

/** A product's sku on a later row when its first names no option: the same product twice. */
export function sameSkuAgain(
  product: FileProduct,
  sku: string,
  line: number,
  columnName: (column: string) => string,
): FileProblem {
  return {
    line,
    column: columnName("sku"),
    message: `sku "${sku}" is already on line ${product.line}; each product's sku must be unique.`,
  };
}

/** A further row of a product with options: a variant, its product columns left empty or as on the first row. */
export function addVariantRow(
  product: FileProduct,
  given: Record<string, unknown>,
  row: VariantFileRow,
  line: number,
  columnName: (column: string) => string,
): FileProblem[] {
  const problems: FileProblem[] = [];
  const text = (value: unknown) => (value === undefined || value === null ? "" : String(value).trim());
  for (const column of PRODUCT_COLUMNS) {
    const value = text(given[column]);
    if (value === "" || value === text(product.given[column])) continue;
    problems.push({
      line,
      column: columnName(column),
      message: `${columnName(column)} is the product's, given on its first row (line ${product.line}): leave it empty on its variants' rows.`,
    });
  }
  if (problems.length === 0) product.variants.push(variantOf(row, line, product.optionNames.length));
  return problems;
}

/** What the file alone says is wrong with a product's options and variants; none when it can be imported. */
export function variantProblems(product: FileProduct, columnName: (column: string) => string): FileProblem[] {
  const { optionNames, variants, line } = product;
  // Most products: one row, no option. Only what such a row can get wrong, without the sets below.
  if (optionNames.length === 0 && variants.length === 1) return oneRowProblems(product, columnName);
  const problems: FileProblem[] = [];
  const problem = (at: number, column: string, message: string) =>
    problems.push({ line: at, column: columnName(column), message });
  const names = new Set<string>();
  for (const [at, name] of optionNames.entries()) {
    const column = `option${at + 1}_name`;
    if (name === "") problem(line, column, `${columnName(column)} is required when a later option is named.`);
    else if (names.has(name.toLowerCase())) problem(line, column, `Two options are called ${name}.`);
    names.add(name.toLowerCase());
  }
  if (variants.length > MOST_VARIANTS) {
    problem(line, "sku", `A product has at most ${MOST_VARIANTS} variants; this one has ${variants.length}.`);
  }
  const combinations = new Map<string, number>();
  for (const variant of variants) {
    for (const number of OPTION_NUMBERS) {
      const column = `option${number}_value`;
      const value = variant.values[number - 1];
      const name = optionNames[number - 1];
      if (name !== undefined && !value) {
        problem(variant.line, column, `${columnName(column)} is required: this variant's ${name}.`);
      } else if (name === undefined && value) {
        problem(
          variant.line,
          column,
          `${columnName(column)} is given, but the product's first row names no such option.`,
        );
      }
    }
    if (optionNames.length > 0 && variant.sku === "") {
      problem(
        variant.line,
        "variant_sku",
        `${columnName("variant_sku")} is required: each variant has its own SKU.`,
      );
    }
    if (optionNames.length === 0 && variant.sku !== product.row.sku) {
      problem(
        variant.line,
        "variant_sku",
        `A product without options is sold under its sku: leave ${columnName("variant_sku")} empty or give ${product.row.sku}.`,
      );
    }
    const combination = variant.values.join(" / ");
    const first = combinations.get(combination);
    if (first !== undefined && optionNames.length > 0) {
      problem(
        variant.line,
        "option1_value",
        `${combination} is already on line ${first}: each variant is one combination.`,
      );
    }
    combinations.set(combination, variant.line);
    if (variant.compareAtPrice !== undefined && variant.compareAtPrice <= variant.price) {
      problem(variant.line, "compare_at_price", `${columnName("compare_at_price")} must be above the price.`);
    }
  }
  return problems;
}

/** A product without options: its one row's variant SKU and "was" price. */
function oneRowProblems(product: FileProduct, columnName: (column: string) => string): FileProblem[] {
  const variant = product.variants[0] as FileVariant;
  const problems: FileProblem[] = [];
  if (variant.sku !== product.row.sku) {
    problems.push({
      line: variant.line,
      column: columnName("variant_sku"),
      message: `A product without options is sold under its sku: leave ${columnName("variant_sku")} empty or give ${product.row.sku}.`,
    });
  }
  if (variant.compareAtPrice !== undefined && variant.compareAtPrice <= variant.price) {
    problems.push({
      line: variant.line,
      column: columnName("compare_at_price"),
      message: `${columnName("compare_at_price")} must be above the price.`,
    });
  }
  return problems;
}

/**
 * A product of one row that gives no variant column: its row alone (already the import's, with
 * its line), nothing kept for further rows.
 */
export function productAlone(row: CatalogFileRow, line: number): FileProduct {
  // Shared empty parts: a file of 200,000 such rows allocates one object for each, no more.
  return {
    line,
    row,
    given: NOTHING_GIVEN,
    optionNames: NO_NAMES,
    variants: NO_VARIANTS,
    failed: false,
    alone: true,
  };
}

const NOTHING_GIVEN: Record<string, unknown> = Object.freeze({});
const NO_NAMES: string[] = Object.freeze([]) as unknown as string[];
const NO_VARIANTS: FileVariant[] = Object.freeze([]) as unknown as FileVariant[];

/**
 * SKUs the file gives two variants (of one product or of two), each later one named on its line.
 * A product without options is sold under its sku, which is its one variant's: a variant of
 * another product may not have it. Products' own skus are already once each (`products`, by sku),
 * so only the variants of products in options are walked.
 */
export function repeatedVariantSkus(
  products: ReadonlyMap<string, FileProduct>,
  columnName: (column: string) => string,
): { problems: FileProblem[]; products: Set<FileProduct> } {
  const firstLine = new Map<string, number>();
  const problems: FileProblem[] = [];
  const failed = new Set<FileProduct>();
  for (const product of products.values()) {
    if (product.optionNames.length === 0) continue;
    for (const variant of product.variants) {
      if (variant.sku === "") continue;
      const alone = products.get(variant.sku);
      const first =
        firstLine.get(variant.sku) ??
        (alone && alone !== product && alone.optionNames.length === 0 ? alone.line : undefined);
      if (first === undefined) {
        firstLine.set(variant.sku, variant.line);
        continue;
      }
      failed.add(product);
      problems.push({
        line: variant.line,
        column: columnName("variant_sku"),
        message: `SKU ${variant.sku} is already on line ${first}: each SKU names one variant.`,
      });
    }
  }
  return { problems, products: failed };
}

/** The options' values in the order the variants first give them. */
export function optionValuesOf(product: FileProduct): { name: string; values: string[] }[] {
  return product.optionNames.map((name, at) => ({
    name,
    values: [...new Set(product.variants.map((variant) => variant.values[at] ?? ""))],
  }));
}
