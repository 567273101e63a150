import { eq, inArray, sql } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { auditLog, catalogImports, products } from "~/db/schema";
import { writeCatalogFile } from "~/features/catalog/management/index.server";
import { lanternRecord } from "../../tests/support/catalog-rows";
import { callRoute, type RouteHandler } from "../../tests/support/route-call";
import { shopContext } from "../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { loader as exportLoader } from "./admin.catalog-export";
import { action as uploadAction } from "./admin.catalog-import";
import { action as confirmAction, loader as importLoader } from "./admin.catalog-import-file";
import { loader as progressLoader } from "./admin.catalog-import-progress";

/**
 * The back office's import and export, as a browser drives them: upload a
 * file, read its dry run, confirm it (once, however often it is sent), follow
 * its progress to the result; download the catalogue in each format.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("the back office's catalogue import on $name");

/** What the browser gets: status, redirect, data (data() or a thrown redirect/404 alike). */
const call = (
  handler: RouteHandler,
  context: Readonly<RouterContextProvider>,
  path: string,
  { cookie, body, params }: { cookie: string; body?: FormData | URLSearchParams; params?: object },
) => callRoute(handler, path, { context, cookie, form: body, params });

function upload(name: string, text: string) {
  const form = new FormData();
  form.set("file", new File([text], name, { type: "text/csv" }));
  return form;
}

const catalogue = (
  prefix: string,
  rows: number,
  { badPriceAt, image = "" }: { badPriceAt?: number; image?: string } = {},
) =>
  writeCatalogFile(
    Array.from({ length: rows }, (_, at) =>
      lanternRecord({
        sku: `${prefix}-${at + 1}`,
        name: `Trailhead Lantern ${at + 1}`,
        price: at === badPriceAt ? "twelve" : 12 + at,
        ...(at === 0 ? { image } : {}),
      }),
    ),
    "csv",
  );

