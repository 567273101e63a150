-- Invoices and credit notes (issue 35, docs/decisions/0049): each document's number is taken from
-- its series' counter row for the year, in the transaction that issues it, so the numbers run
-- 1, 2, 3, … with no gap and no repeat. An issued document stays (restrict), whatever the order.
CREATE TABLE "document_counters" (
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "document_counters_series_year_pk" PRIMARY KEY("series","year"),
	CONSTRAINT "document_counters_series_check" CHECK ("document_counters"."series" in ('invoice', 'credit-note')),
	CONSTRAINT "document_counters_last_check" CHECK ("document_counters"."last" >= 1)
);
--> statement-breakpoint
CREATE TABLE "order_documents" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_documents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" bigint NOT NULL,
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"number" text NOT NULL,
	"credits_number" text,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_documents_series_check" CHECK ("order_documents"."series" in ('invoice', 'credit-note')),
	CONSTRAINT "order_documents_credits_check" CHECK (("order_documents"."series" = 'credit-note') = ("order_documents"."credits_number" is not null))
);
--> statement-breakpoint
ALTER TABLE "order_documents" ADD CONSTRAINT "order_documents_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_documents_order_series_idx" ON "order_documents" USING btree ("order_id","series");--> statement-breakpoint
CREATE UNIQUE INDEX "order_documents_number_idx" ON "order_documents" USING btree ("series","year","sequence");