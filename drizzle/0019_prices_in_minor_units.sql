-- Product prices in whole minor units, the unit every total is summed in (app/commerce/money.ts).
-- Every shop so far priced in US dollars with two decimals, so a price's minor units are its
-- numeric(10,2) times 100, exactly: numeric arithmetic, no float. The indexes on price are rebuilt
-- by the type change itself (one rewrite of the table); the rename keeps them.
ALTER TABLE "products"
  ALTER COLUMN "price" SET DATA TYPE bigint USING ("price" * 100)::bigint,
  ADD CONSTRAINT "products_price_minor_check" CHECK ("price" >= 0);--> statement-breakpoint
ALTER TABLE "products" RENAME COLUMN "price" TO "price_minor";--> statement-breakpoint
-- Every order records its currency; those placed so far were in US dollars. The default only
-- fills the existing rows (no table rewrite since PostgreSQL 11) and is dropped: a new order names its own.
ALTER TABLE "orders" ADD COLUMN "currency" text NOT NULL DEFAULT 'USD';--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "currency" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_currency_check" CHECK ("orders"."currency" ~ '^[A-Z]{3}$');--> statement-breakpoint
ALTER TABLE "cart_lines" ADD COLUMN "currency_seen" text NOT NULL DEFAULT 'USD';--> statement-breakpoint
ALTER TABLE "cart_lines" ALTER COLUMN "currency_seen" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_currency_seen_check" CHECK ("cart_lines"."currency_seen" ~ '^[A-Z]{3}$');
