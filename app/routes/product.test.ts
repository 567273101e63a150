import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { ShopServices } from "~/context.server";
import { type NewProductRow, products } from "~/db/schema";
import { insertDemoBrandsAndCategories } from "~/db/seed/seed.server";
import { createCatalog } from "~/features/catalog/browsing/catalog.server";
import { ok, runLoader } from "../../tests/support/route-loader";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { loader } from "./product";

const FIXTURE: NewProductRow[] = [
  ["CampSafe Dome Tent", "campSafe", "outdoor", 4.6],
  ["CampSafe Trail Lantern", "campSafe", "outdoor", 4.1],
  ["CycleFit Hydration Vest", "cycleFit", "outdoor", 4.8],
  ["CampSafe Camp Stove", "campSafe", "outdoor", 0],
  ["CycleFit Yoga Mat", "cycleFit", "fitness", 4.2],
].map(([name, bandName, category, ratings], index) => ({
  name: name as string,
  bandName: bandName as string,
  category: category as string,
  ratings: ratings as number,
  priceMinor: (20 + index) * 100,
  creationDate: new Date(Date.UTC(2026, 0, 1 + index)),
  description: `About the ${name}.`,
  image: `/images/products/test-${index}.svg`,
}));

const engines = await openTestDatabases();

describe.each(engines)("product page loader on $name", (engine: TestDatabase) => {
  let services: Partial<ShopServices>;
  let ids: number[];
  const open = (path: string) =>
    runLoader(loader, path, services, { product: path.split("/")[2]?.split("?")[0] ?? "" });

  beforeAll(async () => {
    await insertDemoBrandsAndCategories(engine.db);
    ids = (await engine.db.insert(products).values(FIXTURE).returning({ id: products.id })).map(
      (row) => row.id,
    );
    services = {
      baseUrl: "https://shop.example.com",
      catalog: createCatalog(engine.db, { cacheSeconds: 0 }),
      // The product's reviews come from the database; the visitor is signed out.
      database: engine.handle,
    };
  });

  it("reads the product with its labels, the best rated others of its category, and its canonical address", async () => {
    const { status, body } = await open(`/products/${ids[0]}-campsafe-dome-tent`);
    expect(status).toBe(200);
    expect(ok(body).product).toMatchObject({
      name: "CampSafe Dome Tent",
      brandLabel: "CampSafe",
      categoryLabel: "Outdoor",
    });
    expect(ok(body).description).toBe("About the CampSafe Dome Tent.");
    expect((ok(body).related as { name: string }[]).map((product) => product.name)).toEqual([
      "CycleFit Hydration Vest",
      "CampSafe Trail Lantern",
      "CampSafe Camp Stove",
    ]);
    expect(ok(body).canonicalUrl).toBe(`https://shop.example.com/products/${ids[0]}-campsafe-dome-tent`);
  });

  it("gives the product's stock and its related products' in the loader data, and says sold out to search engines", async () => {
    await engine.db.execute(
      sql`update stock_levels set on_hand = case when product_id = ${ids[0]} then 0 else 4 end`,
    );
    // As the database's notification of a stock change would (LISTEN/NOTIFY): related cards come
    // from the process's stock snapshot, the product itself from the database.
    services.catalog?.changed();
    const { body } = await open(`/products/${ids[0]}-campsafe-dome-tent`);
    expect(ok(body).product).toMatchObject({ stock: 0 });
    expect((ok(body).related as { stock: number }[]).map((product) => product.stock)).toEqual([4, 4, 4]);
    expect(ok(body).structuredData).toMatchObject({
      offers: { availability: "https://schema.org/OutOfStock" },
    });
  });

  it("leads back to the listing the shopper came from, its filters kept", async () => {
    const { body } = await open(
      `/products/${ids[0]}-campsafe-dome-tent?band=campSafe&sort=asc&page=2&evil=//x.example`,
    );
    expect(ok(body).listingHref).toBe("/?band=campSafe&sort=asc&page=2");
  });

  it("moves an address with an old or missing name to the product's own, permanently", async () => {
    expect(await open(`/products/${ids[1]}-lamp?band=campSafe`)).toEqual({
      status: 301,
      location: `/products/${ids[1]}-campsafe-trail-lantern?band=campSafe`,
    });
    expect(await open(`/products/${ids[1]}`)).toMatchObject({ status: 301 });
  });

  it("answers a real 404 for a product that is not there or an address that names none", async () => {
    expect(await open("/products/999999-nothing")).toMatchObject({ status: 404 });
    expect(await open("/products/tent")).toMatchObject({ status: 404 });
  });
});

reportPostgresSkipped("product page loader on $name");
