import { getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { FileUploadForm } from "~/components/forms/file-upload-form";
import { buttonClasses } from "~/components/ui/button";
import {
  CATALOG_EXPORT_FORMATS,
  catalogUploadSchema,
  MAX_CATALOG_UPLOAD_BYTES,
} from "../../core/catalog-import-schema";

const FORMAT_NAMES: Record<(typeof CATALOG_EXPORT_FORMATS)[number], string> = {
  csv: "CSV (spreadsheets)",
  json: "JSON",
  ndjson: "NDJSON (one product a line)",
  shopify: "Shopify product CSV",
};

/**
 * The upload of a catalogue file: sent as a plain multipart POST (it works
 * without JavaScript), checked by the same schema in the browser and on the
 * server; what it would change is shown on the next page before anything is written.
 */
export function CatalogUploadForm({
  answer,
}: {
  answer: { result?: SubmissionResult<string[]> } | undefined;
}) {
  const [form, fields] = useForm({
    id: "catalog-upload",
    lastResult: answer?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: catalogUploadSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const error = fields.file.errors?.[0];
  const { key, ...input } = getInputProps(fields.file, {
    type: "file",
    ariaDescribedBy: fields.file.descriptionId,
  });
  return (
    <FileUploadForm form={form} result={answer?.result} className="max-w-xl space-y-4">
      <div>
        <label htmlFor={fields.file.id} className="block text-sm font-semibold text-slate-800">
          Catalogue file
        </label>
        <input
          key={key}
          {...input}
          accept=".csv,.json,.ndjson,.jsonl,text/csv,application/json"
          className={`mt-1.5 block w-full rounded-lg border bg-white p-2 text-sm text-slate-900 file:mr-3 file:rounded-md file:border-0 file:bg-slate-200 file:px-3 file:py-2 file:font-semibold file:text-slate-900 ${error ? "border-red-600" : "border-slate-500"}`}
        />
        {error ? (
          <p id={fields.file.errorId} className="mt-1.5 text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
        <p id={fields.file.descriptionId} className="mt-1.5 text-sm text-slate-600">
          CSV or JSON with the shop's columns (as Export writes them), or Shopify's product export (CSV), up
          to {MAX_CATALOG_UPLOAD_BYTES / 1024 / 1024} MB. Nothing changes until you confirm.
        </p>
      </div>
      <button type="submit" className={buttonClasses("primary")}>
        Check the file
      </button>
    </FileUploadForm>
  );
}

/** Export: a plain GET form, so the browser downloads the file the route sends as an attachment. */
export function CatalogExportForm() {
  return (
    <form method="get" action="/admin/products/export" className="flex max-w-xl flex-wrap items-end gap-3">
      <div>
        <label htmlFor="export-format" className="block text-sm font-semibold text-slate-800">
          Format
        </label>
        <select
          id="export-format"
          name="format"
          defaultValue="csv"
          className="mt-1.5 block h-11 rounded-lg border border-slate-500 bg-white px-3 text-base text-slate-900"
        >
          {CATALOG_EXPORT_FORMATS.map((format) => (
            <option key={format} value={format}>
              {FORMAT_NAMES[format]}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className={buttonClasses("secondary")}>
        Download the catalogue
      </button>
    </form>
  );
}
