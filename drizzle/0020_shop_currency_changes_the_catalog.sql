-- An owner's new currency (shop_settings 'currency', set at /admin/settings) changes how every card
-- writes its decimal price (JPY has no decimals, KWD three): it is a change of the whole catalogue,
-- counted and announced as one (count_catalog_revision, drizzle/0008), so every process reads its
-- index again and no answer kept from before the change is given.
CREATE TRIGGER "shop_currency_changes_the_catalog" AFTER INSERT OR UPDATE ON "shop_settings"
  FOR EACH ROW WHEN (NEW."name" = 'currency') EXECUTE FUNCTION "count_catalog_revision"();