describe.each(engines)("the back office's catalogue import on $name", (engine: TestDatabase) => {
  const { context, signedUpAs } = shopContext(engine);
  const skusLike = async (prefix: string) =>
    (
      await engine.db
        .select({ sku: products.sku })
        .from(products)
        .where(sql`${products.sku} like ${`${prefix}-%`}`)
    )
      .map(({ sku }) => sku)
      .sort();

  /** The progress route until the import is over: what the page polls. */
  async function finished(cookie: string, id: string) {
    return vi.waitFor(
      async () => {
        const progress = await call(progressLoader, context, `/admin/products/import/${id}/progress`, {
          cookie,
          params: { importId: id },
        });
        expect(progress.body.status).not.toBe("writing");
        return progress.body;
      },
      { timeout: 20_000, interval: 50 },
    );
  }

  it("names a bad line by its number, changes nothing on upload, and imports the good lines only when asked", async () => {
    const prefix = `BAD${engine.name}`;
    const owner = await signedUpAs(`owner-import-${engine.name.toLowerCase()}@example.com`, "owner");
    const sent = await call(uploadAction, context, "/admin/products/import", {
      cookie: owner,
      body: upload("lanterns.csv", catalogue(prefix, 3, { badPriceAt: 1 })),
    });
    expect(sent.status).toBe(303);
    const id = sent.location?.split("/").at(-1) as string;

    const page = await call(importLoader, context, sent.location as string, {
      cookie: owner,
      params: { importId: id },
    });
    expect(page.body.status).toBe("checked");
    // The header is line 1: the second product's row is line 3.
    expect(page.body.check.problems).toEqual([expect.objectContaining({ line: 3, column: "price" })]);
    expect(page.body.check.changes.added.count).toBe(2);
    expect(await skusLike(prefix)).toEqual([]);

    const refused = await call(confirmAction, context, sent.location as string, {
      cookie: owner,
      params: { importId: id },
      body: new URLSearchParams(),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.refusal.field).toBe("skipInvalid");
    expect(await skusLike(prefix)).toEqual([]);

    const confirmed = await call(confirmAction, context, sent.location as string, {
      cookie: owner,
      params: { importId: id },
      body: new URLSearchParams({ skipInvalid: "on" }),
    });
    expect(confirmed.status).toBe(303);
    const progress = await finished(owner, id);
    expect(progress).toMatchObject({ status: "done", progressDone: 2, progressTotal: 2 });
    expect(progress.result).toMatchObject({
      outcome: "imported",
      counts: { added: 2, updated: 0, removed: 0 },
    });
    expect(await skusLike(prefix)).toEqual([`${prefix}-1`, `${prefix}-3`]);
  });

  it("imports once when the same import is confirmed twice at once, with one audit entry of counts", async () => {
    const prefix = `TWICE${engine.name}`;
    const staff = await signedUpAs(`staff-import-${engine.name.toLowerCase()}@example.com`, "staff");
    const sent = await call(uploadAction, context, "/admin/products/import", {
      cookie: staff,
      body: upload("twice.csv", catalogue(prefix, 4)),
    });
    const id = sent.location?.split("/").at(-1) as string;
    const confirm = () =>
      call(confirmAction, context, `/admin/products/import/${id}`, {
        cookie: staff,
        params: { importId: id },
        body: new URLSearchParams(),
      });

    const answers = await Promise.all([confirm(), confirm()]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    const progress = await finished(staff, id);
    expect(progress).toMatchObject({ status: "done", progressDone: 4, progressTotal: 4 });
    // And once more after it is done: refused, nothing written again.
    const late = await confirm();
    expect(late.status).toBe(409);
    expect(late.body.refusal.message).toMatch(/confirmed already/);

    expect(await skusLike(prefix)).toHaveLength(4);
    const entries = await engine.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.actorEmail, `staff-import-${engine.name.toLowerCase()}@example.com`));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: "catalog.imported",
      after: { added: 4, updated: 0, removed: 0 },
    });
  });

  // Another connection holds the import lock (a command-line import, say): the page's import waits,
  // and its progress, read from the row, says so from any process until it is written.
  if (engine.kind === "postgres") {
    it("shows an import as being written while it waits for another, then its result", async () => {
      const prefix = `WAIT${engine.name}`;
      const owner = await signedUpAs("owner-wait@example.com", "owner");
      const sent = await call(uploadAction, context, "/admin/products/import", {
        cookie: owner,
        body: upload("wait.csv", catalogue(prefix, 3)),
      });
      const id = sent.location?.split("/").at(-1) as string;
      const other = await (engine.handle.pool as NonNullable<typeof engine.handle.pool>).connect();
      try {
        await other.query("select pg_advisory_lock(4207003)");
        const confirmed = await call(confirmAction, context, `/admin/products/import/${id}`, {
          cookie: owner,
          params: { importId: id },
          body: new URLSearchParams(),
        });
        expect(confirmed.status).toBe(303);
        const progress = await call(progressLoader, context, `/admin/products/import/${id}/progress`, {
          cookie: owner,
          params: { importId: id },
        });
        expect(progress.body).toMatchObject({ status: "writing", result: { step: "Starting" } });
        const page = await call(importLoader, context, `/admin/products/import/${id}`, {
          cookie: owner,
          params: { importId: id },
        });
        expect(page.body.status).toBe("writing");
      } finally {
        await other.query("select pg_advisory_unlock(4207003)");
        other.release();
      }
      expect(await finished(owner, id)).toMatchObject({ status: "done", progressDone: 3, progressTotal: 3 });
      expect(await skusLike(prefix)).toHaveLength(3);
    });
  }

  it("names a picture path on its line: an uploaded file's pictures are web addresses, never the shop's files", async () => {
    const owner = await signedUpAs(`owner-pictures-${engine.name.toLowerCase()}@example.com`, "owner");
    const text = catalogue(`PIC${engine.name}`, 2, { image: "pictures/lamp.jpg" });
    const sent = await call(uploadAction, context, "/admin/products/import", {
      cookie: owner,
      body: upload("pictures.csv", text),
    });
    const id = sent.location?.split("/").at(-1) as string;
    const page = await call(importLoader, context, `/admin/products/import/${id}`, {
      cookie: owner,
      params: { importId: id },
    });
    expect(page.body.check.pictureProblems).toEqual([
      expect.objectContaining({
        line: 2,
        column: "image",
        message: expect.stringMatching(/web addresses/),
      }),
    ]);
  });

  it("refuses a file that is not a catalogue by name, next to the file field, and keeps nothing", async () => {
    const owner = await signedUpAs(`owner-notes-${engine.name.toLowerCase()}@example.com`, "owner");
    const before = await engine.db.select({ n: sql<number>`count(*)::int` }).from(catalogImports);
    const sent = await call(uploadAction, context, "/admin/products/import", {
      cookie: owner,
      body: upload("notes.txt", "hello"),
    });
    expect(sent.status).toBe(400);
    expect(sent.body.result.error.file[0]).toMatch(/\.csv/);
    const empty = await call(uploadAction, context, "/admin/products/import", {
      cookie: owner,
      body: upload("empty.csv", ""),
    });
    expect(empty.status).toBe(400);
    expect(empty.body.result.error.file[0]).toMatch(/empty/);
    const after = await engine.db.select({ n: sql<number>`count(*)::int` }).from(catalogImports);
    expect(after).toEqual(before);
  });

  it("is the shop's 404 for a shopper, on the page and on the upload", async () => {
    const shopper = await signedUpAs(`shopper-import-${engine.name.toLowerCase()}@example.com`, "shopper");
    const sent = await call(uploadAction, context, "/admin/products/import", {
      cookie: shopper,
      body: upload("x.csv", catalogue("SHOPPER", 1)),
    });
    expect(sent.status).toBe(404);
    expect(await skusLike("SHOPPER")).toEqual([]);
  });

  it("exports the catalogue as CSV, JSON and NDJSON downloads that read back as the same products", async () => {
    const staff = await signedUpAs(`staff-export-${engine.name.toLowerCase()}@example.com`, "staff");
    const prefix = `EXP${engine.name}`;
    const sent = await call(uploadAction, context, "/admin/products/import", {
      cookie: staff,
      body: upload("export.csv", catalogue(prefix, 2)),
    });
    const id = sent.location?.split("/").at(-1) as string;
    await call(confirmAction, context, `/admin/products/import/${id}`, {
      cookie: staff,
      params: { importId: id },
      body: new URLSearchParams(),
    });
    await finished(staff, id);
    const all = await engine.db.select({ sku: products.sku }).from(products);

    const csv = await call(exportLoader, context, "/admin/products/export?format=csv", { cookie: staff });
    expect(csv.response?.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="backline-catalogue-.*\.csv"$/,
    );
    const csvText = (await csv.response?.text()) ?? "";
    expect(csvText.split("\n")[0]).toBe(
      "sku,name,description,price,stock,rating,brand,brand_label,category,category_label,created,image," +
        "option1_name,option1_value,option2_name,option2_value,option3_name,option3_value," +
        "variant_sku,compare_at_price,weight_grams,variant_image",
    );
    expect(csvText).toContain(`${prefix}-2,Trailhead Lantern 2`);

    const json = await call(exportLoader, context, "/admin/products/export?format=json", { cookie: staff });
    const records = JSON.parse((await json.response?.text()) ?? "") as { sku: string }[];
    expect(records.map(({ sku }) => sku).sort()).toEqual(all.map(({ sku }) => sku).sort());

    const ndjson = await call(exportLoader, context, "/admin/products/export?format=ndjson", {
      cookie: staff,
    });
    const lines = ((await ndjson.response?.text()) ?? "").trimEnd().split("\n");
    expect(lines).toHaveLength(all.length);

    const shopify = await call(exportLoader, context, "/admin/products/export?format=shopify", {
      cookie: staff,
    });
    expect(shopify.response?.headers.get("Content-Disposition")).toMatch(/\.shopify\.csv"$/);
    const shopifyText = (await shopify.response?.text()) ?? "";
    expect(shopifyText.split("\n")[0]).toMatch(
      /^Handle,Title,Body \(HTML\),Vendor,Type,Published,Option1 Name,/,
    );
    expect(shopifyText).toContain(`${prefix}-2,Trailhead Lantern 2,`);

    const bad = await call(exportLoader, context, "/admin/products/export?format=xlsx", { cookie: staff });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe("format");

    await engine.db.delete(products).where(inArray(products.sku, [`${prefix}-1`, `${prefix}-2`]));
  });
});
