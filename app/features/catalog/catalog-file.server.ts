import path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { stringify as writeCsv } from "csv-stringify/sync";
import { convert as htmlToText } from "html-to-text";
import { CATALOG_FILE_COLUMNS, type CatalogFileRow, catalogFileRowSchema } from "./catalog-schema";
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

interface RawRecord {
  line: number;
  values: Record<string, unknown>;
}

interface RawReading {
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

/** Reads and checks a whole catalogue file. */
export function readCatalogFile(text: string, format: CatalogFileFormat): CatalogFileReading {
  const raw = format === "csv" ? readCsv(text) : format === "json" ? readJson(text) : readNdjson(text);
  const rows: CheckedRow[] = [];
  const problems = [...raw.problems];
  const skus = new Set<string>(raw.skusOfBrokenLines);
  const firstLineOfSku = new Map<string, number>();
  // A header that lacks a column makes every row wrong the same way: say it once.
  const headerIsWrong = raw.problems.some((problem) => problem.line === 1 && !problem.column);
  for (const { line, values } of headerIsWrong ? [] : raw.records) {
    // Two rows with one sku are an error even when one of them is wrong in another way.
    const sku =
      typeof values.sku === "string" || typeof values.sku === "number" ? String(values.sku).trim() : "";
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

// —— Shopify's product CSV ——

/**
 * The Shopify export's columns the import reads, and the column each fills.
 * A product may take several lines: the first carries its title and details,
 * the next ones (same Handle, no Title) more variants and pictures.
 */
const SHOPIFY_COLUMNS = {
  Handle: "sku",
  Title: "name",
  "Body (HTML)": "description",
  Vendor: "brand",
  Type: "category",
  "Variant Price": "price",
  "Image Src": "image",
} as const satisfies Record<string, keyof CatalogFileRow>;
/** Read but not imported as a column: which products are live, and the category when Type is empty. */
const SHOPIFY_CONTROL_COLUMNS = ["Status", "Published", "Product Category"];

/** A price as Shopify writes one: digits, and a point with up to two more. */
const PRICE = /^\d+(\.\d{1,2})?$/;

function isShopifyExport(columns: readonly string[]): boolean {
  return ["Handle", "Title", "Variant Price"].every((column) => columns.includes(column));
}

function readShopify(columns: string[], records: { line: number; record: string[] }[]): RawReading {
  const at = (record: string[], column: string) => {
    const index = columns.indexOf(column);
    return index === -1 ? "" : (record[index] ?? "").trim();
  };
  const products = new Map<string, { line: number; values: Record<string, unknown>; prices: string[] }>();
  const problems: FileProblem[] = [];
  let notLive = 0;
  let moreLines = 0;
  const skipped = new Set<string>();
  for (const { line, record } of records) {
    const handle = at(record, "Handle");
    if (handle === "") {
      problems.push({
        line,
        column: "Handle",
        message: "Handle is required: it is the product's key (its sku).",
      });
      continue;
    }
    const product = products.get(handle);
    if (product || skipped.has(handle)) {
      // A variant or a further picture of a product already read: its lowest price is the product's.
      moreLines++;
      const price = at(record, "Variant Price");
      if (product && price !== "") product.prices.push(price);
      if (product && !product.values.image) product.values.image = at(record, "Image Src");
      continue;
    }
    const status = at(record, "Status").toLowerCase();
    const published = at(record, "Published").toLowerCase();
    if ((status !== "" && status !== "active") || (status === "" && published === "false")) {
      notLive++;
      skipped.add(handle);
      continue;
    }
    const values: Record<string, unknown> = {};
    for (const [column, field] of Object.entries(SHOPIFY_COLUMNS)) values[field] = at(record, column);
    values.description = shopifyDescription(String(values.description));
    // Shopify's standard taxonomy ("Home & Garden > Kitchen > Blenders") names a category when Type is empty.
    if (values.category === "")
      values.category = at(record, "Product Category").split(">").at(-1)?.trim() ?? "";
    products.set(handle, { line, values, prices: [] });
  }
  const rows: RawRecord[] = [];
  for (const { line, values, prices } of products.values()) {
    // The lowest of the variants' prices, as written (the schema checks it), unless one of them is
    // not a price at all: then the product's own stays, for the schema to name on its line.
    const all = [String(values.price), ...prices];
    if (all.every((price) => PRICE.test(price))) {
      values.price = all.reduce((lowest, price) => (Number(price) < Number(lowest) ? price : lowest));
    }
    rows.push({ line, values });
  }
  const notes: string[] = [];
  if (moreLines > 0)
    notes.push(
      `${moreLines} further variant or picture lines were merged into their products (lowest price, first picture).`,
    );
  if (notLive > 0)
    notes.push(
      `${notLive} products that are not active in Shopify (draft, archived or unpublished) were left out.`,
    );
  const used = new Set<string>([...Object.keys(SHOPIFY_COLUMNS), ...SHOPIFY_CONTROL_COLUMNS]);
  const columnNames = Object.fromEntries(
    Object.entries(SHOPIFY_COLUMNS).map(([column, field]) => [field, column]),
  );
  return {
    kind: "shopify",
    records: rows,
    problems,
    ignoredColumns: columns.filter((column) => !used.has(column)),
    notes,
    columnName: (field) => columnNames[field] ?? field,
  };
}

/** A Shopify description is HTML: kept as plain text (paragraphs and list items on lines of their own). */
function shopifyDescription(html: string): string {
  if (html === "") return "";
  return htmlToText(html, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { ignoreHref: true } },
      { selector: "img", format: "skip" },
      { selector: "h1", options: { uppercase: false } },
      { selector: "h2", options: { uppercase: false } },
      { selector: "h3", options: { uppercase: false } },
      { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } },
    ],
  })
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

// —— Writing ——

/** The values of one product as a catalogue file holds them. */
export type CatalogFileRecord = Record<(typeof CATALOG_FILE_COLUMNS)[number], string | number>;

/**
 * A catalogue file's text: what `catalog:export` writes and `catalog:import`
 * reads back unchanged. Only CSV is opened by spreadsheets, so only its cells
 * are kept from running as formulas (spreadsheet-cells.ts).
 */
export function writeCatalogFile(records: readonly CatalogFileRecord[], format: CatalogFileFormat): string {
  if (format === "csv") {
    const cells = records.map((record) =>
      Object.fromEntries(
        Object.entries(record).map(([column, value]) => [
          column,
          typeof value === "string" ? spreadsheetCell(value) : value,
        ]),
      ),
    );
    return writeCsv(cells, { header: true, columns: [...CATALOG_FILE_COLUMNS] });
  }
  if (format === "ndjson") return records.map((record) => `${JSON.stringify(record)}\n`).join("");
  return `${JSON.stringify(records, null, 2)}\n`;
}
