CREATE TABLE "brands" (
	"value" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"value" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- A shop that already has products keeps them: every brand and category they
-- carry becomes a row, labelled as the demo catalogue labels it, or by its
-- value when it is not a demo one (the owner can relabel it).
INSERT INTO "brands" ("value", "label", "position")
SELECT DISTINCT "band_name",
  CASE "band_name" WHEN 'teachPro' THEN 'TeachPro' WHEN 'cycleFit' THEN 'CycleFit' WHEN 'blendMaster' THEN 'BlendMaster'
    WHEN 'artistry' THEN 'Artistry' WHEN 'campSafe' THEN 'CampSafe' ELSE "band_name" END,
  CASE "band_name" WHEN 'teachPro' THEN 1 WHEN 'cycleFit' THEN 2 WHEN 'blendMaster' THEN 3
    WHEN 'artistry' THEN 4 WHEN 'campSafe' THEN 5 ELSE 0 END
FROM "products";--> statement-breakpoint
INSERT INTO "categories" ("value", "label", "position")
SELECT DISTINCT "category",
  CASE "category" WHEN 'electronics' THEN 'Electronics' WHEN 'fitness' THEN 'Fitness' WHEN 'home appliances' THEN 'Home appliances'
    WHEN 'home goods' THEN 'Home goods' WHEN 'outdoor' THEN 'Outdoor' ELSE "category" END,
  CASE "category" WHEN 'electronics' THEN 1 WHEN 'fitness' THEN 2 WHEN 'home appliances' THEN 3
    WHEN 'home goods' THEN 4 WHEN 'outdoor' THEN 5 ELSE 0 END
FROM "products";--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_band_name_brands_value_fk" FOREIGN KEY ("band_name") REFERENCES "public"."brands"("value") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_category_categories_value_fk" FOREIGN KEY ("category") REFERENCES "public"."categories"("value") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_ratings_creation_date_id_idx" ON "products" USING btree ("ratings" DESC NULLS LAST,"creation_date" DESC NULLS LAST,"id");