import { Link, redirect } from "react-router";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { pageMeta } from "~/components/layout/page-meta";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { catalogUploadSchema } from "~/features/catalog/core/catalog-import-schema";
import {
  CatalogExportForm,
  CatalogUploadForm,
} from "~/features/catalog/management/components/catalog-upload-form";
import { checkCatalogUpload, latestCatalogImports } from "~/features/catalog/management/index.server";
import { checkedSubmission, failedSubmission, readForm } from "~/utils/form-submission.server";
import type { Route } from "./+types/admin.catalog-import";

/**
 * /admin/products/import (staff and owners): upload a catalogue file, which is
 * kept with its dry run and shown at /admin/products/import/<id> before
 * anything is written; and download the catalogue (/admin/products/export).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const latest = await latestCatalogImports(context.get(servicesContext).database.db);
  return {
    latest: latest.map(({ id, fileName, status, createdAt }) => ({
      id,
      fileName,
      status,
      createdAt: createdAt.toISOString(),
    })),
  };
}

/** POST: the file (multipart, up to 20 MB; the HTTP server allows this path that much): checked, kept, shown. */
export async function action({ request, context }: Route.ActionArgs) {
  const visitor = await backOfficeVisitorOf(request, context);
  const { submission, refused } = checkedSubmission(await readForm(request), catalogUploadSchema);
  if (refused) return refused;
  const { file } = submission.value;
  const outcome = await checkCatalogUpload(context.get(servicesContext).database.db, visitor.actor, {
    fileName: file.name,
    content: new Uint8Array(await file.arrayBuffer()),
  });
  if ("field" in outcome)
    return failedSubmission(submission, 400, { fieldErrors: { file: [outcome.message] } });
  throw redirect(`/admin/products/import/${outcome.id}`, 303);
}

export function meta() {
  return pageMeta({
    title: "Import products | Back office | Backline",
    description: "Import and export the catalogue.",
    noindex: true,
  });
}

const STATUS_NAMES = {
  checked: "checked, not imported",
  writing: "being imported",
  done: "imported",
  failed: "failed",
};

export default function CatalogImportPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <BackOfficePage
      title="Import products"
      intro="Bring in a catalogue file: you see what it changes, and every bad line, before anything is written."
    >
      <div className="space-y-10">
        <CatalogUploadForm answer={actionData} />
        {loaderData.latest.length > 0 ? (
          <section aria-labelledby="latest-imports">
            <h2 id="latest-imports" className="text-lg font-bold text-slate-900">
              Latest files
            </h2>
            <ul className="mt-2 space-y-1">
              {loaderData.latest.map((upload) => (
                <li key={upload.id} className="text-sm text-slate-800">
                  <Link
                    to={`/admin/products/import/${upload.id}`}
                    className="font-semibold text-indigo-700 underline"
                  >
                    {upload.fileName}
                  </Link>{" "}
                  — {STATUS_NAMES[upload.status as keyof typeof STATUS_NAMES] ?? upload.status},{" "}
                  <time dateTime={upload.createdAt}>
                    {upload.createdAt.slice(0, 16).replace("T", " ")} UTC
                  </time>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <section aria-labelledby="export" className="space-y-3">
          <h2 id="export" className="text-lg font-bold text-slate-900">
            Export
          </h2>
          <p className="text-slate-700">
            The whole catalogue as <code>npm run catalog:export</code> writes it: importing it back changes
            nothing.
          </p>
          <CatalogExportForm />
        </section>
      </div>
    </BackOfficePage>
  );
}
