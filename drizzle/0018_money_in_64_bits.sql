-- Money columns in 64 bits: the dearest price the shop accepts (99,999,999.99) and 99 of a $300,000
-- product are past 32 bits of cents. One ALTER per table, so each table is rewritten once.
ALTER TABLE "cart_lines" ALTER COLUMN "unit_price_cents_seen" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "order_lines"
  ALTER COLUMN "unit_price_cents" SET DATA TYPE bigint,
  ALTER COLUMN "line_total_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders"
  ALTER COLUMN "subtotal_cents" SET DATA TYPE bigint,
  ALTER COLUMN "shipping_cents" SET DATA TYPE bigint,
  ALTER COLUMN "total_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "card_payments" ALTER COLUMN "amount_cents" SET DATA TYPE bigint;
