CREATE TABLE "product_options" (
	"product_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"values" jsonb NOT NULL,
	CONSTRAINT "product_options_product_id_position_pk" PRIMARY KEY("product_id","position"),
	CONSTRAINT "product_options_position_check" CHECK ("product_options"."position" between 1 and 3)
);
--> statement-breakpoint
CREATE TABLE "product_variants" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "product_variants_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"option1" text,
	"option2" text,
	"option3" text,
	"price_minor" bigint NOT NULL,
	"compare_at_minor" bigint,
	"weight_grams" integer,
	"image" text,
	"position" integer DEFAULT 0 NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "product_variants_id_product_unique" UNIQUE("id","product_id"),
	CONSTRAINT "product_variants_price_check" CHECK ("product_variants"."price_minor" >= 0),
	CONSTRAINT "product_variants_compare_at_check" CHECK ("product_variants"."compare_at_minor" is null or "product_variants"."compare_at_minor" > "product_variants"."price_minor"),
	CONSTRAINT "product_variants_weight_check" CHECK ("product_variants"."weight_grams" is null or "product_variants"."weight_grams" >= 0),
	CONSTRAINT "product_variants_values_check" CHECK ("product_variants"."option1" <> '' and "product_variants"."option2" <> '' and "product_variants"."option3" <> '')
);
--> statement-breakpoint
ALTER TABLE "product_options" ADD CONSTRAINT "product_options_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_options_name_idx" ON "product_options" USING btree ("product_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_sku_idx" ON "product_variants" USING btree ("sku");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_values_idx" ON "product_variants" USING btree ("product_id",coalesce("option1", ''),coalesce("option2", ''),coalesce("option3", '')) WHERE "product_variants"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "product_variants_product_idx" ON "product_variants" USING btree ("product_id","position","id");--> statement-breakpoint
-- Every product there now is one variant: its SKU and price (docs/decisions/0045).
INSERT INTO "product_variants" ("product_id", "sku", "price_minor")
  SELECT "id", "sku", "price_minor" FROM "products" ORDER BY "id";--> statement-breakpoint
-- Until the variant writer owns them, a product without options stays one variant whoever writes
-- it (the product form, the import, the seed, a script): a new product gets its variant, and its
-- SKU and price follow the product's. A product with options, or with more than one variant, is
-- its variants' alone.
CREATE FUNCTION "add_first_variants"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "product_variants" ("product_id", "sku", "price_minor")
    SELECT "id", "sku", "price_minor" FROM "added_products" ORDER BY "id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_add_first_variants" AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS "added_products" FOR EACH STATEMENT EXECUTE FUNCTION "add_first_variants"();--> statement-breakpoint
CREATE FUNCTION "follow_single_variants"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "product_variants" v SET "sku" = n."sku", "price_minor" = n."price_minor"
    FROM "changed_products" n
   WHERE v."product_id" = n."id"
     AND (v."sku", v."price_minor") IS DISTINCT FROM (n."sku", n."price_minor")
     AND NOT EXISTS (SELECT 1 FROM "product_options" o WHERE o."product_id" = n."id")
     AND NOT EXISTS (SELECT 1 FROM "product_variants" w WHERE w."product_id" = n."id" AND w."id" <> v."id");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_follow_single_variants" AFTER UPDATE ON "products"
  REFERENCING NEW TABLE AS "changed_products" FOR EACH STATEMENT EXECUTE FUNCTION "follow_single_variants"();
