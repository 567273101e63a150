import { isNull } from "drizzle-orm";
import { products } from "./schema";

/**
 * On sale: not archived by the owner (docs/decisions/0029). Every read of what
 * the shop shows or sells says it — pages, listings, search, the sitemap, the
 * API, a cart's add, checkout, the dashboard's low stock; an archived product
 * stays in the table for the orders that name it, and for the back office.
 */
export const onSale = isNull(products.archivedAt);
