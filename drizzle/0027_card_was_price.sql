-- A card's "was" price (docs/decisions/0045): the compare-at price of the product's cheapest live
-- variant, written by the variant writer with the price range; shown while above the price.
ALTER TABLE "products" ADD COLUMN "compare_at_minor" bigint;--> statement-breakpoint
UPDATE "products" p SET "compare_at_minor" = cheapest.was
  FROM (SELECT v."product_id", min(v."compare_at_minor") AS was
          FROM "product_variants" v JOIN "products" q ON q."id" = v."product_id"
         WHERE v."archived_at" IS NULL AND v."price_minor" = q."price_minor" AND v."compare_at_minor" IS NOT NULL
         GROUP BY v."product_id") cheapest
 WHERE p."id" = cheapest."product_id";
