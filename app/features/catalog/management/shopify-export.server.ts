import { convert as htmlToText } from "html-to-text";
import type { EventLoopTurn } from "~/utils/event-loop-turns.server";
import type { CatalogFileRow } from "../core/catalog-file-schema";
import type { FileProblem, RawReading, RawRecord } from "./catalog-file.server";

/**
 * Shopify's product CSV export, read onto the columns of a catalogue file
 * (catalog-file.server.ts recognises it by its columns and checks its rows
 * like any other file's).
 */

/**
 * The Shopify export's columns the import reads, and the column each fills.
 * A product takes a line per variant: the first carries its title, details and
 * options' names, the next ones (same Handle, no Title) its other variants,
 * and lines with a picture alone its further pictures.
 */
const SHOPIFY_COLUMNS = {
  Handle: "sku",
  Title: "name",
  "Body (HTML)": "description",
  Vendor: "brand",
  Type: "category",
  "Image Src": "image",
  "Option1 Name": "option1_name",
  "Option1 Value": "option1_value",
  "Option2 Name": "option2_name",
  "Option2 Value": "option2_value",
  "Option3 Name": "option3_name",
  "Option3 Value": "option3_value",
  "Variant SKU": "variant_sku",
  "Variant Price": "price",
  "Variant Compare At Price": "compare_at_price",
  "Variant Inventory Qty": "stock",
  "Variant Grams": "weight_grams",
  "Variant Image": "variant_image",
} as const satisfies Record<string, keyof CatalogFileRow>;
/** Read but not imported as a column: which products are live, and the category when Type is empty. */
const SHOPIFY_CONTROL_COLUMNS = ["Status", "Published", "Product Category"];
/** A variant's own columns: a further line without any of them is a picture's. */
const VARIANT_COLUMNS = ["Option1 Value", "Variant SKU", "Variant Price"];

export function isShopifyExport(columns: readonly string[]): boolean {
  return ["Handle", "Title", "Variant Price"].every((column) => columns.includes(column));
}

/** Shopify's one variant of a product without options: option "Title", value "Default Title". */
const isDefaultTitle = (values: Record<string, unknown>) =>
  values.option1_name === "Title" && values.option1_value === "Default Title";

export async function readShopify(
  columns: string[],
  records: { line: number; record: string[] }[],
  turn: EventLoopTurn,
): Promise<RawReading> {
  const at = (record: string[], column: string) => {
    const index = columns.indexOf(column);
    return index === -1 ? "" : (record[index] ?? "").trim();
  };
  const products = new Map<string, { values: Record<string, unknown>; options: boolean }>();
  const rows: RawRecord[] = [];
  const problems: FileProblem[] = [];
  let notLive = 0;
  let pictureLines = 0;
  let skusMade = 0;
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
    if (skipped.has(handle)) continue;
    const values: Record<string, unknown> = {};
    for (const [column, field] of Object.entries(SHOPIFY_COLUMNS)) values[field] = at(record, column);
    const product = products.get(handle);
    if (product) {
      // A further picture of the product: the first one is the product's.
      if (!product.values.image) product.values.image = values.image;
      values.image = "";
      if (VARIANT_COLUMNS.every((column) => at(record, column) === "")) {
        pictureLines++;
        continue;
      }
    } else {
      const status = at(record, "Status").toLowerCase();
      const published = at(record, "Published").toLowerCase();
      if ((status !== "" && status !== "active") || (status === "" && published === "false")) {
        notLive++;
        skipped.add(handle);
        continue;
      }
      values.description = shopifyDescription(String(values.description));
      // Shopify's standard taxonomy ("Home & Garden > Kitchen > Blenders") names a category when Type is empty.
      if (values.category === "")
        values.category = at(record, "Product Category").split(">").at(-1)?.trim() ?? "";
      if (isDefaultTitle(values)) {
        values.option1_name = "";
        values.option1_value = "";
      }
      products.set(handle, { values, options: values.option1_name !== "" });
    }
    const options = products.get(handle)?.options ?? false;
    if (!options) {
      // Without options, a product is sold under its Handle: its Variant SKU is not the shop's key.
      values.variant_sku = "";
    } else if (values.variant_sku === "") {
      // Shopify lets a variant go without a SKU; the shop names each one.
      const named = [values.option1_value, values.option2_value, values.option3_value].filter(Boolean);
      values.variant_sku = [handle, ...named].join("-").replace(/\s+/g, "-");
      skusMade++;
    }
    rows.push({ line, values });
  }
  const notes: string[] = [];
  if (pictureLines > 0)
    notes.push(`${pictureLines} further picture lines were read: a product shows its first picture.`);
  if (skusMade > 0)
    notes.push(`${skusMade} variants without a Variant SKU were given one: their Handle and option values.`);
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
