import { describe, expect, it } from "vitest";
import { lanternRecord } from "../../../../tests/support/catalog-rows";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../../tests/support/test-database";
import { exportCatalog, exportCatalogText } from "./catalog-export.server";
import { readCatalogFile, writeCatalogFile } from "./catalog-file.server";
import { importCatalogRows } from "./catalog-import.server";

/**
 * The back office's streamed export writes, part by part, the very file
 * `npm run catalog:export` writes at once, in each format, whatever the
 * size of its parts.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("the streamed export on $name");

async function joined(parts: AsyncGenerator<string>): Promise<string> {
  let text = "";
  for await (const part of parts) text += part;
  return text;
}

describe.each(engines)("the streamed export on $name", (engine: TestDatabase) => {
  it("is the command's file, byte for byte, in CSV, JSON and NDJSON, with or without products", async () => {
    for (const format of ["csv", "json", "ndjson"] as const) {
      expect(await joined(exportCatalogText(engine.db, format, { pageSize: 2 }))).toBe(
        writeCatalogFile([], format),
      );
    }
    const file = writeCatalogFile(
      Array.from({ length: 5 }, (_, at) =>
        lanternRecord({
          sku: `STREAM-${at + 1}`,
          name: at === 2 ? '=Formula, "quoted"' : `Lantern ${at + 1}`,
          description: "Line one\nline two",
          price: 10 + at,
          stock: at,
        }),
      ),
      "csv",
    );
    const reading = await readCatalogFile(file, "csv");
    expect(reading.problems).toEqual([]);
    await importCatalogRows(
      engine.db,
      reading.rows.map((row) => ({ ...row, image: undefined })),
      { prune: false, keep: reading.skus, now: new Date("2026-06-01"), onPlan: () => true },
    );
    const records = await exportCatalog(engine.db);
    for (const format of ["csv", "json", "ndjson"] as const) {
      // Pages of 2 products: a part boundary falls between every other product.
      expect(await joined(exportCatalogText(engine.db, format, { pageSize: 2 }))).toBe(
        writeCatalogFile(records, format),
      );
    }
  });
});
