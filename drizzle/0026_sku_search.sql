-- A shop search that is a SKU, typed in any case, finds its product (docs/decisions/0045): one
-- index probe per search, live variants only.
CREATE INDEX "product_variants_sku_search_idx" ON "product_variants" USING btree (lower("sku")) WHERE "product_variants"."archived_at" is null;
