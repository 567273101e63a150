import { type SQL, sql } from "drizzle-orm";
import { productOptions } from "~/db/schema";

/**
 * A variant's option values by option name, as SQL of a jsonb object
 * (`{"Size": "M", "Colour": "Red"}`; `{}` for a product without options):
 * what a cart line, an order line and the API say a variant is. `variant`
 * is the alias of a `product_variants` row in the enclosing query.
 */
export const variantOptions = (variant: SQL) => sql`coalesce((
  select jsonb_object_agg(o.name, value order by o.position)
    from ${productOptions} o,
         lateral (select case o.position when 1 then ${variant}.option1 when 2 then ${variant}.option2
                                         else ${variant}.option3 end as value) chosen
   -- An archived variant made before an option was added has no value for it: left out, not null.
   where o.product_id = ${variant}.product_id and value is not null), '{}'::jsonb)`;
