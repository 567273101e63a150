import { data } from "react-router";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { catalogExportSchema } from "~/features/catalog/core/catalog-import-schema";
import { exportCatalogText } from "~/features/catalog/management/index.server";
import type { Route } from "./+types/admin.catalog-export";

const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  json: "application/json; charset=utf-8",
  ndjson: "application/x-ndjson; charset=utf-8",
  shopify: "text/csv; charset=utf-8",
} as const;

const FILE_ENDINGS = { csv: "csv", json: "json", ndjson: "ndjson", shopify: "shopify.csv" } as const;

/**
 * GET /admin/products/export?format=csv|json|ndjson|shopify: the whole catalogue as
 * `npm run catalog:export` writes it (or as Shopify's product CSV), streamed a
 * page of products at a time.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const parsed = catalogExportSchema.safeParse(
    Object.fromEntries([...new URL(request.url).searchParams].filter(([name]) => name === "format")),
  );
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "format must be csv, json, ndjson or shopify.";
    return data({ error: { code: "bad_request", message, field: "format" } }, { status: 400 });
  }
  const { format } = parsed.data;
  const parts = exportCatalogText(context.get(servicesContext).database.db, format, {
    origin: new URL(request.url).origin,
  });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await parts.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await parts.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": CONTENT_TYPES[format],
      "Content-Disposition": `attachment; filename="backline-catalogue-${day}.${FILE_ENDINGS[format]}"`,
      "Cache-Control": "no-store",
    },
  });
}
