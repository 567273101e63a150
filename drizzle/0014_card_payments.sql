CREATE TABLE "card_payments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "card_payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"checkout_session_id" text NOT NULL,
	"checkout_url" text,
	"status" text DEFAULT 'open' NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"payment_intent_id" text,
	"paid_at" timestamp with time zone,
	"needs_refund" boolean DEFAULT false NOT NULL,
	"refund_id" text,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_payments_checkout_session_id_unique" UNIQUE("checkout_session_id"),
	CONSTRAINT "card_payments_status_check" CHECK ("card_payments"."status" in ('open', 'paid', 'expired', 'failed', 'refunded')),
	CONSTRAINT "card_payments_amount_check" CHECK ("card_payments"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "demo_payment_provider_records" (
	"key" text PRIMARY KEY NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_check";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "card_payments" ADD CONSTRAINT "card_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_payments_order_attempt_idx" ON "card_payments" USING btree ("order_id","attempt");--> statement-breakpoint
CREATE INDEX "card_payments_open_idx" ON "card_payments" USING btree ("order_id") WHERE "card_payments"."status" = 'open';--> statement-breakpoint
CREATE INDEX "card_payments_needs_refund_idx" ON "card_payments" USING btree ("order_id") WHERE "card_payments"."needs_refund";--> statement-breakpoint
CREATE INDEX "orders_payment_due_idx" ON "orders" USING btree ("payment_due_at") WHERE "orders"."status" = 'awaiting-payment';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('awaiting-payment', 'placed', 'paid', 'shipped', 'cancelled'));