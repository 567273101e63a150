import path from "node:path";
import { stringify as writeCsv } from "csv-stringify/sync";
import { type EventLoopTurn, eventLoopTurns } from "~/utils/event-loop-turns.server";
import type { z } from "~/utils/zod";
import {
  CATALOG_FILE_COLUMNS,
  type CatalogFileRow,
  catalogFileRowSchema,
  productRowSchema,
  VARIANT_COLUMNS,
  variantRowSchema,
} from "../core/catalog-file-schema";
import { isPlainText, readRawCatalogFile } from "./catalog-file-readers.server";
import {
  addVariantRow,
  type FileProduct,
  type FileVariant,
  optionValuesOf,
  productAlone,
  repeatedVariantSkus,
  sameSkuAgain,
  startProduct,
  variantProblems,
} from "./catalog-file-variants.server";
import { spreadsheetCell } from "./spreadsheet-cells";

/**
 * Catalogue files, as `npm run catalog:import` reads them and
 * `catalog:export` writes them: CSV with a header row, a JSON array of
 * objects, or NDJSON (one object per line), each with the columns of
 * catalogFileRowSchema; and Shopify's product CSV export, read through a
 * mapping onto those columns. Every row is checked by that one schema and
 * every problem is kept, with its line and column, so an owner sees all of
 * them at once.
 */
const CATALOG_FILE_FORMATS = ["csv", "json", "ndjson"] as const;
export type CatalogFileFormat = (typeof CATALOG_FILE_FORMATS)[number];

const EXTENSIONS: Record<string, CatalogFileFormat> = {
  ".csv": "csv",
  ".json": "json",
  ".ndjson": "ndjson",
  ".jsonl": "ndjson",
};

/** A file's format by its name, or null for a name the import does not know. */
export function catalogFileFormat(file: string): CatalogFileFormat | null {
  return EXTENSIONS[path.extname(file).toLowerCase()] ?? null;
}

/** Something wrong with one value or one line of a file: where, and what is allowed. */
export interface FileProblem {
  line: number;
  /** The column as the file names it ("Variant Price" in a Shopify export); absent for a whole line. */
  column?: string;
  message: string;
}

/**
 * A product whose rows passed the schema, and the line it starts on: its first row's columns,
 * its options (none for most) and its variants (one row each; one for a product without options).
 */
export interface CheckedRow extends CatalogFileRow {
  line: number;
  /** Absent for a product of one row that gives no variant column: it is its one variant. */
  options?: { name: string; values: string[] }[];
  variants?: FileVariant[];
}

export interface CatalogFileReading {
  /** "backline" for the shop's own columns, "shopify" for a Shopify product export. */
  kind: "backline" | "shopify";
  rows: CheckedRow[];
  problems: FileProblem[];
  /** Columns (or JSON keys) the file has and the import does not use. */
  ignoredColumns: string[];
  /** What else an owner should know of how the file was read (rows merged or left out). */
  notes: string[];
  /** Every sku the file names, its invalid rows' too: what `--prune` must keep. */
  skus: Set<string>;
  /** Products the file has, valid or not. */
  productCount: number;
  /**
   * False when the file as a whole could not be read (broken CSV quoting,
   * broken JSON, a header without a required column): then no row may be
   * written, with --skip-invalid or not.
   */
  readable: boolean;
}

/** A row as a file gives it (Shopify's mapped onto the shop's columns), before the schema. */
export interface RawRecord {
  line: number;
  values: Record<string, unknown>;
}

/** A file read into rows, before the schema. */
export interface RawReading {
  kind: CatalogFileReading["kind"];
  records: RawRecord[];
  problems: FileProblem[];
  ignoredColumns: string[];
  notes: string[];
  /** The file's name for one of the schema's columns. */
  columnName(column: string): string;
  /** The skus of lines that could not be read as a row (a wrong number of values). */
  skusOfBrokenLines?: string[];
  /** The file as a whole could not be read. */
  unreadable?: boolean;
}

/**
 * Reads and checks a whole catalogue file, a slice at a time: the event loop
 * gets a turn every few milliseconds of work (`turn`), so a large file never
 * holds the process's other requests.
 */
