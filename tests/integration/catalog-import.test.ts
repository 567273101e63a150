import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { asc, count, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { decimalOfMinor } from "~/commerce/money-sql";
import type { Database } from "~/db/client.server";
import { brands, catalogRevisions, categories, productPictures, products } from "~/db/schema";
import { seedDemoCatalog } from "~/db/seed/seed.server";
import { PLACEHOLDER_PICTURE } from "~/features/catalog/core/catalog-format";
import {
  createPictureStore,
  exportCatalog,
  pictureResponse,
  writeCatalogFile,
} from "~/features/catalog/management/index.server";
import { type ImportRequest, importCatalog } from "../../scripts/catalog/import-command";
import { UsageError } from "../../scripts/database-script";
import { openTestDatabases, reportPostgresSkipped, type TestDatabase } from "../support/test-database";

/**
 * `npm run catalog:import` and `catalog:export` as an owner uses them, on
 * both engines: an owner's CSV with pictures, JSON, NDJSON and a Shopify
 * export; bad files; re-imports, changes and prunes; and export → import.
 * (The command line itself — progress, Ctrl-C, a running shop — is in
 * catalog-import-command.test.ts.)
 */

const work = fs.mkdtempSync(path.join(os.tmpdir(), "backline-import-"));
const FIXTURES = path.resolve("tests/fixtures/catalog");

/** Pictures as an owner has them: a large landscape JPEG, a square PNG, a file that is no picture. */
async function writePictures(folder: string) {
  fs.mkdirSync(folder, { recursive: true });
  const photo = (width: number, height: number, colour: string) =>
    sharp({ create: { width, height, channels: 3, background: colour } });
  await photo(1600, 1000, "#336699").jpeg().toFile(path.join(folder, "lamp.jpg"));
  await photo(600, 600, "#cc6633").png().toFile(path.join(folder, "mug.png"));
  fs.writeFileSync(path.join(folder, "broken.jpg"), "this is not a picture");
}

const OWNER_CSV = [
  "sku,name,description,price,rating,brand,brand_label,category,category_label,created,image",
  'LAMP-1,Brass Desk Lamp,"A warm, dimmable lamp.",89.90,4.5,lumen,Lumen & Co,lighting,Lighting,2026-03-01,pictures/lamp.jpg',
  "MUG-2,Enamel Camp Mug,Holds 350 ml.,12,,lumen,,kitchen,Kitchen,,pictures/mug.png",
  "MUG-3,Enamel Camp Mug Large,Holds 500 ml.,14.5,4,Northpeak,,kitchen,,2026-02-01T08:00:00Z,pictures/broken.jpg",
  "BAG-4,Day Pack 20 L,,59,,Northpeak,,outdoor,,,pictures/nowhere.jpg",
  "BAG-5,Day Pack 30 L,,69,,Northpeak,,outdoor,,,",
].join("\n");

function writeFile(name: string, text: string): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, text);
  return file;
}

function request(file: string, options: Partial<ImportRequest> = {}): ImportRequest {
  return { file, dryRun: false, skipInvalid: false, prune: false, yes: false, ...options };
}

/** Runs an import as the command would, collecting its report. */
async function runImport(engine: TestDatabase, file: string, options: Partial<ImportRequest> = {}) {
  const report: string[] = [];
  try {
    const outcome = await importCatalog(engine.handle, request(file, options), {
      print: (line) => report.push(line),
    });
    return { ...outcome, report: report.join("\n"), failure: undefined };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { message: error.message, exitCode: 1, report: report.join("\n"), failure: error.message };
  }
}

async function catalogue(db: Database) {
  return db
    .select({
      sku: products.sku,
      name: products.name,
      description: products.description,
      price: decimalOfMinor(products.priceMinor, "USD"),
      ratings: products.ratings,
      bandName: products.bandName,
      category: products.category,
      creationDate: products.creationDate,
      image: products.image,
    })
    .from(products)
    .orderBy(asc(products.sku));
}

