-- The few archived variants, for a product's level without them: the stock snapshot's look sums every
-- level by product and takes these off, rather than joining each level to its variant (docs/decisions/0045).
CREATE INDEX "product_variants_archived_idx" ON "product_variants" USING btree ("id") WHERE "product_variants"."archived_at" is not null;