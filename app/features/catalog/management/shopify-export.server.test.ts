import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type CatalogFileReading, readCatalogFile } from "./catalog-file.server";

describe("reading Shopify's product export", () => {
  const text = fs.readFileSync(path.resolve("tests/fixtures/catalog/shopify-products.csv"), "utf8");
  let reading: CatalogFileReading;
  beforeAll(async () => {
    reading = await readCatalogFile(text, "csv");
  });

  it("maps Handle, Title, Vendor, Type and Variant Price onto the shop's product", async () => {
    expect(reading.kind).toBe("shopify");
    expect(reading.problems).toEqual([]);
    expect(
      reading.rows.map(({ line, sku, name, brand, category, price }) => ({
        line,
        sku,
        name,
        brand,
        category,
        price,
      })),
    ).toEqual([
      // Three variants: the lowest price is the product's.
      {
        line: 2,
        sku: "trail-runner-jacket",
        name: "Trail Runner Jacket",
        brand: "Northpeak",
        category: "Jackets",
        price: 119,
      },
      // No Type: the last step of Shopify's product category names it.
      {
        line: 5,
        sku: "alpine-water-bottle",
        name: "Alpine Water Bottle",
        brand: "Northpeak",
        category: "Water Bottles",
        price: 32.5,
      },
      {
        line: 6,
        sku: "summit-headlamp",
        name: "Summit Headlamp",
        brand: "Lumen & Co",
        category: "Lighting",
        price: 44.95,
      },
    ]);
  });

  it("reads a product's variant lines as its variants: options, SKU, price, was price, stock, grams", async () => {
    const [jacket, bottle] = reading.rows;
    expect(jacket?.options).toEqual([
      { name: "Size", values: ["S", "M", "L"] },
      { name: "Color", values: ["Moss"] },
    ]);
    expect(jacket?.variants).toEqual([
      {
        line: 2,
        sku: "NP-TRJ-S-M",
        values: ["S", "Moss"],
        price: 129,
        compareAtPrice: 149,
        stock: 12,
        weightGrams: 310,
      },
      {
        line: 3,
        sku: "NP-TRJ-M-M",
        values: ["M", "Moss"],
        price: 119,
        compareAtPrice: 149,
        stock: 8,
        weightGrams: 320,
      },
      {
        line: 4,
        sku: "NP-TRJ-L-M",
        values: ["L", "Moss"],
        price: 129,
        compareAtPrice: 149,
        stock: 3,
        weightGrams: 330,
      },
    ]);
    // "Title: Default Title" is Shopify's product without options: sold under its Handle.
    expect(bottle?.options).toEqual([]);
    expect(bottle?.variants).toEqual([
      { line: 5, sku: "alpine-water-bottle", values: [], price: 32.5, stock: 40, weightGrams: 400 },
    ]);
  });

  it("keeps descriptions as plain text: no tags, no scripts, entities decoded", async () => {
    expect(reading.rows[0]?.description).toBe(
      "A featherweight shell for wet runs.\n\n * Taped seams\n * Packs into its own pocket",
    );
    expect(reading.rows[1]?.description).toBe(
      "Double-walled steel keeps drinks cold for 24 hours & hot for 12.",
    );
    expect(reading.rows[2]?.description).toBe("Bright\n\n400 lumens, full specs.");
  });

  it("takes the first picture, says what it merged and left out, and which columns it ignored", async () => {
    expect(reading.rows[0]?.image).toBe("http://PICTURES_HOST/jacket.jpg");
    expect(reading.notes).toEqual([
      "1 products that are not active in Shopify (draft, archived or unpublished) were left out.",
    ]);
    expect(reading.ignoredColumns).toContain("Tags");
    expect(reading.ignoredColumns).toContain("Variant Barcode");
    expect(reading.ignoredColumns).not.toContain("Variant SKU");
    expect(reading.ignoredColumns).not.toContain("Vendor");
  });

  it("names a line without a Handle, and a product's own wrong price even when its variants have good ones", async () => {
    const lines = text.trimEnd().split("\n");
    const broken = [...lines.slice(0, 2), lines[2]?.replace(/^trail-runner-jacket,/, ","), ...lines.slice(3)]
      .join("\n")
      .replace("129.00,149.00", "129abc,149.00");
    const reading = await readCatalogFile(broken, "csv");
    expect(reading.problems).toEqual([
      { line: 2, column: "Variant Price", message: expect.stringContaining("price must be an amount") },
      { line: 3, column: "Handle", message: "Handle is required: it is the product's key (its sku)." },
    ]);
  });

  it("leaves out a product Shopify does not publish, when the export has no Status column", async () => {
    const withoutStatus = text
      .split("\n")
      .map((line) => line.replace(/,[^,]*$/, ""))
      .join("\n");
    const reading = await readCatalogFile(withoutStatus, "csv");
    expect(reading.rows.map((row) => row.sku)).not.toContain("winter-gloves-draft");
    expect(reading.notes).toContain(
      "1 products that are not active in Shopify (draft, archived or unpublished) were left out.",
    );
  });

  it("reads Variant Inventory Qty as the stock, the variants' units added up", async () => {
    expect(reading.rows.map(({ sku, stock }) => [sku, stock])).toEqual([
      ["trail-runner-jacket", 23],
      ["alpine-water-bottle", 40],
      ["summit-headlamp", 25],
    ]);
    expect(reading.ignoredColumns).not.toContain("Variant Inventory Qty");
  });

  it("names an oversold variant's negative units on its own line, as a bad stock", async () => {
    const oversold = text.replace("NP-TRJ-M-M,320,shopify,8,", "NP-TRJ-M-M,320,shopify,-2,");
    expect(oversold).not.toBe(text);
    expect((await readCatalogFile(oversold, "csv")).problems).toEqual([
      {
        line: 3,
        column: "Variant Inventory Qty",
        message: "stock must be a whole number of units, 0 or more, such as 12.",
      },
    ]);
  });

  it("names Shopify's own column when a value is wrong", async () => {
    const broken = text.replace("32.50", "free");
    expect((await readCatalogFile(broken, "csv")).problems).toEqual([
      {
        line: 5,
        column: "Variant Price",
        message: "price must be an amount such as 19.99 (0 to 99999999.99, at most two decimals).",
      },
    ]);
  });
});
