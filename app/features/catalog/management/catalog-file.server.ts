import path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { stringify as writeCsv } from "csv-stringify/sync";
import { z } from "~/utils/zod";
import { CATALOG_FILE_COLUMNS, type CatalogFileRow, catalogFileRowSchema } from "../core/catalog-schema";
import { isShopifyExport, readShopify } from "./shopify-export.server";
import { spreadsheetCell, spreadsheetValue } from "./spreadsheet-cells";

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

/** Whether `text` is plain text by the rule of every text input (~/utils/zod): a file's keys are held to it. */
const isPlainText = (text: string) => z.string().safeParse(text).success;

/** A file that holds NUL is no text file (binary, or saved as UTF-16): refused whole, at its first. */
function withoutNul(text: string): RawReading | null {
  const at = text.indexOf("\u0000");
  if (at === -1) return null;
  return unreadable(
    lineAt(text, at),
    "This line holds a NUL character, so this is not a text file: save the catalogue as UTF-8 CSV, JSON or NDJSON.",
  );
}

/** Reads and checks a whole catalogue file. */
export function readCatalogFile(text: string, format: CatalogFileFormat): CatalogFileReading {
  const raw =
    withoutNul(text) ??
    (format === "csv" ? readCsv(text) : format === "json" ? readJson(text) : readNdjson(text));
  const rows: CheckedRow[] = [];
  const problems = [...raw.problems];
  const skus = new Set<string>(raw.skusOfBrokenLines);
  const firstLineOfSku = new Map<string, number>();
  // A header that lacks a column makes every row wrong the same way: say it once.
  const headerIsWrong = raw.problems.some((problem) => problem.line === 1 && !problem.column);
  for (const { line, values } of headerIsWrong ? [] : raw.records) {
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

const KNOWN_COLUMNS = new Set<string>(CATALOG_FILE_COLUMNS);
const sameName = (column: string) => column;

function ignoredKeys(keys: Iterable<string>): string[] {
  return [...new Set(keys)].filter((key) => !KNOWN_COLUMNS.has(key));
}

// —— CSV ——

function readCsv(text: string): RawReading {
  let table: { record: string[]; raw: string; info: { lines: number } }[];
  let lastRecordLine = 0;
  try {
    table = parseCsv(text, {
      bom: true,
      info: true,
      raw: true,
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (record, context) => {
        lastRecordLine = context.lines;
        return record;
      },
    }) as unknown as typeof table;
  } catch (error) {
    // A quote left open, say: the file cannot be read past the line it opens on, which is after
    // the last record read (csv-parse itself names the file's last line).
    const { code, message } = error as { code?: string; message: string };
    if (code === "CSV_QUOTE_NOT_CLOSED") {
      return unreadable(
        lastRecordLine + 1,
        "A quote opens on this line (or soon after) and is never closed, so the file cannot be read past it.",
      );
    }
    return unreadable(lastRecordLine + 1, message);
  }
  const [header, ...body] = table;
  if (!header) return unreadable(1, "The file is empty: it needs a header row and a row per product.");
  const columns = header.record.map((name) => name.trim());
  const unnamed = columns.findIndex((column) => !isPlainText(column));
  if (unnamed !== -1) {
    return unreadable(1, `The header's column ${unnamed + 1} holds control characters: name it with text.`);
  }
  const twice = columns.filter((column, at) => columns.indexOf(column) !== at);
  if (twice.length > 0) {
    return unreadable(
      1,
      `The header names ${[...new Set(twice)].join(", ")} more than once; each column must be named once.`,
    );
  }
  const records = body.map(({ record, raw, info }) => ({ line: startLine(raw, info.lines), record }));
  if (isShopifyExport(columns)) return readShopify(columns, records);

  const problems: FileProblem[] = [];
  const rows: RawRecord[] = [];
  const skuAt = columns.indexOf("sku");
  const skusOfBrokenLines: string[] = [];
  for (const { line, record } of records) {
    if (record.length !== columns.length) {
      const sku = spreadsheetValue(record[skuAt] ?? "").trim();
      if (sku) skusOfBrokenLines.push(sku);
      problems.push({
        line,
        message: `This line has ${record.length} values where the header has ${columns.length} columns.`,
      });
      continue;
    }
    rows.push({
      line,
      values: Object.fromEntries(columns.map((column, at) => [column, spreadsheetValue(record[at] ?? "")])),
    });
  }
  return {
    kind: "backline",
    records: rows,
    problems: [...problems, ...missingColumns(columns)],
    ignoredColumns: ignoredKeys(columns),
    notes: [],
    columnName: sameName,
    skusOfBrokenLines,
  };
}

/** A record's first line: csv-parse counts to its last, and a quoted value may hold line breaks. */
function startLine(raw: string, lastLine: number): number {
  const record = raw.replace(/^(\r?\n)+/, "").replace(/\r?\n$/, "");
  return lastLine - (record.match(/\n/g)?.length ?? 0);
}

const REQUIRED_COLUMNS = CATALOG_FILE_COLUMNS.filter(
  (column) => !catalogFileRowSchema.shape[column].safeParse(undefined).success,
);

function missingColumns(columns: readonly string[]): FileProblem[] {
  const missing = REQUIRED_COLUMNS.filter((column) => !columns.includes(column));
  if (missing.length === 0) return [];
  return [
    {
      line: 1,
      message: `The header lacks the column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}; a catalogue file has ${CATALOG_FILE_COLUMNS.join(", ")} (only ${REQUIRED_COLUMNS.join(", ")} are required).`,
    },
  ];
}

function unreadable(line: number, message: string): RawReading {
  return {
    unreadable: true,
    kind: "backline",
    records: [],
    problems: [{ line, message }],
    ignoredColumns: [],
    notes: [],
    columnName: sameName,
  };
}

// —— JSON and NDJSON ——

function readJson(withBom: string): RawReading {
  const text = withBom.replace(/^\uFEFF/, "");
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return unreadable(jsonErrorLine(text, error), `The file is not valid JSON: ${(error as Error).message}`);
  }
  const list = Array.isArray(document) ? document : (document as { products?: unknown } | null)?.products;
  if (!Array.isArray(list)) {
    return unreadable(1, 'A JSON catalogue is an array of products (or an object with a "products" array).');
  }
  const items = arrayItems(text, !Array.isArray(document));
  return fromObjects(list.map((item, at) => ({ line: items[at]?.line ?? 1, item })));
}

function readNdjson(text: string): RawReading {
  const items: { line: number; item: unknown }[] = [];
  const problems: FileProblem[] = [];
  text
    .replace(/^\uFEFF/, "")
    .split("\n")
    .forEach((content, at) => {
      if (content.trim() === "") return;
      try {
        items.push({ line: at + 1, item: JSON.parse(content) });
      } catch (error) {
        problems.push({ line: at + 1, message: `This line is not valid JSON: ${(error as Error).message}` });
      }
    });
  const reading = fromObjects(items);
  return { ...reading, problems: [...problems, ...reading.problems] };
}

function fromObjects(items: { line: number; item: unknown }[]): RawReading {
  const records: RawRecord[] = [];
  const problems: FileProblem[] = [];
  const keys = new Set<string>();
  for (const { line, item } of items) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      problems.push({ line, message: "A product must be an object with the columns as keys." });
      continue;
    }
    if (!Object.keys(item).every(isPlainText)) {
      problems.push({ line, message: "A key of this product is not text: it holds control characters." });
      continue;
    }
    for (const key of Object.keys(item)) keys.add(key);
    records.push({ line, values: item as Record<string, unknown> });
  }
  return {
    kind: "backline",
    records,
    problems,
    ignoredColumns: ignoredKeys(keys),
    notes: [],
    columnName: sameName,
  };
}

