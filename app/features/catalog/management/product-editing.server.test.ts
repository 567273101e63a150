import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { products } from "~/db/schema";
import { COMMAND_LINE } from "~/utils/audit-log.server";
import { productWithVariants } from "../../../../tests/support/product-variants";
import { productInStock } from "../../../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../../tests/support/test-database";
import { type ProductForm, productFormSchema } from "../core/product-form-schema";
import { saveProduct } from "./product-editing.server";

const engines = await openTestDatabases();

describe.each(engines)("saving a product sold in variants, on $name", (engine: TestDatabase) => {
  const { db } = engine;

  it("refuses one price or one stock for it, naming the field, and saves the rest", async () => {
    const shirt = await productWithVariants(engine, {
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], priceMinor: 1000, onHand: 3 },
        { values: ["M"], priceMinor: 1200, onHand: 4 },
      ],
    });
    const id = shirt.productId;
    const [before] = await db.select().from(products).where(eq(products.id, id));
    const form: ProductForm = {
      name: before?.name as string,
      sku: shirt.sku,
      brand: before?.bandName as string,
      category: before?.category as string,
      // As the form shows it: the cheapest variant's price, the variants' units summed.
      price: 1000,
      stock: 7,
      stockShown: 7,
      description: "Makes tea.",
    };
    const message = "This product is sold in 2 variants: each has its own price and stock, set per variant.";
    expect(await saveProduct(db, COMMAND_LINE, id, { ...form, price: 999 }, undefined)).toEqual({
      refused: { field: "price", message },
    });
    expect(await saveProduct(db, COMMAND_LINE, id, { ...form, stock: 20 }, undefined)).toEqual({
      refused: { field: "stock", message },
    });
    expect(await saveProduct(db, COMMAND_LINE, id, { ...form, name: "Linen shirt" }, undefined)).toEqual({
      saved: true,
    });
    const [after] = await db.select().from(products).where(eq(products.id, id));
    expect(after).toMatchObject({ name: "Linen shirt", priceMinor: 1000, priceMaxMinor: 1200 });
  });

  it("refuses one price for a product with options even when one variant is left", async () => {
    const tent = await productWithVariants(engine, {
      options: [{ name: "Size", values: ["2-person"] }],
      variants: [{ values: ["2-person"], priceMinor: 9900, onHand: 2 }],
    });
    const [before] = await db.select().from(products).where(eq(products.id, tent.productId));
    const form: ProductForm = {
      name: before?.name as string,
      sku: tent.sku,
      brand: before?.bandName as string,
      category: before?.category as string,
      price: 8900,
      stock: 2,
      stockShown: 2,
    };
    expect(await saveProduct(db, COMMAND_LINE, tent.productId, form, undefined)).toEqual({
      refused: {
        field: "price",
        message: "This product has options: its price and stock are set per variant.",
      },
    });
  });

  it("keeps the tax class the form gives, the same for any case typed, and none when left empty", async () => {
    const book = { productId: await productInStock(engine, 5, 12) };
    const [before] = await db.select().from(products).where(eq(products.id, book.productId));
    const schema = productFormSchema("USD");
    const typedForm = {
      name: before?.name,
      sku: before?.sku,
      brand: before?.bandName,
      category: before?.category,
      price: "12.00",
      stock: "5",
      stockShown: "5",
    };
    const typed = (taxClass: string) => schema.parse({ ...typedForm, taxClass });
    const taxClass = async () =>
      (
        await db.select({ taxClass: products.taxClass }).from(products).where(eq(products.id, book.productId))
      )[0]?.taxClass;

    expect(await saveProduct(db, COMMAND_LINE, book.productId, typed(" Reduced "), undefined)).toEqual({
      saved: true,
    });
    expect(await taxClass()).toBe("reduced");
    const { taxClass: _, ...withoutClass } = typed("reduced");
    expect(await saveProduct(db, COMMAND_LINE, book.productId, withoutClass, undefined)).toEqual({
      saved: true,
    });
    expect(await taxClass()).toBeNull();
    expect(schema.safeParse({ ...typedForm, taxClass: "re duced" }).error?.issues[0]).toMatchObject({
      path: ["taxClass"],
      message: "Tax class is lowercase letters, digits and dashes, like reduced.",
    });
  });
});

reportPostgresSkipped("saving a product sold in variants, on $name");
