-- A stock level is a catalogue change only when it crosses zero: the product sells out, or comes
-- back in stock. That is all the search index keeps of stock (one bit, the "In stock only" filter,
-- docs/decisions/0027), so a sale that leaves units on hand counts no revision, takes no lock on
-- catalog_revisions and makes no process apply anything. A crossing is recorded as drizzle/0008
-- records a product's change: the revision counted up once per statement, the products' ids under
-- it (NULL past 10,000), the last 1,000 revisions kept, and the revision announced at commit.
CREATE FUNCTION "record_stock_crossings"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  crossed integer[];
  next_revision bigint;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    SELECT array_agg(DISTINCT "after"."product_id") INTO crossed
      FROM "levels_after" AS "after" JOIN "levels_before" AS "before" USING ("product_id")
      WHERE ("before"."on_hand" > 0) <> ("after"."on_hand" > 0);
  ELSIF TG_OP = 'INSERT' THEN
    -- A product's own row is inserted at 0 (drizzle/0009) and its insert recorded already.
    SELECT array_agg(DISTINCT "product_id") INTO crossed FROM "levels_after" WHERE "on_hand" > 0;
  ELSE
    -- Deleted with its product (the cascade): that delete is recorded already.
    SELECT array_agg(DISTINCT "before"."product_id") INTO crossed FROM "levels_before" AS "before"
      WHERE "before"."on_hand" > 0 AND EXISTS (SELECT 1 FROM "products" WHERE "products"."id" = "before"."product_id");
  END IF;
  IF crossed IS NULL THEN
    RETURN NULL;
  END IF;
  UPDATE "catalog_revisions" SET "revision" = "revision" + 1 WHERE "id" = 1 RETURNING "revision" INTO next_revision;
  IF cardinality(crossed) > 10000 THEN
    INSERT INTO "catalog_changes" ("revision", "product_id") VALUES (next_revision, NULL);
  ELSE
    INSERT INTO "catalog_changes" ("revision", "product_id") SELECT next_revision, unnest(crossed);
  END IF;
  DELETE FROM "catalog_changes" WHERE "revision" <= next_revision - 1000;
  PERFORM pg_notify('catalog_changed', next_revision::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "stock_levels_updated" AFTER UPDATE ON "stock_levels"
  REFERENCING OLD TABLE AS "levels_before" NEW TABLE AS "levels_after"
  FOR EACH STATEMENT EXECUTE FUNCTION "record_stock_crossings"();--> statement-breakpoint
CREATE TRIGGER "stock_levels_inserted" AFTER INSERT ON "stock_levels"
  REFERENCING NEW TABLE AS "levels_after" FOR EACH STATEMENT EXECUTE FUNCTION "record_stock_crossings"();--> statement-breakpoint
CREATE TRIGGER "stock_levels_deleted" AFTER DELETE ON "stock_levels"
  REFERENCING OLD TABLE AS "levels_before" FOR EACH STATEMENT EXECUTE FUNCTION "record_stock_crossings"();--> statement-breakpoint
CREATE TRIGGER "stock_levels_truncated" AFTER TRUNCATE ON "stock_levels"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_catalog_revision"();
