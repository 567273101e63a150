CREATE TABLE "catalog_changes" (
	"revision" bigint NOT NULL,
	"product_id" integer
);
--> statement-breakpoint
CREATE INDEX "catalog_changes_revision_idx" ON "catalog_changes" USING btree ("revision");--> statement-breakpoint
-- Each statement that changes the catalogue counts the revision up once (as 0004 did), records
-- which products it changed under that revision (NULL: it may have changed anything), keeps the
-- last 1,000 revisions' records, and announces the revision on 'catalog_changed' at commit. The
-- row lock on catalog_revisions is held to the end of the transaction, so revisions commit in order.
CREATE OR REPLACE FUNCTION "count_catalog_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next_revision bigint;
BEGIN
  UPDATE "catalog_revisions" SET "revision" = "revision" + 1 WHERE "id" = 1 RETURNING "revision" INTO next_revision;
  INSERT INTO "catalog_changes" ("revision", "product_id") VALUES (next_revision, NULL);
  DELETE FROM "catalog_changes" WHERE "revision" <= next_revision - 1000;
  PERFORM pg_notify('catalog_changed', next_revision::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Products: the same, with the ids of the rows the statement inserted, updated or deleted
-- (its transition table), or NULL past 10,000 rows, where reading the catalogue again is cheaper.
CREATE FUNCTION "record_product_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next_revision bigint;
  changed bigint;
BEGIN
  SELECT count(*) INTO changed FROM "changed_rows";
  IF changed = 0 THEN
    RETURN NULL;
  END IF;
  UPDATE "catalog_revisions" SET "revision" = "revision" + 1 WHERE "id" = 1 RETURNING "revision" INTO next_revision;
  IF changed > 10000 THEN
    INSERT INTO "catalog_changes" ("revision", "product_id") VALUES (next_revision, NULL);
  ELSE
    INSERT INTO "catalog_changes" ("revision", "product_id") SELECT next_revision, "id" FROM "changed_rows";
  END IF;
  DELETE FROM "catalog_changes" WHERE "revision" <= next_revision - 1000;
  PERFORM pg_notify('catalog_changed', next_revision::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "products_change_the_catalog" ON "products";--> statement-breakpoint
CREATE TRIGGER "products_inserted" AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_product_changes"();--> statement-breakpoint
CREATE TRIGGER "products_updated" AFTER UPDATE ON "products"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_product_changes"();--> statement-breakpoint
CREATE TRIGGER "products_deleted" AFTER DELETE ON "products"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_product_changes"();--> statement-breakpoint
CREATE TRIGGER "products_truncated" AFTER TRUNCATE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_catalog_revision"();
