-- Cart and order lines are per variant (docs/decisions/0045). Every product is still its one
-- variant here (0021), so each line becomes its product's first variant's line; an order line's
-- SKU, not recorded until now, is that variant's SKU today, and its options are none.
ALTER TABLE "cart_lines" ADD COLUMN "variant_id" integer;--> statement-breakpoint
UPDATE "cart_lines" l SET "variant_id" = f."id" FROM (SELECT DISTINCT ON ("product_id") "product_id", "id", "sku" FROM "product_variants" ORDER BY "product_id", "position", "id") f WHERE f."product_id" = l."product_id";--> statement-breakpoint
ALTER TABLE "cart_lines" ALTER COLUMN "variant_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "cart_lines" DROP CONSTRAINT "cart_lines_cart_id_product_id_pk";--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_cart_id_variant_id_pk" PRIMARY KEY("cart_id","variant_id");--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_variant_fk" FOREIGN KEY ("variant_id","product_id") REFERENCES "public"."product_variants"("id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cart_lines_variant_idx" ON "cart_lines" USING btree ("variant_id");--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "sku" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "options" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
UPDATE "order_lines" l SET "variant_id" = f."id", "sku" = f."sku" FROM (SELECT DISTINCT ON ("product_id") "product_id", "id", "sku" FROM "product_variants" ORDER BY "product_id", "position", "id") f WHERE f."product_id" = l."product_id";--> statement-breakpoint
ALTER TABLE "order_lines" ALTER COLUMN "variant_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ALTER COLUMN "sku" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" DROP CONSTRAINT "order_lines_order_id_product_id_pk";--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_variant_id_pk" PRIMARY KEY("order_id","variant_id");--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_variant_fk" FOREIGN KEY ("variant_id","product_id") REFERENCES "public"."product_variants"("id","product_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_lines_variant_idx" ON "order_lines" USING btree ("variant_id");
