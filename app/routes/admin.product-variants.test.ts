import { asc, eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, productVariants, stockLevels } from "~/db/schema";
import { callRoute, type RouteCall, type RouteHandler } from "../../tests/support/route-call";
import { productInStock, shopContext } from "../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { action, loader } from "./admin.product-variants";

/**
 * The owner's options and variants of a product, called as the router calls the page, on both
 * engines: every combination made at once, rows edited, the bulk actions on the selected rows, a
 * stock that sold meanwhile refused, a bad value named by its field, and the activity log.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("the back office's options and variants");

describe.each(engines)("the back office's options and variants on $name", (engine: TestDatabase) => {
  const shop = shopContext(engine);
  const as = (handler: RouteHandler, path: string, options: RouteCall) =>
    callRoute(handler, path, { ...options, context: shop.context });
  let staff = "";
  const suffix = Math.random().toString(36).slice(2, 8);
  beforeAll(async () => {
    staff = await shop.signedUpAs(`staff-${suffix}@example.com`, "staff");
  });

  const variantsOf = (productId: number) =>
    engine.db
      .select({
        id: productVariants.id,
        sku: productVariants.sku,
        option1: productVariants.option1,
        option2: productVariants.option2,
        priceMinor: productVariants.priceMinor,
        onHand: stockLevels.onHand,
      })
      .from(productVariants)
      .innerJoin(stockLevels, eq(stockLevels.variantId, productVariants.id))
      .where(eq(productVariants.productId, productId))
      .orderBy(asc(productVariants.position));

  /** The page's form as the browser sends it: its rows as they are, with `changes` over them. */
  async function send(productId: number, intent: string, changes: Record<string, string | File> = {}) {
    const page = await as(loader, `/admin/products/${productId}/variants`, {
      params: { productId: String(productId) },
      cookie: staff,
    });
    const { options, variants } = page.body as {
      options: { name: string; values: { value: string }[] }[];
      variants: { id: number; sku: string; values: string[]; priceMinor: number; stock: number }[];
    };
    const form = new FormData();
    form.set("intent", intent);
    options.forEach((option, at) => {
      form.set(`options[${at}].name`, option.name);
      form.set(`options[${at}].values`, option.values.map((value) => value.value).join(", "));
    });
    variants.forEach((variant, at) => {
      form.set(`variants[${at}].id`, String(variant.id));
      for (const [position, value] of variant.values.entries()) {
        form.set(`variants[${at}].option${position + 1}`, value);
      }
      form.set(`variants[${at}].sku`, variant.sku);
      form.set(`variants[${at}].price`, (variant.priceMinor / 100).toFixed(2));
      form.set(`variants[${at}].stock`, String(variant.stock));
      form.set(`variants[${at}].stockShown`, String(variant.stock));
    });
    for (const [name, value] of Object.entries(changes)) form.set(name, value);
    return as(action, `/admin/products/${productId}/variants`, {
      params: { productId: String(productId) },
      form,
      cookie: staff,
    });
  }

  it("makes the 6 variants of Size (3 values) × Colour (2) at once, then edits a row, each logged", async () => {
    const productId = await productInStock(engine, 4, 20);
    const made = await send(productId, "combine", {
      "options[0].name": "Size",
      "options[0].values": "S, M, L",
      "options[1].name": "Colour",
      "options[1].values": "Red #b91c1c, Blue",
    });
    expect(made).toMatchObject({ status: 302, location: `/admin/products/${productId}/variants` });
    const variants = await variantsOf(productId);
    expect(variants.map(({ option1, option2 }) => `${option1}/${option2}`)).toEqual([
      "S/Red",
      "S/Blue",
      "M/Red",
      "M/Blue",
      "L/Red",
      "L/Blue",
    ]);
    expect(variants.every((variant) => variant.priceMinor === 2000 && variant.onHand === 0)).toBe(true);
    expect(new Set(variants.map((variant) => variant.sku)).size).toBe(6);

    const saved = await send(productId, "save", { "variants[1].price": "24.50", "variants[1].stock": "9" });
    expect(saved.status).toBe(302);
    expect((await variantsOf(productId))[1]).toMatchObject({ priceMinor: 2450, onHand: 9 });
    const entries = await engine.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `product:${productId}`));
    expect(entries.map((entry) => entry.action)).toEqual([
      "product.variants-changed",
      "product.variants-changed",
    ]);
  });

  it("gives a variant its own picture, keeps it through later saves, and removes it", async () => {
    const productId = await productInStock(engine, 0, 10);
    await send(productId, "combine", { "options[0].name": "Colour", "options[0].values": "Red, Blue" });
    const picture = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#b91c1c" } })
      .png()
      .toBuffer();
    const sent = await send(productId, "save", {
      "variants[1].picture": new File([picture], "blue.png", { type: "image/png" }),
    });
    expect(sent.status).toBe(302);
    const imageOf = async () =>
      (
        await engine.db
          .select({ image: productVariants.image })
          .from(productVariants)
          .where(eq(productVariants.productId, productId))
          .orderBy(asc(productVariants.position))
      ).map((row) => row.image);
    const [red, blue] = await imageOf();
    expect(red).toBeNull();
    expect(blue).toMatch(/^\/pictures\/[0-9a-f]{20}-800\.webp$/);
    // A save that sends no picture keeps the one it has.
    await send(productId, "set-price", { "variants[0].selected": "on", bulkPrice: "11" });
    expect(await imageOf()).toEqual([null, blue]);
    const notPicture = await send(productId, "save", {
      "variants[0].picture": new File(["not a picture"], "red.png", { type: "image/png" }),
    });
    expect(notPicture.status).toBe(409);
    expect(notPicture.body.result.error["variants[0].picture"]).toEqual([
      expect.stringContaining("is not a picture the shop can read"),
    ]);
    await send(productId, "save", { "variants[1].removePicture": "on" });
    expect(await imageOf()).toEqual([null, null]);
  });

  it("sets the price of and adds stock to the selected rows only", async () => {
    const productId = await productInStock(engine, 0, 10);
    await send(productId, "combine", { "options[0].name": "Size", "options[0].values": "S, M, L" });
    await send(productId, "set-price", {
      "variants[0].selected": "on",
      "variants[2].selected": "on",
      bulkPrice: "12",
    });
    await send(productId, "add-stock", {
      "variants[1].selected": "on",
      "variants[2].selected": "on",
      bulkStock: "5",
    });
    expect((await variantsOf(productId)).map(({ priceMinor, onHand }) => [priceMinor, onHand])).toEqual([
      [1200, 0],
      [1000, 5],
      [1200, 5],
    ]);
    const unselected = await send(productId, "add-stock", { bulkStock: "5" });
    expect(unselected.status).toBe(400);
  });

  it("refuses a stock that sold meanwhile and a value not among its option's, naming the field", async () => {
    const productId = await productInStock(engine, 0, 10);
    await send(productId, "combine", { "options[0].name": "Size", "options[0].values": "S, M" });
    // A count made before a sale: the page showed 0, a unit was sold since (3 → set to 2).
    const [small] = await variantsOf(productId);
    await engine.db
      .update(stockLevels)
      .set({ onHand: 3 })
      .where(eq(stockLevels.variantId, small?.id as number));
    const refused = await send(productId, "save", {
      "variants[0].stock": "8",
      "variants[0].stockShown": "0",
    });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain("Stock changed since you opened this page: now 3.");
    expect(JSON.stringify(refused.body)).toContain("variants[0].stock");
    // A row whose values are not the options' any more: the table says what to do (the values are
    // no field of the form).
    const unknown = await send(productId, "save", { "variants[1].option1": "XL" });
    expect(unknown.status).toBe(409);
    expect(unknown.body).toMatchObject({
      result: {
        error: {
          variants: [
            "The options changed: press Make every combination to make the variants for them, then save.",
          ],
        },
      },
    });
    // Values that would make more variants than a product may have are refused by their field.
    const many = await send(productId, "combine", {
      "options[0].values": Array.from({ length: 11 }, (_, at) => `S${at}`).join(", "),
      "options[1].name": "Colour",
      "options[1].values": Array.from({ length: 10 }, (_, at) => `C${at}`).join(", "),
    });
    expect(many.status).toBe(409);
    expect(many.body).toMatchObject({
      result: {
        error: {
          "options[0].values": ["These values make 110 combinations: a product has at most 100 variants."],
        },
      },
    });
    expect((await variantsOf(productId)).map(({ option1, onHand }) => [option1, onHand])).toEqual([
      ["S", 3],
      ["M", 0],
    ]);
  });
});
