import { type SQL, sql } from "drizzle-orm";
import { productOptions, products, productVariants, stockLevels } from "~/db/schema";

/*
 * A product's stock as the catalogue speaks of it (docs/decisions/0045): each
 * variant has its own level, archived variants are out of the shop, and a
 * product is in stock while some live variant has a unit. The same words
 * drizzle/0022's trigger uses to decide when a product sells out or comes
 * back, so the index's bit and these never disagree.
 *
 * For a statement that reads `products` (unaliased). The product's id is
 * written qualified on purpose: drizzle writes a column of a one-table select
 * bare ("id"), which inside these subqueries would be the variant's id.
 */
const productId = sql`${products}.${sql.identifier(products.id.name)}`;

/** The product's units on hand, summed over its live variants (0 if none). */
export const productUnitsOnHand: SQL<number> = sql<number>`(select coalesce(sum(s.on_hand), 0)::int
    from ${stockLevels} s join ${productVariants} v on v.id = s.variant_id
   where s.product_id = ${productId} and v.archived_at is null)`.mapWith(Number);

/** Whether some live variant of the product has a unit on hand. */
export const productInStock: SQL = sql`exists (select 1 from ${stockLevels} s join ${productVariants} v on v.id = s.variant_id
   where s.product_id = ${productId} and s.on_hand > 0 and v.archived_at is null)`;

/** How many live variants the product has: a card offers Add to cart for one, "Choose options" for more. */
export const productVariantCount: SQL<number> = sql<number>`(select count(*)::int from ${productVariants} v
   where v.product_id = ${productId} and v.archived_at is null)`.mapWith(Number);

/** How many options the product has (0: a product of one variant, whose price and stock are its own). */
export const productOptionCount: SQL<number> = sql<number>`(select count(*)::int from ${productOptions} o
   where o.product_id = ${productId})`.mapWith(Number);

/** The "was" price of the product's cheapest live variant while above its price (a card strikes it through), else null. */
export const productCompareAtMinor: SQL = sql`case when ${products.compareAtMinor} > ${products.priceMinor}
  then ${products.compareAtMinor} end`;

/** The product's highest live price: `price_max_minor` when its variants differ, its one price otherwise. */
export const productPriceMaxMinor: SQL = sql`coalesce(${products.priceMaxMinor}, ${products.priceMinor})`;
