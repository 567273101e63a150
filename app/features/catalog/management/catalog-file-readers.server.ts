import { setImmediate } from "node:timers/promises";
import { parse } from "csv-parse";
import type { EventLoopTurn } from "~/utils/event-loop-turns.server";
import { z } from "~/utils/zod";
import { CATALOG_FILE_COLUMNS, catalogFileRowSchema } from "../core/catalog-file-schema";
import type { CatalogFileFormat, FileProblem, RawReading, RawRecord } from "./catalog-file.server";
import { isShopifyExport, readShopify } from "./shopify-export.server";
import { spreadsheetValue } from "./spreadsheet-cells";

/**
 * A catalogue file read into rows in its format (CSV, Shopify's CSV, JSON,
 * NDJSON), before the schema (catalog-file.server.ts checks them). Each
 * reader gives the event loop a turn as it goes (`turn`): a file of 200,000
 * rows takes seconds, and the process must keep answering meanwhile.
 */
export async function readRawCatalogFile(
  text: string,
  format: CatalogFileFormat,
  turn: EventLoopTurn,
): Promise<RawReading> {
  const nul = withoutNul(text);
  if (nul) return nul;
  if (format === "csv") return readCsv(text, turn);
  return format === "json" ? readJson(text, turn) : readNdjson(text, turn);
}

/** Whether `text` is plain text by the rule of every text input (~/utils/zod): a file's keys are held to it. */
export const isPlainText = (text: string) => z.string().safeParse(text).success;

/** A file that holds NUL is no text file (binary, or saved as UTF-16): refused whole, at its first. */
function withoutNul(text: string): RawReading | null {
  const at = text.indexOf("\u0000");
  if (at === -1) return null;
  return unreadable(
    lineAt(text, at),
    "This line holds a NUL character, so this is not a text file: save the catalogue as UTF-8 CSV, JSON or NDJSON.",
  );
}

const KNOWN_COLUMNS = new Set<string>(CATALOG_FILE_COLUMNS);
const sameName = (column: string) => column;

function ignoredKeys(keys: Iterable<string>): string[] {
  return [...new Set(keys)].filter((key) => !KNOWN_COLUMNS.has(key));
}

// —— CSV ——

/** A CSV record as csv-parse gives it: its values, its text, and the line it ends on. */
interface CsvRecord {
  record: string[];
  raw: string;
  info: { lines: number };
}

/** Characters handed to the CSV parser at a time: a few thousand rows, parsed between two turns. */
const CSV_CHUNK = 64 * 1024;

/**
 * The file's CSV records, parsed a chunk at a time with a turn of the event
 * loop between chunks (csv-parse's stream parser, fed and read by hand);
 * or, when the file cannot be read past some line, the problem there.
 */
async function csvRecords(text: string, turn: EventLoopTurn): Promise<CsvRecord[] | RawReading> {
  const parser = parse({
    bom: true,
    info: true,
    raw: true,
    relax_column_count: true,
    skip_empty_lines: true,
  });
  let failure: { code?: string; message: string } | null = null;
  parser.on("error", (error) => {
    failure ??= error;
  });
  const table: CsvRecord[] = [];
  const drain = () => {
    for (let record = parser.read(); record !== null; record = parser.read()) table.push(record);
  };
  for (let start = 0; start < text.length && !failure; ) {
    // Never between the two halves of a surrogate pair: the parser reads each chunk as UTF-8.
    let end = Math.min(start + CSV_CHUNK, text.length);
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1] ?? "")) end++;
    parser.write(text.slice(start, end));
    drain();
    start = end;
    await turn();
  }
  parser.end();
  drain();
  // The parser reports a failure (a quote never closed) on the next tick, before this turn.
  await setImmediate();
  if (!failure) return table;
  // A quote left open, say: the file cannot be read past the line it opens on, which is after
  // the last record read (csv-parse itself names the file's last line).
  const { code, message } = failure as { code?: string; message: string };
  const lastRecordLine = table.at(-1)?.info.lines ?? 0;
  if (code === "CSV_QUOTE_NOT_CLOSED") {
    return unreadable(
      lastRecordLine + 1,
      "A quote opens on this line (or soon after) and is never closed, so the file cannot be read past it.",
    );
  }
  return unreadable(lastRecordLine + 1, message);
}

async function readCsv(text: string, turn: EventLoopTurn): Promise<RawReading> {
  const table = await csvRecords(text, turn);
  if (!Array.isArray(table)) return table;
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
  const records: { line: number; record: string[] }[] = [];
  for (const { record, raw, info } of body) {
    await turn();
    records.push({ line: startLine(raw, info.lines), record });
  }
  if (isShopifyExport(columns)) return readShopify(columns, records, turn);

  const problems: FileProblem[] = [];
  const rows: RawRecord[] = [];
  const skuAt = columns.indexOf("sku");
  const skusOfBrokenLines: string[] = [];
  for (const { line, record } of records) {
    await turn();
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

async function readJson(withBom: string, turn: EventLoopTurn): Promise<RawReading> {
  const text = withBom.replace(/^\uFEFF/, "");
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const line = await jsonErrorLine(text, error, turn);
    return unreadable(line, `The file is not valid JSON: ${(error as Error).message}`);
  }
  const list = Array.isArray(document) ? document : (document as { products?: unknown } | null)?.products;
  if (!Array.isArray(list)) {
    return unreadable(1, 'A JSON catalogue is an array of products (or an object with a "products" array).');
  }
  await turn();
  const items = await arrayItems(text, !Array.isArray(document), turn);
  return fromObjects(
    list.map((item, at) => ({ line: items[at]?.line ?? 1, item })),
    turn,
  );
}

async function readNdjson(text: string, turn: EventLoopTurn): Promise<RawReading> {
  const items: { line: number; item: unknown }[] = [];
  const problems: FileProblem[] = [];
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  for (const [at, content] of lines.entries()) {
    await turn();
    if (content.trim() === "") continue;
    try {
      items.push({ line: at + 1, item: JSON.parse(content) });
    } catch (error) {
      problems.push({ line: at + 1, message: `This line is not valid JSON: ${(error as Error).message}` });
    }
  }
  const reading = await fromObjects(items, turn);
  return { ...reading, problems: [...problems, ...reading.problems] };
}

async function fromObjects(
  items: { line: number; item: unknown }[],
  turn: EventLoopTurn,
): Promise<RawReading> {
  const records: RawRecord[] = [];
  const problems: FileProblem[] = [];
  const keys = new Set<string>();
  for (const { line, item } of items) {
    await turn();
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
async function jsonErrorLine(text: string, error: unknown, turn: EventLoopTurn): Promise<number> {
  const message = (error as Error).message;
  const line = /\(line (\d+) column \d+\)/.exec(message)?.[1];
  if (line) return Number(line);
  const position = /position (\d+)/.exec(message)?.[1];
  if (position) return lineAt(text, Number(position));
  const nested = /^\s*\{/.test(text);
  for (const item of await arrayItems(text, nested, turn)) {
    await turn();
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
async function arrayItems(
  text: string,
  nested: boolean,
  turn: EventLoopTurn,
): Promise<{ start: number; end: number; line: number }[]> {
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
    if (at % 65_536 === 0) await turn();
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
