ALTER TABLE "audit_log" ADD COLUMN "subject_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Entries written before names were kept: the lines a cancellation put back get the name they were
-- sold under and the product's SKU (order lines keep both as long as the order exists).
UPDATE "audit_log" SET "after" = jsonb_set("after", '{stockReturned}', (
  SELECT coalesce(jsonb_agg(returned.line || jsonb_build_object('name', ol."name", 'sku', p."sku")
                            ORDER BY returned.position), '[]'::jsonb)
  FROM jsonb_array_elements("audit_log"."after"->'stockReturned') WITH ORDINALITY AS returned(line, position)
  JOIN "orders" o ON o."number" = substr("audit_log"."subject", 7)
  JOIN "order_lines" ol ON ol."order_id" = o."id" AND ol."product_id" = (returned.line->>'productId')::integer
  JOIN "products" p ON p."id" = ol."product_id"
))
WHERE "subject" LIKE 'order:%' AND jsonb_typeof("after"->'stockReturned') = 'array'
  AND EXISTS (SELECT 1 FROM "orders" o WHERE o."number" = substr("audit_log"."subject", 7));--> statement-breakpoint
-- Their subjects named from what the entry holds (a product's name and SKU as the change wrote
-- them), else from the rows as they are now, else from the subject itself.
UPDATE "audit_log" SET "subject_name" = CASE
  WHEN "subject" LIKE 'product:%' THEN coalesce(
    "after"->>'name', "before"->>'name',
    (SELECT p."name" FROM "products" p WHERE p."id"::text = substr("audit_log"."subject", 9)),
    'product ' || substr("subject", 9)
  ) || coalesce(' (SKU ' || coalesce(
    "after"->>'sku', "before"->>'sku',
    (SELECT p."sku" FROM "products" p WHERE p."id"::text = substr("audit_log"."subject", 9))
  ) || ')', '')
  WHEN "subject" LIKE 'order:%' THEN 'order ' || substr("subject", 7)
  WHEN "subject" LIKE 'person:%' THEN coalesce(
    (SELECT u."name" || ' (' || u."email" || ')' FROM "users" u WHERE u."email" = substr("audit_log"."subject", 8)),
    substr("subject", 8)
  )
  WHEN "subject" LIKE 'review:%' THEN 'a review of ' || coalesce(
    (SELECT p."name" || ' (SKU ' || p."sku" || ')' FROM "products" p WHERE p."id"::text = "audit_log"."after"->>'product'),
    'a product'
  )
  WHEN "subject" LIKE 'brand:%' THEN 'the brand ' || substr("subject", 7)
  WHEN "subject" LIKE 'category:%' THEN 'the category ' || substr("subject", 10)
  WHEN "subject" = 'settings' THEN 'the shop''s settings'
  WHEN "subject" = 'catalog' THEN 'the catalogue'
  ELSE "subject"
END
WHERE "subject_name" = '';--> statement-breakpoint
-- And found by the same names as new entries: the actor, the subject, the products put back, a product's old name.
UPDATE "audit_log" SET "search_text" = concat_ws(E'\n',
  "actor_email", "subject_name", "subject", "before"->>'name', "before"->>'sku',
  (SELECT string_agg((line->>'name') || ' (SKU ' || (line->>'sku') || ')', E'\n')
   FROM jsonb_array_elements(CASE WHEN jsonb_typeof("after"->'stockReturned') = 'array'
                                  THEN "after"->'stockReturned' ELSE '[]'::jsonb END) AS line)
)
WHERE "search_text" = '';
