import { parseWithZod } from "@conform-to/zod/v4";
import { useRef } from "react";
import { data, Link, redirect } from "react-router";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { pageMeta } from "~/components/layout/page-meta";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { importConfirmationSchema } from "~/features/catalog/core/catalog-import-schema";
import {
  ImportCheckSummary,
  ImportConfirmForm,
} from "~/features/catalog/management/components/catalog-import-check";
import {
  ImportProgress,
  ImportResultView,
} from "~/features/catalog/management/components/catalog-import-progress";
import { catalogImportOf, confirmCatalogImport } from "~/features/catalog/management/index.server";
import { readForm } from "~/utils/form-submission.server";
import { z } from "~/utils/zod";
import type { Route } from "./+types/admin.catalog-import-file";

const importIdSchema = z.uuid();

/** An id that is not one (a typo, a guess) is the same 404 as an import that does not exist. */
function importIdOf(params: { importId: string }): string {
  const id = importIdSchema.safeParse(params.importId);
  if (!id.success) throw data(null, { status: 404 });
  return id.data;
}

/** /admin/products/import/<id>: the dry run and Confirm; then the progress; then the result. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const found = await catalogImportOf(context.get(servicesContext).database.db, importIdOf(params));
  if (!found) throw data(null, { status: 404 });
  return data(
    { ...found, createdAt: found.createdAt.toISOString() },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * POST: confirms the import, once. The process that takes the confirmation
 * writes it in the background; the page (this one, redirected to) follows it.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const visitor = await backOfficeVisitorOf(request, context);
  const id = importIdOf(params);
  // The boxes' "on" read as Conform reads them for any form (coerced, then checked by the schema).
  const choices = parseWithZod(await readForm(request), { schema: importConfirmationSchema });
  if (choices.status !== "success") {
    const field = Object.keys(choices.error ?? {})[0] === "prune" ? "prune" : "skipInvalid";
    return data(
      { refusal: { field, message: `${field} must be a ticked box, or left out.` } },
      { status: 400 },
    );
  }
  const outcome = await confirmCatalogImport(
    context.get(servicesContext).database.db,
    visitor.actor,
    id,
    choices.value,
  );
  if (!outcome) throw data(null, { status: 404 });
  if (!outcome.confirmed) {
    const { field, message } = outcome;
    return data({ refusal: { field, message } }, { status: field ? 400 : 409 });
  }
  // Written in the background of this process; a failure is kept on the row, not thrown here.
  void outcome.written;
  throw redirect(`/admin/products/import/${id}`, 303);
}

export function meta() {
  return pageMeta({
    title: "Import | Back office | Backline",
    description: "A catalogue import.",
    noindex: true,
  });
}

export default function CatalogImportFilePage({ loaderData, actionData }: Route.ComponentProps) {
  const upload = loaderData;
  // The result takes the focus when it replaces the progress on this page, not when the page opens with it.
  const sawWriting = useRef(false);
  if (upload.status === "writing") sawWriting.current = true;
  return (
    <BackOfficePage
      title={`Import of ${upload.fileName}`}
      intro={
        upload.status === "checked"
          ? "A dry run: nothing is written until you confirm."
          : "The file's dry run is below the import's progress or result."
      }
      actions={
        <Link to="/admin/products/import" className="text-sm font-semibold text-indigo-700 underline">
          Import another file
        </Link>
      }
    >
      <div className="space-y-8">
        {upload.status === "writing" ? (
          <ImportProgress
            id={upload.id}
            initial={{
              status: upload.status,
              progressDone: upload.progressDone,
              progressTotal: upload.progressTotal,
              result: upload.result,
              stalled: upload.stalled,
            }}
          />
        ) : null}
        {upload.status === "done" || upload.status === "failed" ? (
          <ImportResultView result={upload.result} focus={sawWriting.current} />
        ) : null}
        {actionData?.refusal && upload.status !== "checked" ? (
          <p
            role="alert"
            className="max-w-xl rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-950"
          >
            {actionData.refusal.message}
          </p>
        ) : null}
        <ImportCheckSummary check={upload.check} />
        {upload.status === "checked" ? (
          <ImportConfirmForm check={upload.check} refusal={actionData?.refusal} />
        ) : null}
      </div>
    </BackOfficePage>
  );
}
