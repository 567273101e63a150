import { stringify as writeCsv } from "csv-stringify/sync";
import type { CatalogFileRecord } from "./catalog-file.server";
import { spreadsheetCell } from "./spreadsheet-cells";

/**
 * The catalogue as Shopify's product CSV (the columns Shopify's import reads,
 * a line per variant): what the back office's "Shopify product CSV" export
 * writes from the rows of the shop's own file, and what reading a Shopify
 * export (shopify-export.server.ts) takes back unchanged.
 */
const SHOPIFY_EXPORT_COLUMNS = [
  "Handle",
  "Title",
  "Body (HTML)",
  "Vendor",
  "Type",
  "Published",
  "Option1 Name",
  "Option1 Value",
  "Option2 Name",
  "Option2 Value",
  "Option3 Name",
  "Option3 Value",
  "Variant SKU",
  "Variant Grams",
  "Variant Inventory Qty",
  "Variant Price",
  "Variant Compare At Price",
  "Image Src",
  "Variant Image",
  "Status",
] as const;

type ShopifyColumn = (typeof SHOPIFY_EXPORT_COLUMNS)[number];

/**
 * A description as Shopify's HTML: paragraphs at blank lines, line breaks kept, text escaped,
 * and lines " * item" (how a list reads once the import made it text) a list again.
 */
function descriptionHtml(text: string): string {
  const escaped = (part: string) =>
    part.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  return text
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim() !== "")
    .map((paragraph) => {
      const lines = paragraph.split("\n");
      if (lines.every((line) => line.startsWith(" * "))) {
        return `<ul>${lines.map((line) => `<li>${escaped(line.slice(3))}</li>`).join("")}</ul>`;
      }
      return `<p>${lines.map(escaped).join("<br>")}</p>`;
    })
    .join("");
}

/** An amount as Shopify writes one: with the currency's decimals (two for USD). */
const amount = (value: unknown, decimals: number) =>
  value === undefined || value === "" ? "" : Number(value).toFixed(decimals);

/** A picture's address for another site: this shop's paths made whole with its origin. */
const pictureAddress = (value: unknown, origin: string) => {
  const address = value === undefined ? "" : String(value);
  return address.startsWith("/") ? `${origin}${address}` : address;
};

/**
 * Shopify CSV lines for a page of the shop's file rows (a product's first row, then its
 * variants' further rows); `header` for the first page. Only CSV: cells kept from running
 * as formulas, as the shop's own CSV is.
 */
export function writeShopifyCsv(
  records: readonly CatalogFileRecord[],
  { header, origin, decimals }: { header: boolean; origin: string; decimals: number },
): string {
  const lines = records.map((record): Record<ShopifyColumn, string> => {
    const first = record.name !== undefined;
    const options = record.option1_name !== undefined || record.option1_value !== undefined;
    const text = (value: unknown) => (value === undefined ? "" : String(value));
    return {
      Handle: record.sku,
      Title: text(record.name),
      "Body (HTML)": first ? descriptionHtml(text(record.description)) : "",
      Vendor: text(record.brand),
      Type: text(record.category),
      Published: first ? "TRUE" : "",
      // Shopify's one variant of a product without options.
      "Option1 Name": options ? text(record.option1_name) : "Title",
      "Option1 Value": options ? text(record.option1_value) : "Default Title",
      "Option2 Name": text(record.option2_name),
      "Option2 Value": text(record.option2_value),
      "Option3 Name": text(record.option3_name),
      "Option3 Value": text(record.option3_value),
      "Variant SKU": text(record.variant_sku ?? record.sku),
      "Variant Grams": text(record.weight_grams),
      "Variant Inventory Qty": text(record.stock),
      "Variant Price": amount(record.price, decimals),
      "Variant Compare At Price": amount(record.compare_at_price, decimals),
      "Image Src": pictureAddress(record.image, origin),
      "Variant Image": pictureAddress(record.variant_image, origin),
      Status: first ? "active" : "",
    };
  });
  const cells = lines.map((line) =>
    Object.fromEntries(Object.entries(line).map(([column, value]) => [column, spreadsheetCell(value)])),
  );
  return writeCsv(cells, { header, columns: [...SHOPIFY_EXPORT_COLUMNS] });
}
