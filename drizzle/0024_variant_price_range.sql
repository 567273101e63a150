-- A product's price range (docs/decisions/0045): price_minor is its live variants' lowest price, and
-- price_max_minor their highest when they differ (a card says "From …"); null while they are one price,
-- as every product is until the variant writer gives one several.
ALTER TABLE "products" ADD COLUMN "price_max_minor" bigint;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_price_max_minor_check" CHECK ("products"."price_max_minor" is null or "products"."price_max_minor" > "products"."price_minor");