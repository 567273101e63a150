import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { servicesContext } from "~/context.server";
import { auditLog, orderLines, orders, products, stockLevels } from "~/db/schema";
import { createCatalog } from "~/features/catalog/browsing/catalog.server";
import { newOrderNumber } from "~/features/orders/order-number";
import {
  callRoute,
  type RouteCall,
  type RouteHandler,
  type RouteOutcome,
} from "../../tests/support/route-call";
import { onlyVariantOf, productInStock, shopContext } from "../../tests/support/shop-context";
import { orderRow } from "../../tests/support/shopper";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { action as productAction, loader as productLoader } from "./admin.product";
import { loader as listLoader } from "./admin.products";
import { action as newAction } from "./admin.products.new";

/**
 * The back office's product pages, called as the router calls them, on
 * both engines: the list with the shop's own parameters, creating and
 * saving (fields named in every refusal, the stock refused when it changed
 * meanwhile), archiving, deleting (the password again; refused when an
 * order names the product), and the audit entry each change writes.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("the back office's product pages");

const png = () =>
  sharp({ create: { width: 80, height: 60, channels: 3, background: "#c0392b" } })
    .png()
    .toBuffer();

describe.each(engines)("the back office's products on $name", (engine: TestDatabase) => {
  const shop = shopContext(engine);
  const services = shop.context.get(servicesContext);
  Object.assign(services, { catalog: createCatalog(engine.db, { cacheSeconds: 0 }) });
  const as = (handler: RouteHandler, path: string, options: RouteCall) =>
    callRoute(handler, path, { ...options, context: shop.context });
  let staff = "";
  let owner = "";
  const suffix = Math.random().toString(36).slice(2, 8);

  beforeAll(async () => {
    staff = await shop.signedUpAs(`staff-${suffix}@example.com`, "staff");
    owner = await shop.signedUpAs(`owner-${suffix}@example.com`, "owner");
  });

  const entriesFor = (id: number) =>
    engine.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `product:${id}`))
      .orderBy(auditLog.id);

  const productForm = (changes: Record<string, string> = {}) => {
    const form = new FormData();
    const values = {
      intent: "save",
      name: `Kettle ${suffix}`,
      brand: "blendMaster",
      category: "home goods",
      price: "24.99",
      stock: "12",
      description: "Boils water.",
      ...changes,
    };
    for (const [name, value] of Object.entries(values)) form.set(name, value);
    return form;
  };

  it("creates a product from the form, its picture made into the shop's sizes, with an audit entry", async () => {
    await productInStock(engine, 1); // the brand and category the form names
    const form = productForm();
    form.set("picture", new File([await png()], "kettle.png", { type: "image/png" }));
    const created = await as(newAction, "/admin/products/new", { form, cookie: staff });
    expect(created.status).toBe(302);
    const id = Number(created.location?.match(/^\/admin\/products\/(\d+)$/)?.[1]);
    const page = await as(productLoader, created.location as string, {
      params: { productId: String(id) },
      cookie: staff,
    });
    expect(page.body.product).toMatchObject({
      name: `Kettle ${suffix}`,
      priceCents: 2499,
      stock: 12,
      archived: false,
    });
    expect(page.body.product.image).toMatch(/^\/pictures\/[0-9a-f]{20}-\d+\.webp$/);
    const [entry] = await entriesFor(id);
    expect(entry).toMatchObject({ action: "product.created", actorEmail: `staff-${suffix}@example.com` });
  });

  it("names the fields a form gets wrong, and a file that is not a picture", async () => {
    const wrong = await as(newAction, "/admin/products/new", {
      form: productForm({ name: "", price: "12.345", stock: "-1" }),
      cookie: staff,
    });
    expect(wrong.status).toBe(400);
    expect(Object.keys(wrong.body.result.error)).toEqual(
      expect.arrayContaining(["name", "price", "stock", "picture"]),
    );
    const form = productForm();
    form.set("picture", new File(["not a picture at all"], "notes.png", { type: "image/png" }));
    const broken = await as(newAction, "/admin/products/new", { form, cookie: staff });
    expect(broken.status).toBe(422);
    expect(broken.body.result.error.picture[0]).toBe(
      "notes.png is not a picture the shop can read: it takes PNG, JPEG, WebP, GIF, AVIF or SVG.",
    );
  });

  it("saves a new price with an audit entry of just that field", async () => {
    const id = await productInStock(engine, 10, 12.5);
    const saved = await as(productAction, `/admin/products/${id}`, {
      params: { productId: String(id) },
      form: productForm({
        name: (await nameOf(id)) as string,
        sku: await skuOf(id),
        price: "9.99",
        stock: "10",
        stockShown: "10",
        description: "Makes tea.",
      }),
      cookie: staff,
    });
    expect(saved).toMatchObject({ status: 302, location: `/admin/products/${id}` });
    const [row] = await engine.db
      .select({ priceMinor: products.priceMinor })
      .from(products)
      .where(eq(products.id, id));
    expect(row?.priceMinor).toBe(999);
    const entries = await entriesFor(id);
    expect(entries.map((entry) => [entry.action, entry.before, entry.after])).toEqual([
      ["product.updated", { priceCents: 1250 }, { priceCents: 999 }],
    ]);
  });

  it("saves the price of a product that sold meanwhile without touching or logging its stock", async () => {
    const id = await productInStock(engine, 10, 12.5);
    // A sale while the owner edits the price: the page still says 10.
    await engine.db.update(stockLevels).set({ onHand: 9 }).where(eq(stockLevels.productId, id));
    const saved = await as(productAction, `/admin/products/${id}`, {
      params: { productId: String(id) },
      form: productForm({
        name: (await nameOf(id)) as string,
        sku: await skuOf(id),
        price: "11.00",
        stock: "10",
        stockShown: "10",
        description: "Makes tea.",
      }),
      cookie: staff,
    });
    expect(saved.status).toBe(302);
    const [level] = await engine.db.select().from(stockLevels).where(eq(stockLevels.productId, id));
    expect(level?.onHand).toBe(9);
    expect((await entriesFor(id)).map((entry) => [entry.before, entry.after])).toEqual([
      [{ priceCents: 1250 }, { priceCents: 1100 }],
    ]);
  });

  it("refuses a stock count when a sale changed it since the page was opened, and changes nothing", async () => {
    const id = await productInStock(engine, 10, 12.5);
    // A sale while the owner types: 3 units go.
    await engine.db.update(stockLevels).set({ onHand: 7 }).where(eq(stockLevels.productId, id));
    const refused = await as(productAction, `/admin/products/${id}`, {
      params: { productId: String(id) },
      form: productForm({
        name: (await nameOf(id)) as string,
        sku: await skuOf(id),
        price: "9.99",
        stock: "20",
        stockShown: "10",
      }),
      cookie: staff,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.result.error.stock).toEqual(["Stock changed since you opened this page: now 7."]);
    // The form comes back counting from what is on hand now.
    expect(refused.body.stockNow).toBe(7);
    const [row] = await engine.db
      .select({ priceMinor: products.priceMinor, onHand: stockLevels.onHand })
      .from(products)
      .innerJoin(stockLevels, eq(stockLevels.productId, products.id))
      .where(eq(products.id, id));
    expect(row).toEqual({ priceMinor: 1250, onHand: 7 });
    expect(await entriesFor(id)).toEqual([]);
    // Counted again from what is on hand now, it goes through.
    const counted = await as(productAction, `/admin/products/${id}`, {
      params: { productId: String(id) },
      form: productForm({
        name: (await nameOf(id)) as string,
        sku: await skuOf(id),
        price: "12.50",
        stock: "20",
        stockShown: "7",
        description: "Makes tea.",
      }),
      cookie: staff,
    });
    expect(counted.status).toBe(302);
    expect((await entriesFor(id)).map((entry) => [entry.before, entry.after])).toEqual([
      [{ stock: 7 }, { stock: 20 }],
    ]);
  });

  const withPicture = async (form: FormData) => {
    form.set("picture", new File([await png()], "kettle.png", { type: "image/png" }));
    return form;
  };
  const createdId = (outcome: RouteOutcome) =>
    Number(outcome.location?.match(/^\/admin\/products\/(\d+)$/)?.[1]);

  it("gives a new product the SKU typed, or one of its own when the field is left blank", async () => {
    await productInStock(engine, 1);
    const typed = await as(newAction, "/admin/products/new", {
      form: await withPicture(productForm({ sku: `  KT-${suffix}-1 ` })),
      cookie: staff,
    });
    expect(typed.status).toBe(302);
    expect(await skuOf(createdId(typed))).toBe(`KT-${suffix}-1`);
    const blank = await as(newAction, "/admin/products/new", {
      form: await withPicture(productForm({ sku: "" })),
      cookie: staff,
    });
    expect(blank.status).toBe(302);
    expect(await skuOf(createdId(blank))).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a SKU another product has, next to the field, on a new product and on a save", async () => {
    const taken = await productInStock(engine, 1);
    const takenSku = await skuOf(taken);
    const message = `Another product has the SKU ${takenSku}: ${await nameOf(taken)}. Each product's SKU must be unique.`;
    const before = await engine.db.select({ id: products.id }).from(products);

    const refusedNew = await as(newAction, "/admin/products/new", {
      form: await withPicture(productForm({ sku: takenSku })),
      cookie: staff,
    });
    expect(refusedNew.status).toBe(409);
    expect(refusedNew.body.result.error).toEqual({ sku: [message] });
    expect(await engine.db.select({ id: products.id }).from(products)).toHaveLength(before.length);

    const id = await productInStock(engine, 4);
    const ownSku = await skuOf(id);
    const refusedSave = await as(productAction, `/admin/products/${id}`, {
      params: { productId: String(id) },
      form: productForm({ name: (await nameOf(id)) as string, sku: takenSku, stock: "4", stockShown: "4" }),
      cookie: staff,
    });
    expect(refusedSave.status).toBe(409);
    expect(refusedSave.body.result.error).toEqual({ sku: [message] });
    expect(await skuOf(id)).toBe(ownSku);
    expect(await entriesFor(id)).toEqual([]);
  });

  it("changes a product's SKU, with an audit entry of just that field", async () => {
    const id = await productInStock(engine, 4);
    const was = await skuOf(id);
    const saved = await as(productAction, `/admin/products/${id}`, {
      params: { productId: String(id) },
      form: productForm({
        name: (await nameOf(id)) as string,
        sku: `TP-${suffix}`,
        price: "12.50",
        stock: "4",
        stockShown: "4",
        description: "Makes tea.",
      }),
      cookie: staff,
    });
    expect(saved.status).toBe(302);
    expect(await skuOf(id)).toBe(`TP-${suffix}`);
    expect((await entriesFor(id)).map((entry) => [entry.before, entry.after])).toEqual([
      [{ sku: was }, { sku: `TP-${suffix}` }],
    ]);
  });

  it("holds a SKU to the import's limits, by its field, and asks for one on a save", async () => {
    const long = await as(newAction, "/admin/products/new", {
      form: await withPicture(productForm({ sku: "x".repeat(101) })),
      cookie: staff,
    });
    expect(long.status).toBe(400);
    expect(long.body.result.error.sku).toEqual(["SKU must be at most 100 characters."]);
    const control = await as(newAction, "/admin/products/new", {
      form: await withPicture(productForm({ sku: "KT\u0007" })),
      cookie: staff,
    });
    expect(control.body.result.error.sku).toEqual(["SKU must not contain control characters."]);
    const id = await productInStock(engine, 4);
    const blank = await as(productAction, `/admin/products/${id}`, {
      params: { productId: String(id) },
      form: productForm({ name: (await nameOf(id)) as string, sku: "", stock: "4", stockShown: "4" }),
      cookie: staff,
    });
    expect(blank.status).toBe(400);
    expect(blank.body.result.error.sku).toEqual(["SKU is required."]);
  });

  it("archives a product out of the shop and restores it, each with an audit entry", async () => {
    const id = await productInStock(engine, 3);
    const archive = { params: { productId: String(id) }, form: { intent: "archive" }, cookie: staff };
    expect((await as(productAction, `/admin/products/${id}`, archive)).status).toBe(302);
    expect((await services.catalog.product(id)).value).toBeNull();
    const listed = await as(listLoader, "/admin/products?stock=low&sort=asc&size=100", { cookie: staff });
    expect(listed.body.listing.products).toContainEqual(
      expect.objectContaining({ id, archived: true, stock: 3 }),
    );
    // Archiving again changes nothing and writes nothing.
    await as(productAction, `/admin/products/${id}`, archive);
    const restore = { ...archive, form: { intent: "restore" } };
    expect((await as(productAction, `/admin/products/${id}`, restore)).status).toBe(302);
    expect((await services.catalog.product(id)).value).toMatchObject({ id });
    expect((await entriesFor(id)).map((entry) => entry.action)).toEqual([
      "product.archived",
      "product.restored",
    ]);
  });

  it("deletes only with the password, and refuses a product an order names", async () => {
    const id = await productInStock(engine, 3);
    const url = `/admin/products/${id}`;
    const params = { productId: String(id) };
    const wrong = await as(productAction, url, {
      params,
      form: { intent: "delete", password: "nope" },
      cookie: owner,
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.result.error.password).toEqual(["That is not your current password."]);
    const [order] = await engine.db
      .insert(orders)
      .values(
        orderRow({
          number: newOrderNumber(),
          idempotencyScope: `test-${suffix}`,
          email: `shopper-${suffix}@example.com`,
          subtotalCents: 1250,
          shippingCents: 0,
          totalCents: 1250,
        }),
      )
      .returning({ id: orders.id });
    await engine.db.insert(orderLines).values({
      orderId: (order as { id: number }).id,
      productId: id,
      variantId: await onlyVariantOf(engine.db, id),
      name: "Teapot",
      sku: "TEAPOT",
      unitPriceCents: 1250,
      quantity: 1,
      lineTotalCents: 1250,
    });
    const ordered = await as(productAction, url, {
      params,
      form: { intent: "delete", password: "Str0ng!Pass" },
      cookie: owner,
    });
    expect(ordered.status).toBe(409);
    expect(ordered.body.result.error[""]).toEqual(["Orders name this product: archive it instead."]);
    expect(await nameOf(id)).toBeDefined();

    const unordered = await productInStock(engine, 3);
    const deleted = await as(productAction, `/admin/products/${unordered}`, {
      params: { productId: String(unordered) },
      form: { intent: "delete", password: "Str0ng!Pass" },
      cookie: owner,
    });
    expect(deleted).toMatchObject({ status: 302, location: "/admin/products" });
    expect(await nameOf(unordered)).toBeUndefined();
    expect((await entriesFor(unordered)).map((entry) => entry.action)).toEqual(["product.deleted"]);
  });

  it("lists with the shop's own parameters, archived products marked, and refuses a bad one by name", async () => {
    const id = await productInStock(engine, 50);
    const name = (await nameOf(id)) as string;
    await engine.db.update(products).set({ archivedAt: new Date() }).where(eq(products.id, id));
    const found = await as(listLoader, `/admin/products?search=${encodeURIComponent(name)}`, {
      cookie: staff,
    });
    expect(found.body.listing.products).toEqual([
      expect.objectContaining({ id, name, archived: true, stock: 50 }),
    ]);
    const low = await as(listLoader, `/admin/products?stock=low&search=${encodeURIComponent(name)}`, {
      cookie: staff,
    });
    expect(low.body.listing.products).toEqual([]);
    // A search for its SKU, in another case, finds it too.
    const bySku = await as(
      listLoader,
      `/admin/products?search=${encodeURIComponent((await skuOf(id)).toUpperCase())}`,
      {
        cookie: staff,
      },
    );
    expect(bySku.body.listing.products).toEqual([expect.objectContaining({ id, name })]);
    const bad = await as(listLoader, "/admin/products?sort=cheapest", { cookie: staff });
    expect(bad.status).toBe(400);
    expect(String(bad.body)).toContain("sort must be one of");
    expect((await as(listLoader, "/admin/products?stock=high", { cookie: staff })).status).toBe(400);
    expect(
      (
        await as(productLoader, "/admin/products/99999999", {
          params: { productId: "99999999" },
          cookie: staff,
        })
      ).status,
    ).toBe(404);
  });

  async function skuOf(id: number): Promise<string> {
    const [row] = await engine.db.select({ sku: products.sku }).from(products).where(eq(products.id, id));
    if (!row) throw new Error(`no product ${id}`);
    return row.sku;
  }

  async function nameOf(id: number): Promise<string | undefined> {
    const [row] = await engine.db
      .select({ name: products.name })
      .from(products)
      .where(and(eq(products.id, id)));
    return row?.name;
  }
});
