-- Which transaction last changed a stock level, so that each process can read the levels changed
-- since it last looked (catalog/search/stock-snapshot.server.ts) instead of asking the database for
-- the stock of every listing it serves. A poll keeps the oldest transaction still running when it
-- read (pg_snapshot_xmin): every change committed after that poll carries an id at least as large.
ALTER TABLE "stock_levels" ADD COLUMN "changed_by" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "stock_levels_changed_by_idx" ON "stock_levels" USING btree ("changed_by");--> statement-breakpoint
CREATE FUNCTION "stamp_stock_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."changed_by" := pg_current_xact_id();
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "stock_levels_stamped" BEFORE UPDATE OF "on_hand" ON "stock_levels"
  FOR EACH ROW WHEN (OLD."on_hand" IS DISTINCT FROM NEW."on_hand") EXECUTE FUNCTION "stamp_stock_change"();
