import { data } from "react-router";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { catalogImportOf } from "~/features/catalog/management/index.server";
import { z } from "~/utils/zod";
import type { Route } from "./+types/admin.catalog-import-progress";

/**
 * GET /admin/products/import/<id>/progress: what the import page polls while
 * an import is written, from any process of the shop (the row holds it).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const id = z.uuid().safeParse(params.importId);
  const found = id.success ? await catalogImportOf(context.get(servicesContext).database.db, id.data) : null;
  if (!found) {
    return data({ error: { code: "not_found", message: "There is no such import." } }, { status: 404 });
  }
  const { status, progressDone, progressTotal, result, stalled } = found;
  return data(
    { status, progressDone, progressTotal, result, stalled },
    { headers: { "Cache-Control": "no-store" } },
  );
}
