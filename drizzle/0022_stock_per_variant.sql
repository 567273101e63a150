-- Stock is per variant (docs/decisions/0045): each product's one row becomes its one variant's,
-- its product kept beside it so a checkout locks every row of a product in one index range.
ALTER TABLE "stock_levels" ADD COLUMN "variant_id" integer;--> statement-breakpoint
UPDATE "stock_levels" s SET "variant_id" = v."id" FROM "product_variants" v WHERE v."product_id" = s."product_id";--> statement-breakpoint
ALTER TABLE "stock_levels" ALTER COLUMN "variant_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_levels" DROP CONSTRAINT "stock_levels_pkey";--> statement-breakpoint
ALTER TABLE "stock_levels" ADD PRIMARY KEY ("variant_id");--> statement-breakpoint
ALTER TABLE "stock_levels" ADD CONSTRAINT "stock_levels_variant_fk" FOREIGN KEY ("variant_id","product_id") REFERENCES "public"."product_variants"("id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stock_levels_product_variant_idx" ON "stock_levels" USING btree ("product_id","variant_id");--> statement-breakpoint
-- Every variant has a stock level, made at 0 with it whoever inserts it (was every product, 0009).
DROP TRIGGER "products_add_stock_levels" ON "products";--> statement-breakpoint
DROP FUNCTION "add_stock_levels"();--> statement-breakpoint
CREATE FUNCTION "add_variant_stock_levels"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "stock_levels" ("variant_id", "product_id")
    SELECT "id", "product_id" FROM "added_variants" ORDER BY "id" ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "product_variants_add_stock_levels" AFTER INSERT ON "product_variants"
  REFERENCING NEW TABLE AS "added_variants" FOR EACH STATEMENT EXECUTE FUNCTION "add_variant_stock_levels"();--> statement-breakpoint
-- One product change recorded as drizzle/0008 records one: the revision counted up once, the
-- products' ids under it (NULL past 10,000), the last 1,000 revisions kept, and the revision
-- announced at commit. A function of its own, for every trigger that finds products changed
-- (the stock crossings below; a variant archived, next).
CREATE FUNCTION "record_catalog_changes"(changed integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  next_revision bigint;
BEGIN
  UPDATE "catalog_revisions" SET "revision" = "revision" + 1 WHERE "id" = 1 RETURNING "revision" INTO next_revision;
  IF cardinality(changed) > 10000 THEN
    INSERT INTO "catalog_changes" ("revision", "product_id") VALUES (next_revision, NULL);
  ELSE
    INSERT INTO "catalog_changes" ("revision", "product_id") SELECT next_revision, unnest(changed);
  END IF;
  DELETE FROM "catalog_changes" WHERE "revision" <= next_revision - 1000;
  PERFORM pg_notify('catalog_changed', next_revision::text);
END
$$;--> statement-breakpoint
-- 0011 recorded a catalogue change when a product's level crossed zero. A product now has a level
-- per variant, and what the index keeps is still one bit per product (some live variant has
-- stock): a change is recorded when the sum over the product's live variants crosses zero. The sum
-- before the statement is the sum after it less what the statement changed; a deleted row's
-- variant is gone, so it counts as live (at worst a change recorded that changed nothing).
CREATE OR REPLACE FUNCTION "record_stock_crossings"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
  deltas bigint[];
  crossed integer[];
BEGIN
  -- What the statement changed of each product's live sum (a product whose sum it left alone cannot
  -- have crossed).
  IF TG_OP = 'UPDATE' THEN
    -- A product's sum crosses zero only if one of its rows does: a sale that leaves each row it
    -- takes from with units on hand (nearly every sale) is settled by this join alone, as in 0011.
    SELECT array_agg(DISTINCT a."product_id") INTO ids
      FROM "levels_after" a JOIN "levels_before" b USING ("variant_id")
     WHERE (b."on_hand" > 0) <> (a."on_hand" > 0);
    IF ids IS NULL THEN
      RETURN NULL;
    END IF;
    SELECT array_agg("product_id"), array_agg("delta") INTO ids, deltas FROM (
      SELECT d."product_id", sum(d."delta") AS "delta" FROM (
        SELECT a."product_id", a."on_hand"::bigint AS "delta" FROM "levels_after" a
          JOIN "product_variants" v ON v."id" = a."variant_id" WHERE v."archived_at" IS NULL
        UNION ALL
        SELECT b."product_id", -b."on_hand"::bigint FROM "levels_before" b
          JOIN "product_variants" v ON v."id" = b."variant_id" WHERE v."archived_at" IS NULL
      ) d WHERE d."product_id" = any(ids) GROUP BY d."product_id" HAVING sum(d."delta") <> 0) changed;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg("product_id"), array_agg("delta") INTO ids, deltas FROM (
      SELECT a."product_id", sum(a."on_hand")::bigint AS "delta" FROM "levels_after" a
        JOIN "product_variants" v ON v."id" = a."variant_id" WHERE v."archived_at" IS NULL
       GROUP BY a."product_id" HAVING sum(a."on_hand") <> 0) changed;
  ELSE
    SELECT array_agg("product_id"), array_agg("delta") INTO ids, deltas FROM (
      SELECT b."product_id", -sum(b."on_hand")::bigint AS "delta" FROM "levels_before" b
        LEFT JOIN "product_variants" v ON v."id" = b."variant_id" WHERE v."archived_at" IS NULL
       GROUP BY b."product_id" HAVING sum(b."on_hand") <> 0) changed;
  END IF;
  IF ids IS NULL THEN
    RETURN NULL;
  END IF;
  -- Deleted with its product (the cascade): that delete is recorded already.
  SELECT array_agg(changed."product_id") INTO crossed
    FROM unnest(ids, deltas) AS changed("product_id", "delta")
    CROSS JOIN LATERAL (
      SELECT coalesce(sum(s."on_hand"), 0) AS "total" FROM "stock_levels" s
        JOIN "product_variants" v ON v."id" = s."variant_id"
       WHERE s."product_id" = changed."product_id" AND v."archived_at" IS NULL) now
   WHERE (now."total" > 0) <> (now."total" - changed."delta" > 0)
     AND EXISTS (SELECT 1 FROM "products" p WHERE p."id" = changed."product_id");
  IF crossed IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM "record_catalog_changes"(crossed);
  RETURN NULL;
END
$$;
