import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeWhen, postgresServer } from "../support/requirements";
import { type ShopProcess, startShopProcess } from "../support/shop-process";
import { createScratchPostgres, type ScratchPostgres } from "../support/test-database";

/**
 * Two shop processes on one PostgreSQL database, as behind a load balancer:
 * a change to the catalogue, committed by anyone, reaches each process's
 * search index through the database's announcement (drizzle/0008), and each
 * applies just the products that changed — never reading the catalogue again.
 */

interface ListedProduct {
  id: number;
  name: string;
  price: number;
  bandName: string;
  category: string;
}

interface Facets {
  count: number;
  brands: { value: string; count: number }[];
  categories: { value: string; count: number }[];
}

const INDEX_READ = /"msg":"catalogue index read"/;

async function json<T>(shop: ShopProcess, path: string): Promise<T> {
  const response = await fetch(`${shop.url}${path}`);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

const countOf = (facets: Facets, kind: "brands" | "categories", value: string) =>
  facets[kind].find((choice) => choice.value === value)?.count ?? 0;

/** The price a product's page states (its structured data), or its status when there is no page. */
async function pagePrice(shop: ShopProcess, id: number): Promise<string | number> {
  const response = await fetch(`${shop.url}/products/${id}`);
  if (response.status !== 200) return response.status;
  const html = await response.text();
  return /"price":"([\d.]+)"/.exec(html)?.[1] ?? "no price on the page";
}

describeWhen([postgresServer], "catalogue changes reaching every shop process on one database", () => {
  let database: ScratchPostgres;
  let client: pg.Client;
  const shops: ShopProcess[] = [];

  beforeAll(async () => {
    database = await createScratchPostgres();
    // Answers are kept an hour: only the database's announcement can make a process give new ones.
    const env = { DATABASE_URL: database.url, LOG_LEVEL: "info", CATALOG_CACHE_SECONDS: "3600" };
    // The first migrates and loads the demo catalogue; each is ready once it has read its index.
    shops.push(await startShopProcess(env));
    shops.push(await startShopProcess(env));
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    await Promise.all(shops.map((shop) => shop.stop()));
    await database?.drop();
  });

  it("a changed price, a new product and a deleted one show in every process's listings, product pages and facet counts, applied without reading the catalogue again", async () => {
    const [shop] = shops as [ShopProcess];
    const [dearest, gone] = await json<ListedProduct[]>(shop, "/all-products?sort=dsc&size=2");
    if (!dearest || !gone) throw new Error("the demo catalogue has fewer than two products");
    const facetsBefore = await json<Facets>(shop, "/facets");
    const underADollarBefore = await json<{ count: number }>(shop, "/counts?range=1");
    const otherBrand = facetsBefore.brands.find((brand) => brand.value !== gone.bandName)?.value;
    const otherCategory = facetsBefore.categories.find((category) => category.value !== gone.category)?.value;
    if (!otherBrand || !otherCategory) throw new Error("the demo catalogue has a single brand or category");
    // Every process has answered from its index, and cached those answers, before the change.
    for (const each of shops) {
      expect(await json<ListedProduct[]>(each, "/all-products?sort=asc&size=1")).not.toEqual([]);
      expect(await pagePrice(each, dearest.id)).toBe(dearest.price.toFixed(2));
      expect(await json<Facets>(each, "/facets")).toEqual(facetsBefore);
      expect(await json<{ count: number }>(each, "/counts?range=1")).toEqual(underADollarBefore);
      expect(await json<ListedProduct[]>(each, "/all-products?search=zephyrine")).toEqual([]);
    }

    // One transaction, committed as a back office or an import would: each process hears of it at commit.
    await client.query("begin");
    await client.query("update products set price_minor = 50 where id = $1", [dearest.id]);
    const added = await client.query<{ id: number }>(
      `insert into products (name, description, image, price_minor, ratings, band_name, category, creation_date)
       values ('Zephyrine Practice Amp', 'A small amp for quiet rooms.', '/images/products/amp.png', 1234, 4.5, $1, $2, now())
       returning id`,
      [otherBrand, otherCategory],
    );
    // The demo buyers' orders of it go with it (docs/decisions/0033), as an import's prune takes them.
    await client.query(
      `delete from orders where idempotency_scope like 'demo:%'
         and id in (select order_id from order_lines where product_id = $1)`,
      [gone.id],
    );
    await client.query("delete from products where id = $1", [gone.id]);
    const { rows } = await client.query<{ revision: string }>(
      "select revision from catalog_revisions where id = 1",
    );
    await client.query("commit");
    const addedId = added.rows[0]?.id as number;
    const revision = Number(rows[0]?.revision);

    const applied = new RegExp(`"revision":${revision},.*"msg":"catalogue changes applied to the index"`);
    for (const each of shops) {
      const line = JSON.parse(await each.waitForOutput(applied, 10_000)) as { products: number };
      expect(line.products).toBe(3);

      const [cheapest] = await json<ListedProduct[]>(each, "/all-products?sort=asc&size=1");
      expect(cheapest).toMatchObject({ id: dearest.id, price: 0.5 });
      expect(await pagePrice(each, dearest.id)).toBe("0.50");
      const found = await json<ListedProduct[]>(each, "/all-products?search=zephyrine");
      expect(found).toMatchObject([{ id: addedId, price: 12.34, bandName: otherBrand }]);
      expect(await pagePrice(each, addedId)).toBe("12.34");
      expect(await pagePrice(each, gone.id)).toBe(404);
      const listed = await json<ListedProduct[]>(each, "/all-products?sort=dsc&size=5");
      expect(listed.map((product) => product.id)).not.toContain(gone.id);
      expect(listed.map((product) => product.id)).not.toContain(dearest.id);

      const facets = await json<Facets>(each, "/facets");
      expect(facets.count).toBe(facetsBefore.count);
      expect(countOf(facets, "brands", otherBrand)).toBe(countOf(facetsBefore, "brands", otherBrand) + 1);
      expect(countOf(facets, "brands", gone.bandName)).toBe(
        countOf(facetsBefore, "brands", gone.bandName) - 1,
      );
      expect(countOf(facets, "categories", otherCategory)).toBe(
        countOf(facetsBefore, "categories", otherCategory) + 1,
      );
      expect(countOf(facets, "categories", gone.category)).toBe(
        countOf(facetsBefore, "categories", gone.category) - 1,
      );
      expect(await json<{ count: number }>(each, "/counts?range=1")).toEqual({
        count: underADollarBefore.count + 1,
      });

      // The index each process read at start-up is the one it still answers from.
      expect(
        each
          .output()
          .split("\n")
          .filter((line) => INDEX_READ.test(line)),
      ).toHaveLength(1);
    }
  });
});