export async function readCatalogFile(
  text: string,
  format: CatalogFileFormat,
  turn: EventLoopTurn = eventLoopTurns(),
): Promise<CatalogFileReading> {
  const raw = await readRawCatalogFile(text, format, turn);
  const problems = [...raw.problems];
  const skus = new Set<string>(raw.skusOfBrokenLines);
  const products = new Map<string, FileProduct>();
  // A header that lacks a column makes every row wrong the same way: say it once.
  const headerIsWrong = raw.problems.some((problem) => problem.line === 1 && !problem.column);
  // Rows without a readable sku: each its own product, never imported.
  let unnamed = 0;
  const fail = (found: FileProblem[], product?: FileProduct) => {
    if (product && found.length > 0) product.failed = true;
    problems.push(...found);
  };
  for (const { line, values } of headerIsWrong ? [] : raw.records) {
    await turn();
    // A sku that is not text is the schema's to refuse: it is never quoted back.
    const given =
      typeof values.sku === "string" || typeof values.sku === "number" ? String(values.sku).trim() : "";
    const sku = isPlainText(given) ? given : "";
    if (sku !== "") skus.add(sku);
    else unnamed++;
    const product = sku === "" ? undefined : products.get(sku);
    if (product && product.optionNames.length === 0) {
      // The same product twice: this line is wrong, the first stays as it is.
      fail([sameSkuAgain(product, sku, line, raw.columnName)]);
      continue;
    }
    if (product) {
      // A further row of a product with options: one of its variants.
      const checked = variantRowSchema.safeParse(values);
      if (!checked.success) fail(schemaProblems(checked.error, line, raw.columnName), product);
      else fail(addVariantRow(product, values, checked.data, line, raw.columnName), product);
      continue;
    }
    // Most rows give no variant column: the narrower schema reads them faster (a file of 200,000).
    const variantGiven = givesVariant(values);
    const checked = (variantGiven ? catalogFileRowSchema : productRowSchema).safeParse(values);
    if (!checked.success) {
      fail(schemaProblems(checked.error, line, raw.columnName));
      if (sku !== "") products.set(sku, failedProduct(values, line));
      continue;
    }
    products.set(
      sku,
      variantGiven
        ? startProduct(checked.data, values, line)
        : productAlone({ ...checked.data, line } as CheckedRow, line),
    );
  }
  const repeated = repeatedVariantSkus(products, raw.columnName);
  const rows: CheckedRow[] = [];
  let seen = 0;
  for (const product of products.values()) {
    // Light work per product: a turn now and then is enough (an await each cost a tenth of the read).
    if (++seen % 1024 === 0) await turn();
    // A product whose first row failed the schema has nothing more to check.
    if (product.unread) continue;
    if (product.alone) {
      if (!repeated.products.has(product)) rows.push(product.row as CheckedRow);
      continue;
    }
    const found = variantProblems(product, raw.columnName);
    fail(found, product);
    if (!product.failed && !repeated.products.has(product)) rows.push(checkedRow(product));
  }
  fail(repeated.problems);
  problems.sort((a, b) => a.line - b.line);
  return {
    kind: raw.kind,
    rows,
    problems,
    ignoredColumns: raw.ignoredColumns,
    notes: raw.notes,
    skus,
    productCount: headerIsWrong ? raw.records.length : products.size + unnamed,
    readable: !raw.unreadable && !headerIsWrong,
  };
}

/** Whether a row gives any variant column (most rows of most files give none). */
function givesVariant(values: Record<string, unknown>): boolean {
  for (const column of VARIANT_COLUMNS) {
    const value = values[column];
    if (value !== undefined && value !== "" && value !== null) return true;
  }
  return false;
}

/** A product whose first row failed the schema: not imported; its further rows are still checked. */
function failedProduct(given: Record<string, unknown>, line: number): FileProduct {
  // The names as given: whether its further rows are variants (named) or the same sku again.
  const optionNames = ["option1_name", "option2_name", "option3_name"].flatMap((column) => {
    const name = given[column];
    return typeof name === "string" && name.trim() !== "" ? [name.trim()] : [];
  });
  return {
    line,
    given,
    row: {} as CatalogFileRow,
    optionNames,
    variants: [],
    failed: true,
    unread: true,
  };
}

function schemaProblems(
  error: z.ZodError,
  line: number,
  columnName: (column: string) => string,
): FileProblem[] {
  return error.issues.map((issue) => ({
    line,
    column: columnName(String(issue.path[0])),
    message: issue.message,
  }));
}

/**
 * A product as the import takes it: its first row's columns, its options'
 * values, its variants; its price the lowest of theirs and its stock their
 * sum (when each gives one).
 */
function checkedRow(product: FileProduct): CheckedRow {
  const { row, line, variants } = product;
  // A product without options: its one row as it is (most rows of most files).
  if (product.optionNames.length === 0) return { ...row, line, options: [], variants };
  const prices = variants.map((variant) => variant.price);
  const stocks = variants.flatMap((variant) => (variant.stock === undefined ? [] : [variant.stock]));
  const { stock: _first, ...columns } = row;
  return {
    ...columns,
    line,
    price: Math.min(...prices),
    ...(stocks.length === variants.length ? { stock: stocks.reduce((sum, units) => sum + units, 0) } : {}),
    options: optionValuesOf(product),
    variants,
  };
}

// —— Writing ——

/**
 * One row of a catalogue file as export writes it: a product's, or a further variant's of a
 * product with options (its sku and its variant's columns). A column left out is empty: an
 * import leaves what it holds as it is (stock, say).
 */
export type CatalogFileRecord = { sku: string } & Partial<
  Record<Exclude<(typeof CATALOG_FILE_COLUMNS)[number], "sku">, string | number>
>;

/**
 * A catalogue file's text: what `catalog:export` writes and `catalog:import`
 * reads back unchanged. Only CSV is opened by spreadsheets, so only its cells
 * are kept from running as formulas (spreadsheet-cells.ts).
 */
export function writeCatalogFile(records: readonly CatalogFileRecord[], format: CatalogFileFormat): string {
  if (format === "csv") return writeCatalogCsv(records, { header: true });
  if (format === "ndjson") return records.map((record) => `${JSON.stringify(record)}\n`).join("");
  return `${JSON.stringify(records, null, 2)}\n`;
}

/** CSV lines of a catalogue file; `header: false` for the parts after the first of a streamed export. */
export function writeCatalogCsv(
  records: readonly CatalogFileRecord[],
  { header }: { header: boolean },
): string {
  const cells = records.map((record) =>
    Object.fromEntries(
      Object.entries(record).map(([column, value]) => [
        column,
        typeof value === "string" ? spreadsheetCell(value) : value,
      ]),
    ),
  );
  return writeCsv(cells, { header, columns: [...CATALOG_FILE_COLUMNS] });
}
