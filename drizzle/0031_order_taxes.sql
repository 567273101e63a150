-- An order keeps the taxes it was charged (issue 35, docs/decisions/0048): each line's, the total and
-- the breakdown by rate, whether its prices contained them, and its shipping method's name as its zone
-- offered it. Orders from before keep 0 tax, prices excluding it: what they were charged.
ALTER TABLE "order_lines" DROP CONSTRAINT "order_lines_total_check";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_total_check";--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "tax_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_method_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "prices_include_tax" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "taxes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_total_check" CHECK ("order_lines"."unit_price_cents" >= 0 and "order_lines"."line_total_cents" = "order_lines"."unit_price_cents" * "order_lines"."quantity" and "order_lines"."tax_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_total_check" CHECK ("orders"."subtotal_cents" >= 0 and "orders"."shipping_cents" >= 0 and "orders"."tax_cents" >= 0 and "orders"."total_cents" = "orders"."subtotal_cents" + "orders"."shipping_cents" + case when "orders"."prices_include_tax" then 0 else "orders"."tax_cents" end);