async function revision(db: Database): Promise<number> {
  const [row] = await db.select({ revision: catalogRevisions.revision }).from(catalogRevisions);
  return row?.revision ?? 0;
}

async function emptyCatalogue(db: Database) {
  await db.execute(sql`truncate products, brands, categories, product_pictures cascade`);
}

let pictureServer: http.Server;
let picturesUrl: string;
/** How many requests the picture server has had: none, when the import refuses its address. */
let pictureRequests = 0;

beforeAll(async () => {
  await writePictures(path.join(work, "pictures"));
  // The owner's pictures on the web, for a Shopify export's Image Src.
  pictureServer = http.createServer((req, res) => {
    pictureRequests++;
    if (req.url === "/endless.jpg") {
      // A picture that never ends and says nothing of its size: the import stops reading at 40 MB.
      res.writeHead(200, { "Content-Type": "image/jpeg" });
      const chunk = Buffer.alloc(1024 * 1024);
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", more);
      };
      more();
      return;
    }
    const file = path.join(work, "pictures", path.basename(req.url ?? ""));
    if (!fs.existsSync(file)) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": "image/jpeg" }).end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => pictureServer.listen(0, "127.0.0.1", resolve));
  picturesUrl = `127.0.0.1:${(pictureServer.address() as AddressInfo).port}`;
  fs.copyFileSync(path.join(work, "pictures", "lamp.jpg"), path.join(work, "pictures", "jacket.jpg"));
  fs.copyFileSync(path.join(work, "pictures", "mug.png"), path.join(work, "pictures", "bottle.png"));
});

const engines = await openTestDatabases();
afterAll(async () => {
  await new Promise((resolve) => pictureServer?.close(resolve));
  fs.rmSync(work, { recursive: true, force: true });
});

describe.each(engines)("importing a catalogue on $name", (engine) => {
  const { db } = engine;
  beforeEach(() => emptyCatalogue(db));

  it("imports an owner's CSV with its pictures, brands and categories", async () => {
    const file = writeFile("owner.csv", OWNER_CSV);
    const result = await runImport(engine, file);
    expect(result.exitCode).toBe(0);
    expect(result.report).toContain("5 new products, 0 updated products, 0 unchanged products.");
    expect(result.report).toContain("New brands: Lumen & Co (lumen), Northpeak.");
    expect(result.report).toContain("New categories: Lighting (lighting), Kitchen (kitchen), outdoor.");
    // A picture that cannot be read is named on its line, and its product shows the placeholder.
    expect(result.report).toMatch(/line 4, column image: It is not a picture the shop can read/);
    expect(result.report).toMatch(/line 5, column image: No picture file at .*nowhere\.jpg/);

    const rows = await catalogue(db);
    expect(
      rows.map(({ sku, price, ratings, bandName, category }) => [sku, price, ratings, bandName, category]),
    ).toEqual([
      ["BAG-4", 59, 0, "Northpeak", "outdoor"],
      ["BAG-5", 69, 0, "Northpeak", "outdoor"],
      ["LAMP-1", 89.9, 4.5, "lumen", "lighting"],
      ["MUG-2", 12, 0, "lumen", "kitchen"],
      ["MUG-3", 14.5, 4, "Northpeak", "kitchen"],
    ]);
    const bySku = Object.fromEntries(rows.map((row) => [row.sku, row]));
    expect(bySku["LAMP-1"]?.creationDate.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(bySku["MUG-3"]?.image).toBe(PLACEHOLDER_PICTURE);
    expect(bySku["BAG-4"]?.image).toBe(PLACEHOLDER_PICTURE);
    expect(bySku["BAG-5"]?.image).toBe(PLACEHOLDER_PICTURE);
    expect(
      await db.select({ value: brands.value, label: brands.label }).from(brands).orderBy(brands.position),
    ).toEqual([
      { value: "lumen", label: "Lumen & Co" },
      { value: "Northpeak", label: "Northpeak" },
    ]);
    expect(
      await db
        .select({ value: categories.value, label: categories.label })
        .from(categories)
        .orderBy(categories.position),
    ).toEqual([
      { value: "lighting", label: "Lighting" },
      { value: "kitchen", label: "Kitchen" },
      { value: "outdoor", label: "outdoor" },
    ]);

    // The shop serves each picture in the widths the pages use, as WebP, to be kept for a year.
    const image = bySku["LAMP-1"]?.image ?? "";
    expect(image).toMatch(/^\/pictures\/[0-9a-f]{20}-800\.webp$/);
    const store = createPictureStore(db);
    for (const width of [400, 800, 1200]) {
      const name = path.basename(image).replace("-800", `-${width}`);
      const response = await pictureResponse(store, new Request(`http://shop/pictures/${name}`), name);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("image/webp");
      expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
      const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual(["webp", width, (width * 3) / 4]);
      const again = await pictureResponse(
        store,
        new Request(`http://shop/pictures/${name}`, {
          headers: { "If-None-Match": response.headers.get("ETag") ?? "" },
        }),
        name,
      );
      expect(again.status).toBe(304);
    }
    const unknown = await pictureResponse(store, new Request("http://shop/pictures/x"), "../../etc/passwd");
    expect(unknown.status).toBe(404);
  });

  it("changes nothing when the same file is imported again, and updates only what changed", async () => {
    const file = writeFile("owner.csv", OWNER_CSV);
    await runImport(engine, file);
    const before = await catalogue(db);
    const revisionBefore = await revision(db);

    const again = await runImport(engine, file);
    expect(again.report).toContain("0 new products, 0 updated products, 5 unchanged products.");
    expect(again.message).toBe("The catalogue already matches the file: nothing to change.");
    expect(await catalogue(db)).toEqual(before);
    expect(await revision(db)).toBe(revisionBefore);

    const changed = writeFile(
      "changed.csv",
      OWNER_CSV.replace("Brass Desk Lamp,", "Brass Desk Lamp II,").replace(
        ",lumen,Lumen & Co,",
        ",lumen,Lumen,",
      ),
    );
    const update = await runImport(engine, changed);
    expect(update.report).toContain("0 new products, 1 updated product, 4 unchanged products.");
    expect(update.report).toContain("Relabelled brands: lumen → Lumen.");
    const after = await catalogue(db);
    expect(after.find((row) => row.sku === "LAMP-1")?.name).toBe("Brass Desk Lamp II");
    expect(after.filter((row) => row.sku !== "LAMP-1")).toEqual(before.filter((row) => row.sku !== "LAMP-1"));
    // A value left empty keeps the product's own: MUG-2's rating and BAG-5's date stay as they were.
    const ratedMug = writeFile(
      "rated.csv",
      OWNER_CSV.replace(
        "MUG-2,Enamel Camp Mug,Holds 350 ml.,12,,",
        "MUG-2,Enamel Camp Mug,Holds 350 ml.,12,3.5,",
      ),
    );
    await runImport(engine, ratedMug);
    await runImport(engine, changed);
    expect((await catalogue(db)).find((row) => row.sku === "MUG-2")?.ratings).toBe(3.5);
  });

  it("removes products the file no longer has only with --prune --yes, after saying how many", async () => {
    const file = writeFile("owner.csv", OWNER_CSV);
    await runImport(engine, file);
    const shorter = writeFile("shorter.csv", OWNER_CSV.split("\n").slice(0, 3).join("\n"));

    const refused = await runImport(engine, shorter, { prune: true });
    expect(refused.exitCode).toBe(1);
    expect(refused.failure).toBe(
      "--prune would remove 3 products that the file does not name. Nothing was changed; run again with --prune --yes to remove them.",
    );
    expect(await catalogue(db)).toHaveLength(5);

    const dryRun = await runImport(engine, shorter, { prune: true, dryRun: true });
    expect(dryRun.report).toContain(
      "0 new products, 0 updated products, 2 unchanged products, 3 products removed (not in the file).",
    );
    expect(dryRun.report).toContain("Removed brands (no product left): Northpeak.");
    expect(dryRun.report).toContain("Removed categories (no product left): outdoor.");
    expect(dryRun.message).toBe("Dry run: nothing was changed.");
    expect(await catalogue(db)).toHaveLength(5);

    const pruned = await runImport(engine, shorter, { prune: true, yes: true });
    expect(pruned.exitCode).toBe(0);
    expect((await catalogue(db)).map((row) => row.sku)).toEqual(["LAMP-1", "MUG-2"]);
    expect((await db.select({ value: brands.value }).from(brands)).map((row) => row.value)).toEqual([
      "lumen",
    ]);

    // Without --prune, products the file lacks stay.
    await runImport(engine, writeFile("one.csv", OWNER_CSV.split("\n").slice(0, 2).join("\n")));
    expect(await catalogue(db)).toHaveLength(2);
  });

  it("with --skip-invalid --prune, keeps a product whose row is only wrong, and prunes by final brands", async () => {
    await runImport(engine, writeFile("owner.csv", OWNER_CSV));
    // MUG-3 has a typo in its price now; BAG-4 and BAG-5 move from Northpeak to Lumen; LAMP-1 is gone.
    const edited = OWNER_CSV.split("\n")
      .filter((line) => !line.startsWith("LAMP-1"))
      .map((line) => (line.startsWith("MUG-3") ? line.replace(",14.5,", ",14,5,") : line))
      .map((line) => (line.startsWith("BAG-") ? line.replace(",Northpeak,", ",Lumen,") : line))
      .join("\n");
    const result = await runImport(engine, writeFile("edited.csv", edited), {
      skipInvalid: true,
      prune: true,
      yes: true,
    });
    expect(result.exitCode).toBe(0);
    expect(result.report).toContain("line 3: This line has 12 values where the header has 11 columns.");
    expect(result.report).toContain("1 product removed (not in the file)");
    const rows = await catalogue(db);
    expect(rows.map((row) => row.sku)).toEqual(["BAG-4", "BAG-5", "MUG-2", "MUG-3"]);
    // "Lumen" found the brand "lumen" by its label, in another letter case; Northpeak still has MUG-3.
    expect(rows.filter((row) => row.sku.startsWith("BAG")).map((row) => row.bandName)).toEqual([
      "lumen",
      "lumen",
    ]);
    expect((await db.select({ value: brands.value }).from(brands)).map((row) => row.value).sort()).toEqual([
      "Northpeak",
      "lumen",
    ]);
    expect(
      (await db.select({ value: categories.value }).from(categories)).map((row) => row.value).sort(),
    ).toEqual(["kitchen", "outdoor"]);
    // LAMP-1's picture went with it; MUG-2's stays.
    const pictures = (await db.select({ name: productPictures.name }).from(productPictures)).map(
      (row) => row.name,
    );
    expect(pictures).toHaveLength(3);
    expect(rows.find((row) => row.sku === "MUG-2")?.image).toContain(
      pictures.find((name) => name.endsWith("-800.webp")),
    );
  });

  it("keeps a product's picture when it cannot be read again, and uses the first label a file gives", async () => {
    await runImport(engine, writeFile("owner.csv", OWNER_CSV));
    const lamp = (await catalogue(db)).find((row) => row.sku === "LAMP-1");
    const moved = OWNER_CSV.replace("pictures/lamp.jpg", "pictures/moved-away.jpg").replace(
      "MUG-2,Enamel Camp Mug,Holds 350 ml.,12,,lumen,,",
      "MUG-2,Enamel Camp Mug,Holds 350 ml.,12,,lumen,Lumen Outdoor,",
    );
    const result = await runImport(engine, writeFile("moved.csv", moved));
    expect(result.report).toMatch(/line 2, column image: No picture file at .*moved-away\.jpg/);
    expect(result.report).toContain(
      'line 3, column brand_label: "lumen" is labelled "Lumen & Co" on line 2; "Lumen Outdoor" here is not used.',
    );
    expect(result.message).toBe("The catalogue already matches the file: nothing to change.");
    expect((await catalogue(db)).find((row) => row.sku === "LAMP-1")?.image).toBe(lamp?.image);
  });

  it("removes brands and categories no product has any more, even when no product changes", async () => {
    await runImport(engine, writeFile("owner.csv", OWNER_CSV));
    await db.execute(sql`insert into brands (value, label) values ('unused', 'Unused')`);
    const result = await runImport(engine, writeFile("owner.csv", OWNER_CSV), { prune: true, yes: true });
    expect(result.report).toContain("Removed brands (no product left): unused.");
    expect(result.message).toMatch(/^Imported /);
    expect((await db.select({ value: brands.value }).from(brands)).map((row) => row.value)).not.toContain(
      "unused",
    );
  });

  it("writes nothing when a row is wrong, and lists every problem with its line and column", async () => {
    await runImport(engine, writeFile("owner.csv", OWNER_CSV));
    const before = await catalogue(db);
    const bad = writeFile(
      "bad.csv",
      [
        OWNER_CSV.replace("89.90", "89.999").replace("MUG-2,Enamel Camp Mug,", "MUG-2,,"),
        "NEW-6,New Product,,free,9,lumen,,lighting,,soon,",
        "LAMP-1,Lamp again,,10,,lumen,,lighting,,,",
      ].join("\n"),
    );
    const result = await runImport(engine, bad);
    expect(result.exitCode).toBe(1);
    expect(result.report).toContain("6 problems:");
    for (const expected of [
      "line 2, column price: price must be an amount such as 19.99",
      "line 3, column name: name is required",
      "line 7, column price: price must be an amount",
      "line 7, column rating: rating must be a number from 0 to 5",
      "line 7, column created: created must be a date such as 2026-03-01",
      'line 8, column sku: sku "LAMP-1" is already on line 2',
    ]) {
      expect(result.report).toContain(expected);
    }
    expect(result.failure).toMatch(
      /^Nothing was imported\. Fix the 6 problems above, or run again with --skip-invalid/,
    );
    expect(await catalogue(db)).toEqual(before);

    // A file broken as a whole (a quote never closed) is never imported, even with --skip-invalid.
    const broken = writeFile("broken.csv", `${OWNER_CSV}\nNEW-7,"Unclosed,,10,,lumen,,lighting,,,`);
    const refused = await runImport(engine, broken, { skipInvalid: true, prune: true, yes: true });
    expect(refused.failure).toMatch(/^Nothing was imported: the file cannot be read as a whole/);
    expect(refused.report).toContain("line 7: A quote opens on this line");
    expect(await catalogue(db)).toEqual(before);

    // --skip-invalid imports the rows that are right and leaves the others out.
    const skipped = await runImport(engine, bad, { skipInvalid: true });
    expect(skipped.exitCode).toBe(0);
    expect(skipped.report).toContain("0 new products, 0 updated products, 3 unchanged products.");
  });

  it("reads JSON and NDJSON into the same catalogue as CSV", async () => {
    await runImport(engine, writeFile("owner.csv", OWNER_CSV));
    const exported = await exportCatalog(db);
    const viaJson = writeFile(
      "owner.json",
      JSON.stringify({ products: exported.map(({ image: _, ...rest }) => rest) }, null, 2),
    );
    const viaNdjson = writeFile("owner.ndjson", writeCatalogFile(exported, "ndjson"));
    expect((await runImport(engine, viaJson)).message).toBe(
      "The catalogue already matches the file: nothing to change.",
    );
    expect((await runImport(engine, viaNdjson)).message).toBe(
      "The catalogue already matches the file: nothing to change.",
    );

    // Into a shop with no products (its pictures kept, as they are after a prune).
    await db.execute(sql`truncate products, brands, categories cascade`);
    const fresh = await runImport(engine, viaNdjson);
    expect(fresh.report).toContain("5 new products");
    expect(await exportCatalog(db)).toEqual(exported);
  });

  it("moves a shop over from Shopify: products in variants (lowest price first), pictures from the web", async () => {
    const file = writeFile(
      "products_export_1.csv",
      fs
        .readFileSync(path.join(FIXTURES, "shopify-products.csv"), "utf8")
        .replaceAll("PICTURES_HOST", picturesUrl),
    );
    // The test's picture server is on this machine: a private address the owner allows.
    const result = await runImport(engine, file, { allowPrivateNetwork: true });
    expect(result.exitCode).toBe(0);
    expect(result.report).toContain("a Shopify product export, 3 products.");
    expect(result.report).toMatch(
      /Not imported \(the shop has no such product field\): Tags, .*Variant Barcode/,
    );
    // A variant line is a variant: its SKU, options, grams and "was" price are read.
    expect(result.report).not.toMatch(/Not imported.*(Variant SKU|Option1 Name|Variant Grams)/);
    expect(result.report).toContain("1 products that are not active in Shopify");
    expect(result.report).toMatch(
      /line 6, column image: http:\/\/127\.0\.0\.1:\d+\/missing\.jpg answered 404/,
    );
    const rows = await catalogue(db);
    expect(rows.map(({ sku, price, bandName, category }) => [sku, price, bandName, category])).toEqual([
      ["alpine-water-bottle", 32.5, "Northpeak", "Water Bottles"],
      ["summit-headlamp", 44.95, "Lumen & Co", "Lighting"],
      ["trail-runner-jacket", 119, "Northpeak", "Jackets"],
    ]);
    expect(rows[2]?.description).not.toMatch(/<|alert/);
    expect(rows[2]?.image).toMatch(/^\/pictures\/[0-9a-f]{20}-800\.webp$/);
    expect(rows[1]?.image).toBe(PLACEHOLDER_PICTURE);
    const [stored] = await db.select({ pictures: count() }).from(productPictures);
    expect(stored?.pictures).toBe(6);

    // The same export again: nothing changes (the pictures are known by their content).
    expect((await runImport(engine, file, { allowPrivateNetwork: true })).report).toContain(
      "0 new products, 0 updated products, 3 unchanged products.",
    );
  });

  it("stops reading a picture past 40 MB, and says so on its line", async () => {
    const file = writeFile(
      "endless.csv",
      `sku,name,price,brand,category,image\nBIG-1,Huge Poster,10,lumen,posters,http://${picturesUrl}/endless.jpg\n`,
    );
    const result = await runImport(engine, file, { allowPrivateNetwork: true });
    expect(result.report).toMatch(
      /line 2, column image: http:\/\/127\.0\.0\.1:\d+\/endless\.jpg is larger than 40 MB\./,
    );
    expect((await catalogue(db))[0]?.image).toBe(PLACEHOLDER_PICTURE);
  });

  it("downloads no picture from the shop's own network unless the owner allows it", async () => {
    const port = picturesUrl.split(":")[1];
    const addresses = [
      `http://127.0.0.1:${port}/lamp.jpg`,
      `http://localhost:${port}/lamp.jpg`,
      `http://[::1]:${port}/lamp.jpg`,
      `http://[::ffff:127.0.0.1]:${port}/lamp.jpg`,
      `http://[fd00::1]:${port}/lamp.jpg`,
      `http://0.0.0.0:${port}/lamp.jpg`,
      "http://169.254.169.254/latest/meta-data/",
      `http://10.0.0.1:${port}/lamp.jpg`,
    ];
    const lines = [
      "sku,name,price,brand,category,image",
      ...addresses.map((address, at) => `NET-${at},Lamp ${at},10,lumen,lighting,${address}`),
    ];
    const file = writeFile("intranet.csv", lines.join("\n"));
    const requestsBefore = pictureRequests;
    const refused = await runImport(engine, file);
    expect(refused.exitCode).toBe(0);
    expect(refused.report).toContain(`${addresses.length} pictures could not be read`);
    for (const line of addresses.keys()) {
      // One plain message for every internal address: why, and the option that allows it.
      expect(refused.report).toMatch(
        new RegExp(
          `line ${line + 2}, column image: http://\\S+ is on a private or local network address: the import downloads pictures only from the public internet\\. If they are on your own network, run again with --allow-private-network\\.`,
        ),
      );
    }
    expect(pictureRequests).toBe(requestsBefore);
    expect(new Set((await catalogue(db)).map((row) => row.image))).toEqual(new Set([PLACEHOLDER_PICTURE]));

    // The owner says the pictures are on their own network: the same address is downloaded.
    const allowed = await runImport(engine, writeFile("intranet-one.csv", lines.slice(0, 2).join("\n")), {
      allowPrivateNetwork: true,
    });
    expect(allowed.report).not.toContain("could not be read");
    expect((await catalogue(db)).find((row) => row.sku === "NET-0")?.image).toMatch(
      /^\/pictures\/[0-9a-f]{20}-800\.webp$/,
    );
    expect(pictureRequests).toBe(requestsBefore + 1);
  });

  it("reads no picture file outside the catalogue's folder, by a path or a symbolic link", async () => {
    const shop = path.join(work, "shop");
    fs.mkdirSync(path.join(shop, "pictures"), { recursive: true });
    fs.copyFileSync(path.join(work, "pictures", "lamp.jpg"), path.join(shop, "pictures", "lamp.jpg"));
    // A real picture next to the folder, reachable by "..", an absolute path, or a link.
    fs.copyFileSync(path.join(work, "pictures", "mug.png"), path.join(work, "outside.png"));
    fs.rmSync(path.join(shop, "pictures", "escape.png"), { force: true });
    fs.symlinkSync(path.join(work, "outside.png"), path.join(shop, "pictures", "escape.png"));
    fs.rmSync(path.join(shop, "pictures", "alias.jpg"), { force: true });
    fs.symlinkSync("lamp.jpg", path.join(shop, "pictures", "alias.jpg"));
    const file = path.join(shop, "catalogue.csv");
    fs.writeFileSync(
      file,
      [
        "sku,name,price,brand,category,image",
        "FILE-1,Lamp,10,lumen,lighting,pictures/lamp.jpg",
        "FILE-2,Mug,10,lumen,kitchen,../outside.png",
        "FILE-3,Passwords,10,lumen,kitchen,/etc/passwd",
        `FILE-4,Mug again,10,lumen,kitchen,${path.join(work, "outside.png")}`,
        "FILE-5,Linked mug,10,lumen,kitchen,pictures/escape.png",
        "FILE-6,Linked lamp,10,lumen,lighting,pictures/alias.jpg",
        "FILE-7,Climbing lamp,10,lumen,lighting,pictures/../pictures/lamp.jpg",
      ].join("\n"),
    );
    const result = await runImport(engine, file);
    expect(result.exitCode).toBe(0);
    expect(result.report).toContain("5 pictures could not be read");
    expect(result.report).toContain(
      'line 3, column image: "../outside.png" leads out of the pictures\' folder: a picture file is named relative to the catalogue file\'s folder (or to --images DIR), without "..".',
    );
    expect(result.report).toContain(
      'line 4, column image: "/etc/passwd" is an absolute path: a picture file is named relative to the catalogue file\'s folder (or to --images DIR).',
    );
    expect(result.report).toMatch(/line 5, column image: ".*outside\.png" is an absolute path/);
    expect(result.report).toContain(
      'line 6, column image: "pictures/escape.png" is a link to a file outside the pictures\' folder; copy the picture into the folder instead.',
    );
    expect(result.report).toMatch(/line 8, column image: "pictures\/\.\.\/pictures\/lamp\.jpg" leads out/);
    const images = Object.fromEntries((await catalogue(db)).map((row) => [row.sku, row.image]));
    expect(images["FILE-1"]).toMatch(/^\/pictures\/[0-9a-f]{20}-800\.webp$/);
    expect(images["FILE-6"]).toBe(images["FILE-1"]);
    for (const sku of ["FILE-2", "FILE-3", "FILE-4", "FILE-5", "FILE-7"])
      expect(images[sku]).toBe(PLACEHOLDER_PICTURE);
  });

  it("names a file it cannot read or whose kind it does not know, and changes nothing", async () => {
    const missing = await runImport(engine, path.join(work, "nowhere.csv"));
    expect(missing.failure).toBe(`${path.join(work, "nowhere.csv")} cannot be read: there is no such file.`);
    const spreadsheet = await runImport(engine, writeFile("catalogue.xlsx", "PK"));
    expect(spreadsheet.failure).toMatch(
      /catalogue\.xlsx: a catalogue file ends in \.csv, \.json, \.ndjson or \.jsonl\./,
    );
    expect(await catalogue(db)).toEqual([]);
  });

  it("exports names a spreadsheet would run as formulas behind a quote, and imports them back unchanged", async () => {
    const names = ["-20% Sale", "@home", "=1+1", "+44 adapter", "'=typed with a quote", "'plain quote"];
    const owner = writeFile(
      "formulas.json",
      JSON.stringify(
        names.map((name, at) => ({
          sku: `F-${at}`,
          name,
          description: at === 0 ? "-50% on the second one" : "@ the shop",
          price: 10 + at,
          brand: "lumen",
          category: "lighting",
          created: "2026-03-01",
        })),
      ),
    );
    await runImport(engine, owner);
    const before = await catalogue(db);
    const exported = writeFile("formulas.csv", writeCatalogFile(await exportCatalog(db), "csv"));
    const text = fs.readFileSync(exported, "utf8");
    for (const cell of [
      "'-20% Sale",
      "'@home",
      "'=1+1",
      "'+44 adapter",
      "''=typed with a quote",
      "'-50% on the second one",
      "'@ the shop",
    ]) {
      expect(text).toContain(`,${cell},`);
    }
    expect(text).toContain(",'plain quote,");

    const again = await runImport(engine, exported);
    expect(again.message).toBe("The catalogue already matches the file: nothing to change.");
    expect(await catalogue(db)).toEqual(before);
    await emptyCatalogue(db);
    await runImport(engine, exported);
    expect(await catalogue(db)).toEqual(before);
    expect(writeCatalogFile(await exportCatalog(db), "csv")).toBe(text);
  });

  it.each(["csv", "json", "ndjson"] as const)(
    "exports the demo catalogue as %s and imports it back unchanged",
    async (format) => {
      await seedDemoCatalog(db);
      const before = await catalogue(db);
      const exported = writeFile(`export.${format}`, writeCatalogFile(await exportCatalog(db), format));
      const result = await runImport(engine, exported);
      expect(result.report).toContain(
        `0 new products, 0 updated products, ${before.length} unchanged products.`,
      );
      expect(await catalogue(db)).toEqual(before);
      // …and into an empty shop, the same catalogue again, file for file.
      await emptyCatalogue(db);
      await runImport(engine, exported);
      expect(writeCatalogFile(await exportCatalog(db), format)).toBe(fs.readFileSync(exported, "utf8"));
    },
  );
});
reportPostgresSkipped("importing a catalogue on $name");
