import fs from "node:fs";
import path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { asc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { catalogRevisions, products, productVariants, stockLevels } from "~/db/schema";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../../tests/support/test-database";
import { exportCatalog, exportCatalogText } from "./catalog-export.server";
import { readCatalogFile, writeCatalogFile } from "./catalog-file.server";
import { type ImportPlan, importCatalogRows } from "./catalog-import.server";

/**
 * Products in variants through the import and export (docs/decisions/0045):
 * a row per variant in the shop's own files and in Shopify's, written by the
 * variant writer, and an export imported again changes nothing.
 */
const engines = await openTestDatabases();

const SHOPIFY_FIXTURE = fs.readFileSync(path.resolve("tests/fixtures/catalog/shopify-products.csv"), "utf8");

const HEADER =
  "sku,name,price,stock,brand,category,option1_name,option1_value,option2_name,option2_value,variant_sku,compare_at_price,weight_grams";
const SHIRT = [
  HEADER,
  "SHIRT,Shirt,12,3,lumen,apparel,Size,S,Colour,Red,SHIRT-S-R,15,180",
  "SHIRT,,14,0,,,,M,,Red,SHIRT-M-R,,",
  "SHIRT,,14,5,,,,M,,Blue,SHIRT-M-B,,200",
].join("\n");

async function joined(parts: AsyncGenerator<string>): Promise<string> {
  let text = "";
  for await (const part of parts) text += part;
  return text;
}

describe.each(engines)("importing and exporting products in variants, on $name", (engine: TestDatabase) => {
  const { db } = engine;
  const run = async (text: string): Promise<ImportPlan> => {
    const reading = await readCatalogFile(text, "csv");
    expect(reading.problems).toEqual([]);
    const rows = reading.rows.map((row) => ({ ...row, image: undefined }));
    return importCatalogRows(db, rows, {
      prune: false,
      keep: reading.skus,
      now: new Date("2026-06-01"),
      onPlan: () => true,
    });
  };
  const variantsOf = async (sku: string) =>
    db
      .select({
        sku: productVariants.sku,
        values: sql<
          string[]
        >`array_remove(array[${productVariants.option1}, ${productVariants.option2}, ${productVariants.option3}], null)`,
        priceMinor: productVariants.priceMinor,
        compareAtMinor: productVariants.compareAtMinor,
        weightGrams: productVariants.weightGrams,
        onHand: stockLevels.onHand,
      })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .innerJoin(stockLevels, eq(stockLevels.variantId, productVariants.id))
      .where(sql`${products.sku} = ${sku} and ${productVariants.archivedAt} is null`)
      .orderBy(asc(productVariants.position));
  const revision = async () => (await db.select().from(catalogRevisions))[0]?.revision;

  beforeEach(async () => {
    await db.execute(sql`truncate orders, order_lines, products, brands, categories cascade`);
  });

  it("makes a product of a row per variant, and an export imported again changes nothing", async () => {
    expect(await run(SHIRT)).toMatchObject({ added: [expect.objectContaining({ sku: "SHIRT" })] });
    expect(await variantsOf("SHIRT")).toEqual([
      {
        sku: "SHIRT-S-R",
        values: ["S", "Red"],
        priceMinor: 1200,
        compareAtMinor: 1500,
        weightGrams: 180,
        onHand: 3,
      },
      {
        sku: "SHIRT-M-R",
        values: ["M", "Red"],
        priceMinor: 1400,
        compareAtMinor: null,
        weightGrams: null,
        onHand: 0,
      },
      {
        sku: "SHIRT-M-B",
        values: ["M", "Blue"],
        priceMinor: 1400,
        compareAtMinor: null,
        weightGrams: 200,
        onHand: 5,
      },
    ]);
    const [shirt] = await db.select().from(products).where(eq(products.sku, "SHIRT"));
    expect(shirt).toMatchObject({ priceMinor: 1200, priceMaxMinor: 1400, compareAtMinor: 1500 });

    const before = await revision();
    for (const format of ["csv", "json", "ndjson"] as const) {
      const text = writeCatalogFile(await exportCatalog(db), format);
      const reading = await readCatalogFile(text, format);
      expect(reading.problems).toEqual([]);
      const plan = await importCatalogRows(db, reading.rows, {
        prune: true,
        keep: reading.skus,
        now: new Date("2026-07-01"),
        onPlan: () => true,
      });
      expect(plan).toMatchObject({ added: [], updated: [], removed: [], unchanged: 1, warnings: [] });
    }
    expect(await revision()).toBe(before);
  });

  it("changes, adds and removes variants by their rows, keeping what a row leaves empty", async () => {
    await run(SHIRT);
    const changed = [
      HEADER,
      // A new price and stock for S/Red; its "was" price and weight left empty: kept.
      "SHIRT,Shirt,11,9,lumen,apparel,Size,S,Colour,Red,SHIRT-S-R,,",
      // M/Red is gone; L/Blue is new.
      "SHIRT,,14,5,,,,M,,Blue,SHIRT-M-B,,200",
      "SHIRT,,16,2,,,,L,,Blue,SHIRT-L-B,,",
    ].join("\n");
    expect(await run(changed)).toMatchObject({ updated: [expect.objectContaining({ sku: "SHIRT" })] });
    expect(await variantsOf("SHIRT")).toEqual([
      {
        sku: "SHIRT-S-R",
        values: ["S", "Red"],
        priceMinor: 1100,
        compareAtMinor: 1500,
        weightGrams: 180,
        onHand: 9,
      },
      {
        sku: "SHIRT-M-B",
        values: ["M", "Blue"],
        priceMinor: 1400,
        compareAtMinor: null,
        weightGrams: 200,
        onHand: 5,
      },
      {
        sku: "SHIRT-L-B",
        values: ["L", "Blue"],
        priceMinor: 1600,
        compareAtMinor: null,
        weightGrams: null,
        onHand: 2,
      },
    ]);
    const [shirt] = await db.select().from(products).where(eq(products.sku, "SHIRT"));
    expect(shirt).toMatchObject({ priceMinor: 1100, priceMaxMinor: 1600 });
  });

  it("leaves out a product whose variant's SKU is another product's, and says so on its line", async () => {
    await run(SHIRT);
    const plan = await run(
      [HEADER, "CAP,Cap,9,1,lumen,apparel,Size,One,,,SHIRT-M-B,,", "MUG,Mug,5,2,lumen,kitchen,,,,,,,"].join(
        "\n",
      ),
    );
    expect(plan.added.map((product) => product.sku)).toEqual(["MUG"]);
    expect(plan.warnings).toEqual([
      {
        line: 2,
        message: "CAP is left out: SKU SHIRT-M-B is a variant of SHIRT; each SKU names one variant.",
      },
    ]);
  });

  it("imports a Shopify export with its variants, and exports it again as the same variant rows", async () => {
    const plan = await run(SHOPIFY_FIXTURE);
    expect(plan.added.map((product) => product.sku)).toEqual([
      "trail-runner-jacket",
      "alpine-water-bottle",
      "summit-headlamp",
    ]);
    expect(await variantsOf("trail-runner-jacket")).toEqual([
      {
        sku: "NP-TRJ-S-M",
        values: ["S", "Moss"],
        priceMinor: 12900,
        compareAtMinor: 14900,
        weightGrams: 310,
        onHand: 12,
      },
      {
        sku: "NP-TRJ-M-M",
        values: ["M", "Moss"],
        priceMinor: 11900,
        compareAtMinor: 14900,
        weightGrams: 320,
        onHand: 8,
      },
      {
        sku: "NP-TRJ-L-M",
        values: ["L", "Moss"],
        priceMinor: 12900,
        compareAtMinor: 14900,
        weightGrams: 330,
        onHand: 3,
      },
    ]);
    expect(await variantsOf("alpine-water-bottle")).toEqual([
      {
        sku: "alpine-water-bottle",
        values: [],
        priceMinor: 3250,
        compareAtMinor: null,
        weightGrams: 400,
        onHand: 40,
      },
    ]);

    const exported = await joined(exportCatalogText(db, "shopify", { origin: "https://shop.example" }));
    const columns = [
      "Handle",
      "Title",
      "Vendor",
      "Published",
      "Option1 Name",
      "Option1 Value",
      "Option2 Name",
      "Option2 Value",
      "Option3 Name",
      "Option3 Value",
      "Variant Grams",
      "Variant Inventory Qty",
      "Variant Price",
      "Variant Compare At Price",
    ];
    // A product without options is sold under its Handle: its Variant SKU is compared where it has options.
    const variantRows = (text: string) =>
      (parseCsv(text, { columns: true }) as Record<string, string>[])
        .filter((row) => row.Handle !== "winter-gloves-draft")
        .map((row) => ({
          ...Object.fromEntries(columns.map((column) => [column, row[column]])),
          ...(row["Option1 Name"] === "Title" ? {} : { "Variant SKU": row["Variant SKU"] }),
        }));
    expect(variantRows(exported)).toEqual(variantRows(SHOPIFY_FIXTURE));
    // Read back, the Shopify export changes nothing.
    expect(await run(exported)).toMatchObject({ added: [], updated: [], unchanged: 3, warnings: [] });
  });
});

reportPostgresSkipped(import.meta.url);
