import { z } from "~/utils/zod";

/**
 * The back office's catalogue import and export (`/admin/products/import`,
 * `/admin/products/export`): one schema per form, for the browser's messages
 * and the server's check.
 */

/** The largest catalogue file the back office takes (100,000 products of a CSV are about 25 MB less). */
export const MAX_CATALOG_UPLOAD_BYTES = 20 * 1024 * 1024;

/** An uploaded catalogue file: CSV (the shop's own or Shopify's export), JSON or NDJSON. */
export const catalogUploadSchema = z.object({
  file: z
    .instanceof(File, { error: "Choose a catalogue file (.csv, .json or .ndjson)." })
    .refine((file) => file.size > 0, { error: "This file is empty: choose a catalogue file." })
    .refine((file) => file.size <= MAX_CATALOG_UPLOAD_BYTES, {
      error: `The file is larger than ${MAX_CATALOG_UPLOAD_BYTES / 1024 / 1024} MB: import it in parts, or with npm run catalog:import.`,
    })
    // Its name is kept and shown: text by the rule of every text input.
    .refine((file) => z.string().safeParse(file.name).success, {
      error: "The file's name holds control characters: rename the file and choose it again.",
    }),
});

/** Confirming a checked file: the two choices the command line takes as --prune --yes and --skip-invalid. */
export const importConfirmationSchema = z.object({
  prune: z.boolean().default(false),
  skipInvalid: z.boolean().default(false),
});

/**
 * The formats export writes: the shop's own, as `npm run catalog:export` writes them (by its
 * file's extension), and Shopify's product CSV (a line per variant, read back by the import).
 */
export const CATALOG_EXPORT_FORMATS = ["csv", "json", "ndjson", "shopify"] as const;
export type CatalogExportFormat = (typeof CATALOG_EXPORT_FORMATS)[number];

export const catalogExportSchema = z.object({
  format: z
    .enum(CATALOG_EXPORT_FORMATS, { error: "format must be csv, json, ndjson or shopify." })
    .default("csv"),
});

// —— What the import pages show (catalog_imports' plan and result), shared by the server and the page ——

export type ImportStatus = "checked" | "writing" | "done" | "failed";

/** A problem on a line of a file (the line a row starts on; 1 is a CSV's header). */
export interface LineProblem {
  line: number;
  column?: string;
  message: string;
}

export interface NamedProducts {
  count: number;
  /** The first few, by sku and name (removed products by sku alone). */
  named: { sku: string; name?: string }[];
}

interface FacetChangesView {
  added: { value: string; label: string }[];
  relabelled: { value: string; label: string }[];
  removed: string[];
}

/** The dry run of an uploaded file, as the page shows it (catalog_imports.plan). */
export interface ImportCheck {
  kind: "backline" | "shopify";
  productCount: number;
  validRows: number;
  readable: boolean;
  ignoredColumns: string[];
  notes: string[];
  problemCount: number;
  problems: LineProblem[];
  /** Pictures whose address cannot be used (checked, not fetched: they are fetched on confirming). */
  pictureProblems: LineProblem[];
  picturesToFetch: number;
  /** What importing the valid rows would change; null when the file cannot be read as a whole. */
  changes: {
    warnings: LineProblem[];
    added: NamedProducts;
    updated: NamedProducts;
    unchanged: number;
    /** Only with "remove products the file does not have". */
    removed: NamedProducts;
    /** Not in the file, but an order names them: kept even then. */
    ordered: NamedProducts;
    brands: FacetChangesView;
    categories: FacetChangesView;
  } | null;
}

/** What an import changed, in numbers: the audit log's entry and the page's result. */
export interface ImportCounts {
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  keptAsOrdered: number;
  brandsAdded: number;
  categoriesAdded: number;
  pictureProblems: number;
}

/** While writing, the step under way; then what a confirmed import did, or why it stopped. */
export type ImportResult =
  | { step: string }
  | { outcome: "imported"; counts: ImportCounts; pictureProblems: LineProblem[] }
  | { outcome: "unchanged" }
  | { outcome: "failed"; message: string };

/** An import as its page and its progress route show it (never the file). */
export interface CatalogImportView {
  id: string;
  fileName: string;
  format: string;
  status: ImportStatus;
  check: ImportCheck;
  progressDone: number;
  progressTotal: number;
  result: ImportResult | null;
  /** Writing, but silent for minutes: its process stopped, and its transaction rolled back. */
  stalled: boolean;
  createdAt: Date;
}
