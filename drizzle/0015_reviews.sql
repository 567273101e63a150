CREATE TABLE "review_helpful_votes" (
	"review_id" bigint NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_helpful_votes_review_id_user_id_pk" PRIMARY KEY("review_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "review_posts" (
	"user_id" text NOT NULL,
	"posted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reviews_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"rating" smallint NOT NULL,
	"title" text,
	"body" text,
	"helpful_count" integer DEFAULT 0 NOT NULL,
	"hidden_at" timestamp with time zone,
	"hidden_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reviews_rating_check" CHECK ("reviews"."rating" between 1 and 5),
	CONSTRAINT "reviews_title_check" CHECK (char_length("reviews"."title") <= 120),
	CONSTRAINT "reviews_body_check" CHECK (char_length("reviews"."body") <= 5000)
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "rating_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "rating_sum" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "review_helpful_votes" ADD CONSTRAINT "review_helpful_votes_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_helpful_votes" ADD CONSTRAINT "review_helpful_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_posts" ADD CONSTRAINT "review_posts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_posts_user_idx" ON "review_posts" USING btree ("user_id","posted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_product_user_idx" ON "reviews" USING btree ("product_id","user_id");--> statement-breakpoint
CREATE INDEX "reviews_product_newest_idx" ON "reviews" USING btree ("product_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "reviews"."hidden_at" is null;--> statement-breakpoint
CREATE INDEX "reviews_product_helpful_idx" ON "reviews" USING btree ("product_id","helpful_count" DESC NULLS LAST,"created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "reviews"."hidden_at" is null;--> statement-breakpoint
CREATE INDEX "reviews_user_created_idx" ON "reviews" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "reviews_created_idx" ON "reviews" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Each product's rating is the mean of its published reviews (hidden ones do not count), kept by
-- increments in the transaction of every change to reviews — a cascade from a deleted account or
-- product included — so reviews written at once all count, whichever commits first. Once per
-- statement, whatever its number of rows: the seed's five hundred reviews are one catalogue change.
-- The catalogue's revision row is locked first, then the products in id order: an import, which
-- holds that row while it writes product after product, makes a review wait rather than deadlock.
-- The products' rows are updated, so the change is recorded and every process's search index
-- applies those products alone (0008, docs/decisions/0026). With no published review left, 0.
CREATE FUNCTION "count_reviews_into_ratings"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "ids" integer[];
  "stars" bigint[];
  "counts" bigint[];
BEGIN
  -- What the statement changed, per product: stars and published reviews added (or taken away).
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg("product_id" ORDER BY "product_id"), array_agg("s" ORDER BY "product_id"), array_agg("c" ORDER BY "product_id")
      INTO "ids", "stars", "counts"
      FROM (SELECT "product_id", sum("rating") AS "s", count(*) AS "c" FROM "new_reviews"
            WHERE "hidden_at" IS NULL GROUP BY "product_id") "added";
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg("product_id" ORDER BY "product_id"), array_agg("s" ORDER BY "product_id"), array_agg("c" ORDER BY "product_id")
      INTO "ids", "stars", "counts"
      FROM (SELECT "product_id", -sum("rating") AS "s", -count(*) AS "c" FROM "old_reviews"
            WHERE "hidden_at" IS NULL GROUP BY "product_id") "removed";
  ELSE
    SELECT array_agg("product_id" ORDER BY "product_id"), array_agg("s" ORDER BY "product_id"), array_agg("c" ORDER BY "product_id")
      INTO "ids", "stars", "counts"
      FROM (SELECT "product_id", sum("delta_stars") AS "s", sum("delta_reviews") AS "c" FROM (
              SELECT "product_id", "rating" AS "delta_stars", 1 AS "delta_reviews" FROM "new_reviews" WHERE "hidden_at" IS NULL
              UNION ALL
              SELECT "product_id", -"rating", -1 FROM "old_reviews" WHERE "hidden_at" IS NULL) "deltas"
            GROUP BY "product_id" HAVING sum("delta_stars") <> 0 OR sum("delta_reviews") <> 0) "changed";
  END IF;
  IF "ids" IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM "catalog_revisions" WHERE "id" = 1 FOR UPDATE;
  -- NO KEY UPDATE, as the update itself takes: a review being written holds its product's row
  -- with KEY SHARE (its foreign key) until it commits, which FOR UPDATE would wait for.
  PERFORM 1 FROM "products" WHERE "id" = ANY("ids") ORDER BY "id" FOR NO KEY UPDATE;
  UPDATE "products" SET
    "rating_sum" = "products"."rating_sum" + "change"."stars",
    "rating_count" = "products"."rating_count" + "change"."reviews",
    "ratings" = CASE WHEN "products"."rating_count" + "change"."reviews" > 0
      THEN round(("products"."rating_sum" + "change"."stars")::numeric / ("products"."rating_count" + "change"."reviews"), 1)
      ELSE 0 END
  FROM unnest("ids", "stars", "counts") AS "change"("product_id", "stars", "reviews")
  WHERE "products"."id" = "change"."product_id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "reviews_inserted_count_into_ratings" AFTER INSERT ON "reviews"
  REFERENCING NEW TABLE AS "new_reviews" FOR EACH STATEMENT EXECUTE FUNCTION "count_reviews_into_ratings"();--> statement-breakpoint
CREATE TRIGGER "reviews_updated_count_into_ratings" AFTER UPDATE ON "reviews"
  REFERENCING OLD TABLE AS "old_reviews" NEW TABLE AS "new_reviews" FOR EACH STATEMENT EXECUTE FUNCTION "count_reviews_into_ratings"();--> statement-breakpoint
CREATE TRIGGER "reviews_deleted_count_into_ratings" AFTER DELETE ON "reviews"
  REFERENCING OLD TABLE AS "old_reviews" FOR EACH STATEMENT EXECUTE FUNCTION "count_reviews_into_ratings"();
