/**
 * The floor server's statements (bench/floor-server.mjs): each text as the shop sends it, comments
 * and line breaks aside (bench/floor-check.ts compares them, and says which to copy when the shop's
 * change).
 */
export const SQL = {
  add: `
    with cart as (insert into "carts" (token_hash, expires_at)
          values ($1, now() + $2 * interval '1 day')
          on conflict (token_hash) do update set expires_at = excluded.expires_at returning id),
    variant as (
      select v.id, s.on_hand, v.price_minor as price_cents, count(*) over () as choices
        from "product_variants" v
        join "products" on "products"."id" = v.product_id
        join "stock_levels" s on s.variant_id = v.id
       where v.product_id = $3 and v.archived_at is null and "products"."archived_at" is null
         and ($4::int is null or v.id = $5::int)),
    chosen as (select * from variant where choices = 1),
    before as (
      select l.quantity from "cart_lines" l join cart on l.cart_id = cart.id join chosen on l.variant_id = chosen.id),
    line as (
      insert into "cart_lines" (cart_id, variant_id, product_id, quantity, unit_price_cents_seen, currency_seen)
      select cart.id, chosen.id, $6, least($7, $8, chosen.on_hand),
             chosen.price_cents, $9
        from cart, chosen where chosen.on_hand > 0
      on conflict (cart_id, variant_id) do update
        set quantity = least("cart_lines"."quantity" + $10, $11, (select "stock_levels"."on_hand" from "stock_levels" where "stock_levels"."variant_id" = excluded.variant_id)),
            unit_price_cents_seen = excluded.unit_price_cents_seen,
            currency_seen = excluded.currency_seen
      returning quantity)
    select (select id from cart) as "cartId", (select id from chosen) as "variantId",
           (select on_hand from chosen) as "stock",
           (select quantity from before) as "before", (select quantity from line) as "quantity"`,
  readCart: `select "cart_lines"."product_id" as "productId", "cart_lines"."variant_id" as "variantId", "products"."name" as "name", v.sku as "sku", coalesce(( select jsonb_object_agg(o.name, value order by o.position) from "product_options" o, lateral (select case o.position when 1 then v.option1 when 2 then v.option2 else v.option3 end as value) chosen where o.product_id = v.product_id and value is not null), '{}'::jsonb) as "options", coalesce(v.image, "products"."image") as "image", v.price_minor as "unitPriceCents", "cart_lines"."unit_price_cents_seen" as "unitPriceCentsSeen", "cart_lines"."currency_seen" as "currencySeen", "cart_lines"."quantity" as "quantity", "stock_levels"."on_hand" as "stock" from "cart_lines" join "carts" on "carts"."id" = "cart_lines"."cart_id" join "product_variants" v on v.id = "cart_lines"."variant_id" join "products" on "products"."id" = "cart_lines"."product_id" join "stock_levels" on "stock_levels"."variant_id" = "cart_lines"."variant_id" where "carts"."id" = $1 order by "cart_lines"."added_at", "cart_lines"."product_id", "cart_lines"."variant_id"`,
  guestCart: `select "carts"."id" as "id" from "carts" where "carts"."token_hash" = $1 and ("carts"."expires_at" is null or "carts"."expires_at" > now())`,
  taxSetup: `select "value" from "shop_settings" where "shop_settings"."name" = $1`,
  settings: (count) =>
    `select "name", "value" from "shop_settings" where "shop_settings"."name" in (${params(1, count)})`,
  claimKey: `insert into "orders" (number, idempotency_scope, idempotency_key, request_hash, user_id, email, shipping_address, shipping_method, payment_method, status, payment_due_at, subtotal_cents, shipping_cents, total_cents, currency) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, 0, 0, $12) on conflict (idempotency_scope, idempotency_key) do nothing returning "orders"."id" as "id"`,
  lockCart: `select "carts"."id" as "id" from "carts" where "carts"."id" = $1 for update`,
  cartLines: `select "cart_lines"."product_id" as "productId", "cart_lines"."variant_id" as "variantId", "cart_lines"."quantity" as "quantity" from "cart_lines" where "cart_lines"."cart_id" = $1`,
  lockStock: `select "stock_levels"."variant_id" from "stock_levels" where "stock_levels"."product_id" = any($1::int[]) order by "stock_levels"."product_id", "stock_levels"."variant_id" for update`,
  takeStock: `update "stock_levels" set on_hand = "stock_levels"."on_hand" - asked.quantity from unnest($1::int[], $2::int[], $3::int[]) as asked(product_id, variant_id, quantity) where "stock_levels"."variant_id" = asked.variant_id and "stock_levels"."product_id" = asked.product_id and "stock_levels"."on_hand" >= asked.quantity and exists (select 1 from "product_variants" v join "products" on "products"."id" = v.product_id where v.id = asked.variant_id and v.archived_at is null and "products"."archived_at" is null) returning "stock_levels"."variant_id" as "variantId"`,
  sold: `select v.id as "variantId", v.product_id as "productId", "products"."name" as "name", v.sku as "sku", coalesce(( select jsonb_object_agg(o.name, value order by o.position) from "product_options" o, lateral (select case o.position when 1 then v.option1 when 2 then v.option2 else v.option3 end as value) chosen where o.product_id = v.product_id and value is not null), '{}'::jsonb) as "options", v.price_minor as "unitPriceCents", "products"."tax_class" as "taxClass", v.weight_grams as "weightGrams" from "product_variants" v join "products" on "products"."id" = v.product_id where v.id = any($1::int[])`,
  orderLines: `insert into "order_lines" (order_id, product_id, variant_id, name, sku, options, unit_price_cents, quantity, line_total_cents, tax_cents) select $1, line.* from unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::jsonb[], $7::bigint[], $8::int[], $9::bigint[], $10::bigint[]) as line`,
  emptyCart: `delete from "cart_lines" where "cart_lines"."cart_id" = $1`,
  totals: `update "orders" set subtotal_cents = $1, shipping_cents = $2, total_cents = $3, tax_cents = $4, taxes = $5::jsonb, prices_include_tax = $6, shipping_method_name = $7 where "orders"."id" = $8 returning "orders"."number" as "number", "orders"."status" as "status", "orders"."total_cents" as "totalCents"`,
  queueMail: `insert into "mail_queue" (kind, recipient, subject, text_body, html_body, expires_at) values ($1, $2, $3, $4, $5, $6)`,
  claimMail: `update "mail_queue" set locked_until = now() + $1::int * interval '1 second', attempts = "mail_queue"."attempts" + 1, updated_at = now() where "mail_queue"."id" in ( select "mail_queue"."id" from "mail_queue" where "mail_queue"."status" = 'pending' and "mail_queue"."next_attempt_at" <= now() and ("mail_queue"."locked_until" is null or "mail_queue"."locked_until" <= now()) order by "mail_queue"."next_attempt_at", "mail_queue"."id" limit $2 for update skip locked) returning "mail_queue"."id" as "id", "mail_queue"."kind" as "kind", "mail_queue"."recipient" as "to", "mail_queue"."subject" as "subject", "mail_queue"."text_body" as "text", "mail_queue"."html_body" as "html", "mail_queue"."attempts" as "attempts", coalesce("mail_queue"."expires_at" <= now(), false) as "expired"`,
  mailSent: `update "mail_queue" set status = $1, last_error = coalesce($2, "mail_queue"."last_error"), locked_until = null, recipient = null, subject = null, text_body = null, html_body = null, updated_at = now() where "mail_queue"."id" = $3`,
  nextMailDue: `select extract(epoch from min(greatest("mail_queue"."next_attempt_at", coalesce("mail_queue"."locked_until", "mail_queue"."next_attempt_at"))) - now())::float8 as "seconds" from "mail_queue" where "mail_queue"."status" = 'pending'`,
  sweepMail: `delete from "mail_queue" where ("mail_queue"."status" <> $1 and "mail_queue"."updated_at" < now() - interval '7 days')`,
};

function params(first, count) {
  return Array.from({ length: count }, (_, at) => `$${first + at}`).join(", ");
}
