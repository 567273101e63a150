-- 0021's interim trigger kept a product without options and its one variant alike only while the
-- product had no other variant row, archived ones included. The variant writer archives a variant
-- an order names instead of deleting it, so a product of one live variant could have archived ones:
-- its price edited on the product form then moved the product's row and not the variant a cart
-- charges. It now follows the product's one live variant (docs/decisions/0045); a product with
-- options is its variants' alone (the product form and the import refuse its price and stock).
CREATE OR REPLACE FUNCTION "follow_single_variants"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "product_variants" v SET "sku" = n."sku", "price_minor" = n."price_minor"
    FROM "changed_products" n
   WHERE v."product_id" = n."id" AND v."archived_at" IS NULL
     AND (v."sku", v."price_minor") IS DISTINCT FROM (n."sku", n."price_minor")
     AND NOT EXISTS (SELECT 1 FROM "product_options" o WHERE o."product_id" = n."id")
     AND NOT EXISTS (SELECT 1 FROM "product_variants" w
                      WHERE w."product_id" = n."id" AND w."id" <> v."id" AND w."archived_at" IS NULL);
  RETURN NULL;
END $$;
