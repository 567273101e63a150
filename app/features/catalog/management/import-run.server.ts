import type { Database } from "~/db/client.server";
import { type Actor, recordChange } from "~/utils/audit-log.server";
import type { ImportCounts } from "../core/catalog-import-schema";
import type { CatalogFileReading, FileProblem } from "./catalog-file.server";
import {
  ImportInterrupted,
  type ImportPlan,
  type ImportTransaction,
  importCatalogRows,
} from "./catalog-import.server";
import { type PictureChoices, type ProgressStart, prepareImportPictures } from "./import-pictures.server";

/**
 * One catalogue import, whoever asks for it: `npm run catalog:import`
 * (scripts/catalog/import-command.ts prints it) and the back office's import
 * page (import-uploads.server.ts keeps it in catalog_imports). Both read the
 * file with readCatalogFile, refuse it by the same rule (importRefusal), and
 * run the same steps here: the pictures made ready, then the plan and its
 * writing in one transaction (importCatalogRows).
 */

/**
 * Why a checked file cannot be imported as it is: a file that cannot be read as a whole never is;
 * one with bad rows only when the owner chooses to leave them out (--skip-invalid, or the page's
 * box); null when nothing stands in the way.
 */
export function importRefusal(
  { problemCount, readable }: { problemCount: number; readable: boolean },
  skipInvalid: boolean,
): "unreadable" | "invalid" | null {
  if (problemCount === 0) return null;
  if (!readable) return "unreadable";
  return skipInvalid ? null : "invalid";
}

export interface CatalogImportChoices extends PictureChoices {
  prune: boolean;
}

export interface CatalogImportSteps {
  /** Aborted: the import stops at the next step and rolls back (ImportInterrupted). */
  signal?: AbortSignal;
  progress?: ProgressStart;
  /** The pictures that could not be read, once all are ready and before the plan is made. */
  onPictures?(problems: FileProblem[]): void;
  /**
   * The plan, inside the transaction that will write it: true writes it; false (a dry run,
   * nothing to change) ends the transaction without writing.
   */
  onPlan(plan: ImportPlan): boolean;
  onProgress?(done: number): void;
  /** Once the plan is written, in its transaction (after the audit log's entry): what must commit with it. */
  onWritten?(tx: ImportTransaction, plan: ImportPlan): Promise<void>;
}

export interface CatalogImportResult {
  plan: ImportPlan;
  pictureProblems: FileProblem[];
}

/** Makes the pictures of a checked file's rows ready, then plans and writes the import in one transaction. */
export async function importCatalogReading(
  db: Database,
  actor: Actor,
  reading: CatalogFileReading,
  choices: CatalogImportChoices,
  steps: CatalogImportSteps,
): Promise<CatalogImportResult> {
  const { signal } = steps;
  const interrupted = () => {
    if (signal?.aborted) throw new ImportInterrupted("The import was interrupted.");
  };
  interrupted();
  const pictures = await prepareImportPictures(db, reading.rows, choices, {
    progress: steps.progress,
    signal,
  });
  interrupted();
  steps.onPictures?.(pictures.problems);
  const plan = await importCatalogRows(db, pictures.rows, {
    prune: choices.prune,
    keep: reading.skus,
    now: new Date(),
    signal,
    onPlan: steps.onPlan,
    onProgress: steps.onProgress,
    onWritten: async (tx, written) => {
      // Counts, not the file: the file is the owner's, and can be large.
      await recordChange(tx, actor, {
        action: "catalog.imported",
        subject: "catalog",
        subjectName: "the catalogue",
        after: importCounts(written, pictures.problems.length),
      });
      await steps.onWritten?.(tx, written);
    },
  });
  return { plan, pictureProblems: pictures.problems };
}

/** What an import changed, in numbers: the audit log's entry and the back office's result. */
export function importCounts(plan: ImportPlan, pictureProblems: number): ImportCounts {
  return {
    added: plan.added.length,
    updated: plan.updated.length,
    unchanged: plan.unchanged,
    removed: plan.removed.length,
    keptAsOrdered: plan.ordered.length,
    brandsAdded: plan.brands.added.length,
    categoriesAdded: plan.categories.added.length,
    pictureProblems,
  };
}
