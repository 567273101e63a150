import type { Database } from "~/db/client.server";
import { z } from "~/utils/zod";
import { type CatalogQuery, type ParseResult, parseCatalogQuery } from "../core/catalog-schema";
import { type BackOfficeProduct, findBackOfficeProducts } from "../search/index.server";
import type { Catalog } from "./catalog.server";

/** Products a back-office page lists when the address names no `size`: more than a shopper's page, fewer than a scroll. */
const BACK_OFFICE_PAGE_SIZE = 25;

/** The one parameter the back office's list adds to the shop's: `stock=low`, the products at or under the low-stock line. */
const stockViewSchema = z.object({
  stock: z
    .literal("low", { error: "stock must be low (the low-stock view); leave it out for every product." })
    .optional(),
});

export interface BackOfficeListing {
  query: CatalogQuery;
  /** The low-stock view: products with at most `lowStockAt` units on hand. */
  lowStock: boolean;
  lowStockAt: number;
  products: BackOfficeProduct[];
  hasNextPage: boolean;
  /** The brands and categories with their labels, for the filters and the table. */
  brands: { value: string; label: string }[];
  categories: { value: string; label: string }[];
}

/**
 * `/admin/products`: the shop's own search, filters, order and paging, read
 * from the same URL parameters by the same schema (`/admin/products?search=kettle`),
 * over every product, archived ones too, with its SKU and units on hand.
 */
export async function backOfficeListing(
  db: Database,
  catalog: Catalog,
  params: URLSearchParams,
  { lowStockAt }: { lowStockAt: number },
): Promise<ParseResult<BackOfficeListing>> {
  const parsed = parseCatalogQuery(params);
  if (!parsed.ok) return parsed;
  const view = stockViewSchema.safeParse({ stock: params.get("stock") || undefined });
  if (!view.success) {
    return {
      ok: false,
      error: { code: "invalid_parameter", field: "stock", message: view.error.issues[0]?.message ?? "" },
    };
  }
  const query = params.has("size") ? parsed.value : { ...parsed.value, size: BACK_OFFICE_PAGE_SIZE };
  const lowStock = view.data.stock === "low";
  // The search read as the shop reads it (its vocabulary, close spellings), so both lists find the same.
  const words = query.search ? await catalog.searchWords(query.search) : undefined;
  const [found, values] = await Promise.all([
    findBackOfficeProducts(db, query, lowStock ? { lowStockAt } : {}, words),
    catalog.facetValues(),
  ]);
  return {
    ok: true,
    value: { query, lowStock, lowStockAt, ...found, ...values.value },
  };
}
