-- A product's tax class (issue 35): the rate its tax zone gives that class ("reduced": 7 %), or the
-- zone's standard rate when null. Written as the setup document names classes (TAX_CLASS in
-- app/commerce/tax-class.ts).
ALTER TABLE "products" ADD COLUMN "tax_class" text;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_tax_class_check" CHECK ("products"."tax_class" ~ '^[a-z][a-z0-9-]{0,39}$');