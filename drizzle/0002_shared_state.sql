CREATE TABLE "demo_identity_provider_records" (
	"key" text PRIMARY KEY NOT NULL,
	"payload" jsonb NOT NULL,
	"uid" text,
	"grant_id" text,
	"user_code" text,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
CREATE TABLE "shop_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "demo_identity_provider_records_uid_idx" ON "demo_identity_provider_records" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "demo_identity_provider_records_grant_id_idx" ON "demo_identity_provider_records" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "demo_identity_provider_records_expires_at_idx" ON "demo_identity_provider_records" USING btree ("expires_at");