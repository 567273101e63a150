import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { and, desc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { byteaAsText, bytesOf } from "~/db/column-types";
import { catalogImports } from "~/db/schema";
import type { Actor } from "~/utils/audit-log.server";
import { type EventLoopTurn, eventLoopTurns } from "~/utils/event-loop-turns.server";
import { logFailure } from "~/utils/logger.server";
import type {
  CatalogImportView,
  ImportCheck,
  ImportResult,
  ImportStatus,
  NamedProducts,
} from "../core/catalog-import-schema";
import {
  type CatalogFileFormat,
  catalogFileFormat,
  type FileProblem,
  readCatalogFile,
} from "./catalog-file.server";
import { changedProducts, changesAnything } from "./catalog-import.server";
import { importCatalogReading, importCounts, importRefusal } from "./import-run.server";

/**
 * The back office's catalogue import (docs/decisions/0030): an uploaded file
 * is kept in catalog_imports with its dry run; once confirmed, the process
 * that took the confirmation writes it in the background through the same
 * steps as `npm run catalog:import` (import-run.server.ts), and writes its
 * progress to the row, which any process of the shop can read.
 */

/** Bad lines kept for the page: enough to fix a file by; the count says how many there are in all. */
const PROBLEMS_KEPT = 1_000;
/** Products named in each part of the dry run (the counts are exact). */
const NAMED = 50;
/** A write that has not reported for this long was cut off (its process stopped): nothing of it committed. */
const STALLED_AFTER_MS = 5 * 60_000;

export type UploadOutcome = { id: string } | { field: "file"; message: string };

/** A file of the shop's own formats, or Shopify's product CSV (recognised by its columns). */
function formatOf(fileName: string): CatalogFileFormat | null {
  return catalogFileFormat(fileName);
}

/**
 * The file as catalog_imports keeps it: gzip-compressed, in the thread pool. A
 * catalogue file shrinks several times over, and writing its bytes is what
 * held the embedded database (and so the process) longest.
 */
const kept = promisify(gzip);
const gunzipped = promisify(gunzip);

/** The file as uploaded, from what catalog_imports keeps (compressed; as it was, for a file kept before). */
async function unkept(content: Uint8Array): Promise<Uint8Array> {
  return content[0] === 0x1f && content[1] === 0x8b ? gunzipped(content) : content;
}

/** Bytes decoded at a time, a turn of the event loop between two. */
const DECODED_AT_ONCE = 1024 * 1024;

/** The file's text, as the command reads a file (UTF-8, a bad byte replaced, not refused; a BOM dropped). */
async function decoded(content: Uint8Array, turn: EventLoopTurn): Promise<string> {
  const decoder = new TextDecoder("utf-8");
  let text = "";
  for (let start = 0; start < content.length; start += DECODED_AT_ONCE) {
    text += decoder.decode(content.subarray(start, start + DECODED_AT_ONCE), { stream: true });
    await turn();
  }
  return text + decoder.decode();
}

const named = (products: { sku: string; name?: string }[]): NamedProducts => ({
  count: products.length,
  named: products.slice(0, NAMED).map(({ sku, name }) => (name === undefined ? { sku } : { sku, name })),
});
const skusNamed = (skus: string[]) => named(skus.map((sku) => ({ sku })));

/**
 * Keeps an uploaded file and its dry run: every bad line, what importing the
 * rest would add, change and remove (removals as if the owner asks for them),
 * computed inside the import's own transaction and lock and then rolled back.
 */
export async function checkCatalogUpload(
  db: Database,
  actor: Actor,
  upload: { fileName: string; content: Uint8Array },
): Promise<UploadOutcome> {
  const format = formatOf(upload.fileName);
  if (!format) {
    return {
      field: "file",
      message:
        "Choose a catalogue file: its name ends in .csv (yours or Shopify's export), .json or .ndjson.",
    };
  }
  const turn = eventLoopTurns();
  const reading = await readCatalogFile(await decoded(upload.content, turn), format, turn);
  const check: ImportCheck = {
    kind: reading.kind,
    productCount: reading.productCount,
    validRows: reading.rows.length,
    readable: reading.readable,
    ignoredColumns: reading.ignoredColumns,
    notes: reading.notes,
    problemCount: reading.problems.length,
    problems: reading.problems.slice(0, PROBLEMS_KEPT),
    pictureProblems: [],
    picturesToFetch: 0,
    changes: null,
  };
  if (importRefusal({ problemCount: reading.problems.length, readable: reading.readable }, true) === null) {
    const { plan, pictureProblems } = await importCatalogReading(
      db,
      actor,
      reading,
      { prune: true, dryRun: true, folder: null, allowPrivateNetwork: false, fetch: false },
      { onPlan: () => false },
    );
    check.pictureProblems = pictureProblems.slice(0, PROBLEMS_KEPT);
    const addresses = new Set<string>();
    for (const { image } of reading.rows) if (image && /^https?:/i.test(image)) addresses.add(image);
    check.picturesToFetch = addresses.size;
    check.changes = {
      warnings: plan.warnings.slice(0, PROBLEMS_KEPT),
      added: named(plan.added),
      updated: named(plan.updated),
      unchanged: plan.unchanged,
      removed: skusNamed(plan.removed),
      ordered: skusNamed(plan.ordered),
      brands: plan.brands,
      categories: plan.categories,
    };
  }
  const [row] = await db
    .insert(catalogImports)
    .values({
      actorId: actor.id,
      fileName: upload.fileName.slice(0, 200),
      format: reading.kind === "shopify" ? "shopify" : format,
      content: await kept(upload.content),
      plan: check,
    })
    .returning({ id: catalogImports.id });
  if (!row) throw new Error("The import's row was not written.");
  return { id: row.id };
}

const viewColumns = {
  id: catalogImports.id,
  fileName: catalogImports.fileName,
  format: catalogImports.format,
  status: catalogImports.status,
  plan: catalogImports.plan,
  progressDone: catalogImports.progressDone,
  progressTotal: catalogImports.progressTotal,
  result: catalogImports.result,
  createdAt: catalogImports.createdAt,
  updatedAt: catalogImports.updatedAt,
};

type ViewRow = { [K in keyof typeof viewColumns]: (typeof viewColumns)[K]["_"]["data"] };

function viewOf(row: ViewRow, now = Date.now()): CatalogImportView {
  const status = row.status as ImportStatus;
  return {
    id: row.id,
    fileName: row.fileName,
    format: row.format,
    status,
    check: row.plan as ImportCheck,
    progressDone: row.progressDone,
    progressTotal: row.progressTotal,
    result: (row.result as ImportResult | null) ?? null,
    stalled: status === "writing" && now - row.updatedAt.getTime() > STALLED_AFTER_MS,
    createdAt: row.createdAt,
  };
}

/** An import as its page shows it (not the file), or null when there is none with this id. */
export async function catalogImportOf(db: Database, id: string): Promise<CatalogImportView | null> {
  const [row] = await db.select(viewColumns).from(catalogImports).where(eq(catalogImports.id, id));
  return row ? viewOf(row) : null;
}

/** The latest imports, newest first, for the import page's list (not their dry runs). */
export async function latestCatalogImports(db: Database, limit = 5) {
  return db
    .select({
      id: catalogImports.id,
      fileName: catalogImports.fileName,
      status: catalogImports.status,
      createdAt: catalogImports.createdAt,
    })
    .from(catalogImports)
    .orderBy(desc(catalogImports.createdAt))
    .limit(limit);
}

export interface ImportConfirmation {
  /** Remove the products the file does not have (as --prune --yes). */
  prune: boolean;
  /** Import the good lines and leave the bad ones out (as --skip-invalid). */
  skipInvalid: boolean;
}

export type ConfirmOutcome =
  | { confirmed: true; written: Promise<void> }
  | { confirmed: false; field?: "skipInvalid"; message: string };

/**
 * Confirms a checked import and starts writing it in the background of this
 * process. Only the confirmation that turns the row from checked to writing
 * starts it (a conditional update): a second click, a retried request or
 * another person's confirmation finds it taken and changes nothing.
 */
export async function confirmCatalogImport(
  db: Database,
  actor: Actor,
  id: string,
  choices: ImportConfirmation,
): Promise<ConfirmOutcome | null> {
  const found = await catalogImportOf(db, id);
  if (!found) return null;
  if (found.status !== "checked") return { confirmed: false, message: alreadyConfirmed(found.status) };
  const refusal = importRefusal(found.check, choices.skipInvalid);
  if (refusal === "unreadable") {
    return {
      confirmed: false,
      message:
        "This file cannot be read as a whole, so nothing of it can be imported. Fix it and upload it again.",
    };
  }
  if (refusal === "invalid") {
    return {
      confirmed: false,
      field: "skipInvalid",
      message: `The file has ${lines(found.check.problemCount, "bad line")}: fix ${found.check.problemCount === 1 ? "it" : "them"} and upload the file again, or tick this box to import the ${lines(found.check.validRows, "good row")} and leave the bad ones out.`,
    };
  }
  const [taken] = await db
    .update(catalogImports)
    .set({
      status: "writing",
      progressDone: 0,
      progressTotal: 0,
      result: { step: "Starting" },
      updatedAt: new Date(),
    })
    .where(and(eq(catalogImports.id, id), eq(catalogImports.status, "checked")))
    .returning({ content: byteaAsText(catalogImports.content), format: catalogImports.format });
  if (!taken) {
    const now = await catalogImportOf(db, id);
    return { confirmed: false, message: alreadyConfirmed(now?.status ?? "writing") };
  }
  const file = { content: await unkept(bytesOf(taken.content)), format: taken.format };
  return { confirmed: true, written: writeConfirmedImport(db, actor, id, file, choices) };
}

const lines = (n: number, one: string) => `${n.toLocaleString("en")} ${one}${n === 1 ? "" : "s"}`;

function alreadyConfirmed(status: ImportStatus): string {
  if (status === "writing")
    return "This import is already being written (it was confirmed already): follow its progress here.";
  return "This import was confirmed already and has finished: its result is below. Upload the file again to import it again.";
}

/** The row's progress, written in order and at most a few times a second, never after the end. */
function progressRecorder(db: Database, id: string) {
  let chain: Promise<void> = Promise.resolve();
  let lastWritten = 0;
  const write = (values: Partial<typeof catalogImports.$inferInsert>) => {
    lastWritten = Date.now();
    chain = chain
      .then(() =>
        db
          .update(catalogImports)
          .set({ ...values, updatedAt: new Date() })
          .where(and(eq(catalogImports.id, id), eq(catalogImports.status, "writing"))),
      )
      // A progress note that fails is not the import's failure: the next one, or the result, follows.
      .then(
        () => {},
        () => {},
      );
  };
  return {
    step(step: string, total: number) {
      write({ result: { step }, progressDone: 0, progressTotal: total });
    },
    done(done: number, total: number) {
      if (done < total && Date.now() - lastWritten < 200) return;
      write({ progressDone: done });
    },
    settled: () => chain,
  };
}

async function writeConfirmedImport(
  db: Database,
  actor: Actor,
  id: string,
  file: { content: Uint8Array; format: string },
  { prune }: ImportConfirmation,
): Promise<void> {
  const progress = progressRecorder(db, id);
  let total = 0;
  // The end writes the counts itself: on the embedded database, progress notes queue behind the
  // import's transaction and find the row no longer writing.
  const finish = (result: ImportResult, status: ImportStatus) => ({
    status,
    result,
    ...(status === "done" ? { progressDone: total, progressTotal: total } : {}),
    updatedAt: new Date(),
  });
  try {
    const format: CatalogFileFormat = file.format === "shopify" ? "csv" : (file.format as CatalogFileFormat);
    const turn = eventLoopTurns();
    const reading = await readCatalogFile(await decoded(file.content, turn), format, turn);
    let wrote = false;
    let pictureProblems: FileProblem[] = [];
    await importCatalogReading(
      db,
      actor,
      reading,
      { prune, dryRun: false, folder: null, allowPrivateNetwork: false, fetch: true },
      {
        progress: (step, count) => {
          progress.step(step === "Pictures" ? "Fetching pictures" : step, count);
          return { update: (done) => progress.done(done, count), stop: () => {} };
        },
        onPictures: (problems) => {
          pictureProblems = problems;
        },
        onPlan: (planned) => {
          total = changedProducts(planned);
          progress.step("Writing products", total);
          return changesAnything(planned);
        },
        onProgress: (done) => progress.done(done, total),
        onWritten: async (tx, written) => {
          wrote = true;
          // The result commits with the catalogue it describes, and with the audit log's entry.
          await tx
            .update(catalogImports)
            .set(
              finish(
                {
                  outcome: "imported",
                  counts: importCounts(written, pictureProblems.length),
                  pictureProblems: pictureProblems.slice(0, PROBLEMS_KEPT),
                },
                "done",
              ),
            )
            .where(eq(catalogImports.id, id));
        },
      },
    );
    await progress.settled();
    if (!wrote) {
      await db
        .update(catalogImports)
        .set(finish({ outcome: "unchanged" }, "done"))
        .where(eq(catalogImports.id, id));
    }
  } catch (error) {
    // The error, never the file's content: it is the owner's, and may name people.
    logFailure(error, "A catalogue import from the back office failed", { importId: id });
    await progress.settled();
    await db
      .update(catalogImports)
      .set(finish({ outcome: "failed", message: failureMessage(error) }, "failed"))
      .where(eq(catalogImports.id, id))
      .catch(() => {});
  }
}

function failureMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : "";
  if (/timeout|canceling statement/i.test(text)) {
    return "The database took too long (another import may be running, from the command line). Nothing was changed: upload the file again in a moment.";
  }
  return "The import stopped before it was written. Nothing was changed: upload the file again; if it fails again, ask whoever runs the shop to look at its log.";
}
