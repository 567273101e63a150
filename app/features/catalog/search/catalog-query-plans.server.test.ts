import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_BRANDS, DEMO_CATEGORIES } from "~/db/seed/demo-brands-and-categories";
import { insertDemoBrandsAndCategories } from "~/db/seed/seed.server";
import { planOf, type Recorded, recordingDatabase } from "../../../../tests/support/query-plans";
import { openTestDatabases, reportPostgresSkipped } from "../../../../tests/support/test-database";
import { createCatalog } from "../browsing/catalog.server";
import { SORT_VALUES } from "../core/catalog-vocabulary";

/**
 * Every query the catalogue sends PostgreSQL that orders products must read
 * that order from an index: at a million products a sort of a category's
 * rows took 3.9 s (a product page's related products), where the index
 * answers in milliseconds. The queries are recorded as the catalogue sends
 * them (drizzle's query log), then each is planned with sorting made
 * prohibitively expensive (enable_sort = off): a plan that still sorts has no
 * index to read the order from.
 *
 * Left out, each for its reason: searches (the matches of a search are
 * ordered after they are found; the in-memory index answers them,
 * docs/decisions/0021) and the vocabulary's read (an aggregate over words,
 * in the background every few minutes).
 */

const engines = await openTestDatabases();

const ordersProducts = ({ query }: Recorded) =>
  /\bfrom "products"/i.test(query) && /\border by\b/i.test(query);
const searches = ({ query }: Recorded) => query.includes("@@");
const readsVocabulary = ({ query }: Recorded) => query.includes("ts_stat");
/** The option values' counts: an aggregate over variants, as the facet matrix is over products, with no order to read. */
const countsOptionValues = ({ query }: Recorded) => query.includes("jsonb_each_text");
/** A text[] parameter (drizzle sends a JS array as a list of parameters, not one array). */
const textArray = (values: string[]) => sql`${`{${values.map((value) => `"${value}"`).join(",")}}`}::text[]`;
const SORT_NODE = /(^|->\s+)(Incremental )?Sort\b/m;

describe.each(engines)("the catalogue's queries on $name", (engine) => {
  const recorded: Recorded[] = [];

  beforeAll(async () => {
    await insertDemoBrandsAndCategories(engine.db);
    const brands = DEMO_BRANDS.map((brand) => brand.value);
    const categories = DEMO_CATEGORIES.map((category) => category.value);
    // A few thousand products: enough for the planner to weigh its choices; the
    // settings above make any sort dearer than any index, whatever the size.
    await engine.db.execute(sql`
      insert into products (name, description, image, price_minor, ratings, band_name, category, creation_date)
      select 'Product ' || n, 'A product to order.', '/images/products/x.svg', (n % 400) * 100 + 99,
             (n % 50) / 10.0, (${textArray(brands)})[1 + n % ${brands.length}],
             (${textArray(categories)})[1 + n % ${categories.length}],
             timestamptz '2026-01-01' + n * interval '1 hour'
      from generate_series(1, 3000) as n`);
    await engine.db.execute(sql`analyze products`);

    // What a process asks while its search index is read (SQL answers every listing)…
    const fromSql = createCatalog(
      recordingDatabase(engine, recorded),
      { cacheSeconds: 0 },
      { readCatalogIndex: async () => null },
    );
    for (const sort of [undefined, ...SORT_VALUES]) {
      for (const filter of [
        {},
        { category: [categories[0] as string] },
        { band: [brands[0] as string] },
        { range: 100 },
      ]) {
        await fromSql.findProducts({ page: 3, size: 5, sort, ...filter });
      }
    }
    await fromSql.countProducts({ category: [categories[0] as string] });
    await fromSql.listingFacets({ range: 50 });
    await fromSql.findProducts({ page: 1, size: 5, search: "product" });
    // …and what every process asks once it is: a product page, its related products, the sitemap.
    const withIndex = createCatalog(recordingDatabase(engine, recorded), { cacheSeconds: 0 });
    await withIndex.indexReady();
    const product = (await withIndex.product(42)).value;
    if (!product) throw new Error("product 42 was not found");
    await withIndex.relatedProducts(product, 4);
    await withIndex.sitemapProducts(100, 500);
    await withIndex.didYouMean({ search: "prodcut" });
  });

  it("records the statements it checks, including the product page's related products", () => {
    const checked = recorded.filter((statement) => ordersProducts(statement) && !searches(statement));
    expect(checked.length).toBeGreaterThan(20);
    expect(checked.some(({ query }) => /"category" = \$1 and "products"\."id" <> \$2/i.test(query))).toBe(
      true,
    );
    // The left-out kinds were sent too, so leaving them out is a choice, not an accident.
    expect(recorded.some(searches)).toBe(true);
    expect(recorded.some(readsVocabulary)).toBe(true);
    expect(recorded.some(countsOptionValues)).toBe(true);
  });

  it("reads the order of every product query from an index, never by sorting the rows", async () => {
    const sorting: string[] = [];
    for (const statement of recorded) {
      if (
        !ordersProducts(statement) ||
        searches(statement) ||
        readsVocabulary(statement) ||
        countsOptionValues(statement)
      )
        continue;
      const plan = await planOf(engine, statement);
      if (SORT_NODE.test(plan))
        sorting.push(`${statement.query}\n  params ${JSON.stringify(statement.params)}\n${plan}`);
    }
    expect(sorting, sorting.join("\n\n")).toEqual([]);
  });
});
reportPostgresSkipped("the catalogue's queries on $name");
