import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { products } from "~/db/schema";
import { createCatalog } from "~/features/catalog/browsing/catalog.server";
import { sendForm } from "../../tests/support/form-post";
import { productInStock, shopContext } from "../../tests/support/shop-context";
import { checkoutForm } from "../../tests/support/shopper";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { action as cartAction } from "./cart";
import { action as checkoutAction, loader as checkoutLoader } from "./checkout";

/**
 * An archived product is gone from the shop — listings, counts, facets,
 * suggestions, the product page, the sitemap — whether SQL or the search
 * index answers (the index applies the archiving as the change it is), a
 * cart cannot add it and a checkout refuses its line; on both engines.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("archived products");

const archive = (engine: TestDatabase, id: number, archived = true) =>
  engine.db
    .update(products)
    .set({ archivedAt: archived ? new Date() : null })
    .where(eq(products.id, id));

describe.each(engines)("an archived product on $name", (engine: TestDatabase) => {
  const { context } = shopContext(engine);

  /** What a shopper could find of the product: by its name, in the counts and facets, its page, the sitemap. */
  async function seen(catalog: ReturnType<typeof createCatalog>, id: number, name: string) {
    const search = name;
    const [page, count, facets, suggestions, product, sitemap] = await Promise.all([
      catalog.findProducts({ search, page: 1, size: 10 }),
      catalog.countProducts({ search }),
      catalog.listingFacets({ search }),
      catalog.suggestions(search),
      catalog.product(id),
      catalog.sitemapProducts(0, 50_000),
    ]);
    return {
      listed: page.value.some((found) => found.id === id),
      count: count.value.count,
      facets: facets.value.count,
      suggested: suggestions.value.products.some((found) => found.label === name),
      page: product.value !== null,
      sitemap: sitemap.value.rows.some((row) => row.id === id),
    };
  }
  const everywhere = { listed: true, count: 1, facets: 1, suggested: true, page: true, sitemap: true };
  const nowhere = { listed: false, count: 0, facets: 0, suggested: false, page: false, sitemap: false };

  it("is hidden when SQL answers, and shown again once restored", async () => {
    const id = await productInStock(engine, 5);
    const [row] = await engine.db.select({ name: products.name }).from(products).where(eq(products.id, id));
    const name = row?.name as string;
    // Never asked for its index: every answer comes from SQL.
    const catalog = createCatalog(engine.db, { cacheSeconds: 0 }, { readCatalogIndex: async () => null });
    expect(await seen(catalog, id, name)).toEqual(everywhere);
    await archive(engine, id);
    expect(await seen(catalog, id, name)).toEqual(nowhere);
    await archive(engine, id, false);
    expect(await seen(catalog, id, name)).toEqual(everywhere);
  });

  it("leaves the search index when archived after the index was read, by applying just that product", async () => {
    const id = await productInStock(engine, 5);
    const [row] = await engine.db.select({ name: products.name }).from(products).where(eq(products.id, id));
    const name = row?.name as string;
    const catalog = createCatalog(engine.db, { cacheSeconds: 10 });
    await catalog.indexReady();
    expect(catalog.indexInUse()).not.toBeNull();
    expect(await seen(catalog, id, name)).toEqual(everywhere);
    await archive(engine, id);
    catalog.changed();
    await catalog.indexReady();
    expect(await seen(catalog, id, name)).toEqual(nowhere);
    // A whole new read leaves it out too.
    const fresh = createCatalog(engine.db, { cacheSeconds: 0 });
    await fresh.indexReady();
    expect((await fresh.findProducts({ search: name, page: 1, size: 10 })).value).toEqual([]);
    await archive(engine, id, false);
    catalog.changed();
    await catalog.indexReady();
    expect(await seen(catalog, id, name)).toEqual(everywhere);
  });

  it("cannot be added to a cart, and a cart holding it cannot be checked out", async () => {
    const id = await productInStock(engine, 5);
    const added = await sendForm(cartAction, context, "/cart", {
      form: { intent: "add", productId: String(id), quantity: "1" },
    });
    expect(added.status).toBe(303);
    await archive(engine, id);
    const again = await sendForm(cartAction, context, "/cart", {
      form: { intent: "add", productId: String(id), quantity: "1" },
      cookie: added.cookie,
    });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ error: "This product is no longer sold." });

    const checkout = await sendForm(checkoutLoader, context, "/checkout", {
      method: "GET",
      cookie: added.cookie,
    });
    const placed = await sendForm(checkoutAction, context, "/checkout", {
      cookie: added.cookie,
      form: checkoutForm((checkout.body as { idempotencyKey: string }).idempotencyKey),
    });
    expect(placed.status).toBe(409);
    expect(placed.body).toMatchObject({ short: [{ productId: id, asked: 1, left: 0 }] });
  });
});
