CREATE TABLE "catalog_revisions" (
	"id" integer PRIMARY KEY NOT NULL,
	"revision" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "catalog_revisions" ("id", "revision") VALUES (1, 0);--> statement-breakpoint
-- Once per statement, not per row: an import of a million products counts up once.
-- The row lock it takes is held to the end of the transaction, so the new
-- revision is seen exactly when the change is.
CREATE FUNCTION "count_catalog_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "catalog_revisions" SET "revision" = "revision" + 1 WHERE "id" = 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "products_change_the_catalog" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_catalog_revision"();--> statement-breakpoint
CREATE TRIGGER "brands_change_the_catalog" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "brands"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_catalog_revision"();--> statement-breakpoint
CREATE TRIGGER "categories_change_the_catalog" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "categories"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_catalog_revision"();
