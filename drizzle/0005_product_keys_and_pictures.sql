CREATE TABLE "product_pictures" (
	"name" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sku" text DEFAULT gen_random_uuid()::text NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "products_sku_idx" ON "products" USING btree ("sku");--> statement-breakpoint
-- Each change to the catalogue is also announced on the channel
-- "catalog_changed", delivered when its transaction commits (never before,
-- never for one rolled back). The payload is empty on purpose: PostgreSQL
-- folds equal notifications of one transaction into one, so an import of
-- many statements wakes each listening shop process once.
CREATE OR REPLACE FUNCTION "count_catalog_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "catalog_revisions" SET "revision" = "revision" + 1 WHERE "id" = 1;
  PERFORM pg_notify('catalog_changed', '');
  RETURN NULL;
END
$$;
