import path from "node:path";
import { stringify as writeCsv } from "csv-stringify/sync";
import { type EventLoopTurn, eventLoopTurns } from "~/utils/event-loop-turns.server";
import { CATALOG_FILE_COLUMNS, type CatalogFileRow, catalogFileRowSchema } from "../core/catalog-schema";
import { isPlainText, readRawCatalogFile } from "./catalog-file-readers.server";
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

/** A row that passed the schema, and the line it starts on. */
export interface CheckedRow extends CatalogFileRow {
  line: number;
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
  const rows: CheckedRow[] = [];
  const problems = [...raw.problems];
  const skus = new Set<string>(raw.skusOfBrokenLines);
  const firstLineOfSku = new Map<string, number>();
  // A header that lacks a column makes every row wrong the same way: say it once.
  const headerIsWrong = raw.problems.some((problem) => problem.line === 1 && !problem.column);
  for (const { line, values } of headerIsWrong ? [] : raw.records) {
    await turn();
    // Two rows with one sku are an error even when one of them is wrong in another way (a sku that
    // is not text is the schema's to refuse: it is never quoted back).
    const given =
      typeof values.sku === "string" || typeof values.sku === "number" ? String(values.sku).trim() : "";
    const sku = isPlainText(given) ? given : "";
    if (sku !== "") skus.add(sku);
    const first = firstLineOfSku.get(sku);
    if (sku !== "" && first !== undefined) {
      problems.push({
        line,
        column: raw.columnName("sku"),
        message: `sku "${sku}" is already on line ${first}; each product's sku must be unique.`,
      });
      continue;
    }
    if (sku !== "") firstLineOfSku.set(sku, line);
    const checked = catalogFileRowSchema.safeParse(values);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        problems.push({ line, column: raw.columnName(String(issue.path[0])), message: issue.message });
      }
      continue;
    }
    rows.push({ ...checked.data, line });
  }
  problems.sort((a, b) => a.line - b.line);
  const badLines = new Set(
    problems.filter((problem) => problem.line > 1 || problem.column).map((p) => p.line),
  );
  return {
    kind: raw.kind,
    rows,
    problems,
    ignoredColumns: raw.ignoredColumns,
    notes: raw.notes,
    skus,
    productCount: headerIsWrong ? raw.records.length : rows.length + badLines.size,
    readable: !raw.unreadable && !headerIsWrong,
  };
}

// —— Writing ——

/** The values of one product as a catalogue file holds them; without stock, an import leaves it as it is. */
export type CatalogFileRecord = Record<
  Exclude<(typeof CATALOG_FILE_COLUMNS)[number], "stock">,
  string | number
> & {
  stock?: number | string;
};

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
