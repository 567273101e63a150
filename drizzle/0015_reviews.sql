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
-- increments in the transaction of every change to a review — a cascade from a deleted account or
-- product included — so two reviews written at once both count, whichever commits first. The
-- product's row is updated, so its catalogue change is recorded and every process's search index
-- applies that one product (0008, docs/decisions/0026). With no published review left, 0.
CREATE FUNCTION "count_review_into_rating"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted_before boolean := TG_OP <> 'INSERT' AND OLD."hidden_at" IS NULL;
  counted_after boolean := TG_OP <> 'DELETE' AND NEW."hidden_at" IS NULL;
BEGIN
  IF counted_before AND counted_after AND OLD."product_id" = NEW."product_id" THEN
    IF OLD."rating" <> NEW."rating" THEN
      UPDATE "products" SET
        "rating_sum" = "rating_sum" - OLD."rating" + NEW."rating",
        "ratings" = round(("rating_sum" - OLD."rating" + NEW."rating")::numeric / "rating_count", 1)
      WHERE "id" = NEW."product_id";
    END IF;
    RETURN NULL;
  END IF;
  IF counted_before THEN
    UPDATE "products" SET
      "rating_sum" = "rating_sum" - OLD."rating",
      "rating_count" = "rating_count" - 1,
      "ratings" = CASE WHEN "rating_count" > 1
        THEN round(("rating_sum" - OLD."rating")::numeric / ("rating_count" - 1), 1) ELSE 0 END
    WHERE "id" = OLD."product_id";
  END IF;
  IF counted_after THEN
    UPDATE "products" SET
      "rating_sum" = "rating_sum" + NEW."rating",
      "rating_count" = "rating_count" + 1,
      "ratings" = round(("rating_sum" + NEW."rating")::numeric / ("rating_count" + 1), 1)
    WHERE "id" = NEW."product_id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "reviews_count_into_ratings" AFTER INSERT OR UPDATE OR DELETE ON "reviews"
  FOR EACH ROW EXECUTE FUNCTION "count_review_into_rating"();
