import { sql } from "drizzle-orm";
import type { Transaction } from "../../app/db/client.server";

/** Sizes as a clothing or shoe shop lists them: a product takes the first 1 to 12. */
const SIZES = ["XS", "S", "M", "L", "XL", "XXL", "36", "38", "40", "42", "44", "46"];
/** Each variant is this many minor units dearer than the one before it (a dollar). */
const PRICE_STEP_MINOR = 100;

/**
 * Gives a third of a generated catalogue's products options and variants, as
 * a shop selling clothes would have them (docs/decisions/0045): every third
 * product, half of those in 2 to 12 sizes, the other half in 1 to 6 sizes ×
 * two colours (2 to 12 variants), each variant a dollar dearer than the last.
 * Written in bulk, not through the variant writer (a third of a million
 * products one transaction each would take the better part of an hour): the
 * product's own variant becomes its first, the others are added (their stock
 * rows come with them, drizzle/0022), and the price range is written last.
 */
export async function giveSyntheticVariants(
  tx: Transaction,
): Promise<{ products: number; variants: number }> {
  await tx.execute(sql`
    create temp table synthetic_variant_plan on commit drop as
    select id, sku, price_minor, (id % 6 = 3) as coloured,
           case when id % 6 = 0 then 2 + (id / 6) % 11 else 1 + (id / 6) % 6 end as sizes
      from products where id % 3 = 0`);
  // Statistics, so the joins below are planned for a third of a million rows, not a guess.
  await tx.execute(sql`analyze synthetic_variant_plan`);
  const sizes = sql`${`{${SIZES.join(",")}}`}::text[]`;
  await tx.execute(sql`
    insert into product_options (product_id, position, name, values)
    select id, 1, 'Size',
           (select jsonb_agg(jsonb_build_object('value', size) order by at)
              from unnest(${sizes}) with ordinality as listed(size, at) where at <= sizes)
      from synthetic_variant_plan
    union all
    select id, 2, 'Colour', '[{"value": "Black", "swatch": "#111827"}, {"value": "Blue", "swatch": "#1d4ed8"}]'::jsonb
      from synthetic_variant_plan where coloured`);
  await tx.execute(sql`
    update product_variants v set option1 = 'XS', option2 = case when plan.coloured then 'Black' end
      from synthetic_variant_plan plan where v.product_id = plan.id`);
  const added = await tx.execute(sql`
    insert into product_variants (product_id, sku, option1, option2, price_minor, position)
    select plan.id, plan.sku || '-' || made.n, (${sizes})[size.at],
           case when plan.coloured then (array['Black', 'Blue'])[colour.at] end,
           plan.price_minor + (made.n - 1) * ${PRICE_STEP_MINOR}, made.n - 1
      from synthetic_variant_plan plan
      cross join lateral generate_series(1, plan.sizes) as size(at)
      cross join lateral generate_series(1, case when plan.coloured then 2 else 1 end) as colour(at)
      cross join lateral (select (size.at - 1) * (case when plan.coloured then 2 else 1 end) + colour.at as n) made
     where made.n > 1`);
  await tx.execute(sql`
    update products p set price_max_minor = p.price_minor
           + (plan.sizes * (case when plan.coloured then 2 else 1 end) - 1) * ${PRICE_STEP_MINOR}
      from synthetic_variant_plan plan
     where p.id = plan.id and plan.sizes * (case when plan.coloured then 2 else 1 end) > 1`);
  const [counted] = (
    (await tx.execute(sql`select count(*)::int as products from synthetic_variant_plan`)) as unknown as {
      rows: { products: number }[];
    }
  ).rows;
  return {
    products: counted?.products ?? 0,
    variants: (added as unknown as { rowCount?: number; affectedRows?: number }).rowCount ?? 0,
  };
}