/**
 * The line JSON.parse stopped at: V8 names it for some errors; otherwise the
 * first product that does not parse on its own is the one at fault.
 */
function jsonErrorLine(text: string, error: unknown): number {
  const message = (error as Error).message;
  const line = /\(line (\d+) column \d+\)/.exec(message)?.[1];
  if (line) return Number(line);
  const position = /position (\d+)/.exec(message)?.[1];
  if (position) return lineAt(text, Number(position));
  const nested = /^\s*\{/.test(text);
  for (const item of arrayItems(text, nested)) {
    try {
      JSON.parse(text.slice(item.start, item.end));
    } catch {
      return item.line;
    }
  }
  return 1;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) line++;
  return line;
}

/**
 * Where each item of the file's product array is (its text and the line it
 * starts on), found by walking the JSON text: the array is the top level, or,
 * when `nested`, the value of the top-level key "products".
 */
function arrayItems(text: string, nested: boolean): { start: number; end: number; line: number }[] {
  const arrayDepth = nested ? 2 : 1;
  const items: { start: number; end: number; line: number }[] = [];
  let depth = 0;
  let line = 1;
  let inProducts = false;
  let expectItem = false;
  let stringStart = -1;
  let lastKey = "";
  const close = (at: number) => {
    const last = items.at(-1);
    if (last && last.end === -1) last.end = at;
  };
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === "\n") line++;
    if (stringStart !== -1) {
      if (char === "\\") at++;
      else if (char === '"') {
        if (depth === 1) lastKey = text.slice(stringStart + 1, at);
        stringStart = -1;
      }
      continue;
    }
    if (char === " " || char === "\t" || char === "\r" || char === "\n") continue;
    if (expectItem && char !== "]") {
      items.push({ start: at, end: -1, line });
      expectItem = false;
    }
    if (char === '"') stringStart = at;
    else if (char === "[" || char === "{") {
      depth++;
      if (char === "[" && depth === arrayDepth && (!nested || lastKey === "products")) {
        inProducts = true;
        expectItem = true;
      }
    } else if (char === "]" || char === "}") {
      if (inProducts && depth === arrayDepth) {
        close(at);
        inProducts = false;
      }
      depth--;
      expectItem = false;
    } else if (char === "," && inProducts && depth === arrayDepth) {
      close(at);
      expectItem = true;
    }
  }
  return items;
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
