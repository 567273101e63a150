CREATE TABLE "products" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text NOT NULL,
	"image" text NOT NULL,
	"price" numeric(10, 2) NOT NULL,
	"ratings" numeric(2, 1) NOT NULL,
	"band_name" text NOT NULL,
	"category" text NOT NULL,
	"creation_date" timestamp with time zone NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (
  setweight(to_tsvector('english', "name"), 'A') ||
  setweight(to_tsvector('simple', "name"), 'A') ||
  setweight(to_tsvector('simple', "band_name" || ' ' || "category"), 'B') ||
  setweight(to_tsvector('english', "category"), 'B') ||
  setweight(to_tsvector('english', "description"), 'C') ||
  setweight(to_tsvector('simple', "description"), 'D')) STORED NOT NULL
);
--> statement-breakpoint
CREATE INDEX "products_price_id_idx" ON "products" USING btree ("price","id");--> statement-breakpoint
CREATE INDEX "products_creation_date_id_idx" ON "products" USING btree ("creation_date","id");--> statement-breakpoint
CREATE INDEX "products_band_name_price_id_idx" ON "products" USING btree ("band_name","price","id");--> statement-breakpoint
CREATE INDEX "products_category_price_id_idx" ON "products" USING btree ("category","price","id");--> statement-breakpoint
CREATE INDEX "products_band_name_creation_date_id_idx" ON "products" USING btree ("band_name","creation_date","id");--> statement-breakpoint
CREATE INDEX "products_category_creation_date_id_idx" ON "products" USING btree ("category","creation_date","id");--> statement-breakpoint
CREATE INDEX "products_search_vector_idx" ON "products" USING gin ("search_vector");