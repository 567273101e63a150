import { convert as htmlToText } from "html-to-text";
import type { EventLoopTurn } from "~/utils/event-loop-turns.server";
import type { CatalogFileRow } from "../core/catalog-schema";
import type { FileProblem, RawReading, RawRecord } from "./catalog-file.server";

/**
 * Shopify's product CSV export, read onto the columns of a catalogue file
 * (catalog-file.server.ts recognises it by its columns and checks its rows
 * like any other file's).
 */

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
  "Variant Inventory Qty": "stock",
  "Image Src": "image",
} as const satisfies Record<string, keyof CatalogFileRow>;
/** Read but not imported as a column: which products are live, and the category when Type is empty. */
const SHOPIFY_CONTROL_COLUMNS = ["Status", "Published", "Product Category"];

/** A price as Shopify writes one: digits, and a point with up to two more. */
const PRICE = /^\d+(\.\d{1,2})?$/;
/** A count of units as the shop takes one (the schema says what is wrong with any other). */
const UNITS = /^\d{1,9}$/;

export function isShopifyExport(columns: readonly string[]): boolean {
  return ["Handle", "Title", "Variant Price"].every((column) => columns.includes(column));
}

export async function readShopify(
  columns: string[],
  records: { line: number; record: string[] }[],
  turn: EventLoopTurn,
): Promise<RawReading> {
  const at = (record: string[], column: string) => {
    const index = columns.indexOf(column);
    return index === -1 ? "" : (record[index] ?? "").trim();
  };
  const products = new Map<
    string,
    { line: number; values: Record<string, unknown>; prices: string[]; stocks: string[] }
  >();
  const problems: FileProblem[] = [];
  let notLive = 0;
  let moreLines = 0;
  const skipped = new Set<string>();
  for (const { line, record } of records) {
    await turn();
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
      const stock = at(record, "Variant Inventory Qty");
      if (product && stock !== "") product.stocks.push(stock);
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
    products.set(handle, { line, values, prices: [], stocks: [] });
  }
  const rows: RawRecord[] = [];
  for (const { line, values, prices, stocks } of products.values()) {
    await turn();
    // The lowest of the variants' prices, as written (the schema checks it), unless one of them is
    // not a price at all: then the product's own stays, for the schema to name on its line.
    const all = [String(values.price), ...prices];
    if (all.every((price) => PRICE.test(price))) {
      values.price = all.reduce((lowest, price) => (Number(price) < Number(lowest) ? price : lowest));
    }
    // The variants' units together are the product's; one that is not a count (negative, say, as
    // Shopify allows when overselling) is given instead, for the schema to name on the product's line.
    if (stocks.length > 0) {
      const units = [String(values.stock), ...stocks].filter((stock) => stock !== "");
      values.stock =
        units.find((stock) => !UNITS.test(stock)) ??
        String(units.reduce((sum, stock) => sum + Number(stock), 0));
    }
    rows.push({ line, values });
  }
  const notes: string[] = [];
  if (moreLines > 0)
    notes.push(
      `${moreLines} further variant or picture lines were merged into their products (lowest price, first picture, units added up).`,
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
