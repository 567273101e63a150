import fs from "node:fs/promises";
import path from "node:path";
import type { DatabaseHandle } from "../../app/db/client.server";
import {
  type CatalogFileReading,
  catalogFileFormat,
  changedProducts,
  changesAnything,
  type FileProblem,
  ImportInterrupted,
  type ImportPlan,
  importCatalogReading,
  importRefusal,
  productsAbsentFrom,
  readCatalogFile,
} from "../../app/features/catalog/management/index.server";
import { COMMAND_LINE } from "../../app/utils/audit-log.server";
import { UsageError } from "../database-script";
import type { startProgress } from "./progress";

/**
 * What `npm run catalog:import` does once its database is open: read and
 * check the file (every problem at once), make the pictures ready, compare
 * with the catalogue, and write the changes in one transaction. The command
 * line (scripts/catalog-import.ts) only parses arguments and signals.
 */
export interface ImportRequest {
  file: string;
  /** The folder picture paths are relative to, and must stay inside (default: the file's). */
  images?: string;
  /** Pictures may be downloaded from loopback, private and link-local addresses (an intranet). */
  allowPrivateNetwork?: boolean;
  dryRun: boolean;
  skipInvalid: boolean;
  prune: boolean;
  yes: boolean;
}

export interface ImportOutput {
  /** A line of the report (stdout). */
  print(line: string): void;
  /** A progress bar or periodic lines (stderr); none in tests that only read the report. */
  progress?: typeof startProgress;
  /** Aborted by Ctrl-C: the import stops at the next batch and rolls back. */
  signal?: AbortSignal;
}

/** The command's last line, and its exit code (0, or 130 when interrupted). */
export interface ImportOutcome {
  message: string;
  exitCode: number;
}

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
const where = ({ line, column }: FileProblem) => `line ${line}${column ? `, column ${column}` : ""}`;
const noProgress = () => ({ update: () => {}, stop: () => {} });

export async function importCatalog(
  database: DatabaseHandle,
  request: ImportRequest,
  output: ImportOutput,
): Promise<ImportOutcome> {
  const started = performance.now();
  const { print, signal } = output;
  const progress = output.progress ?? noProgress;
  try {
    const reading = await readFile(request, print);
    if (request.prune && !request.yes && !request.dryRun) {
      const absent = await productsAbsentFrom(database.db, reading.skus);
      if (absent.length > 0) {
        throw new UsageError(
          `--prune would remove ${count(absent.length, "product")} that the file does not name. Nothing was changed; run again with --prune --yes to remove them.`,
        );
      }
    }
    let writing: ReturnType<typeof progress> | undefined;
    let outcome: ImportOutcome | undefined;
    try {
      await importCatalogReading(
        database.db,
        COMMAND_LINE,
        reading,
        {
          prune: request.prune,
          dryRun: request.dryRun,
          folder: path.resolve(request.images ?? path.dirname(path.resolve(request.file))),
          allowPrivateNetwork: request.allowPrivateNetwork ?? false,
          fetch: true,
        },
        {
          signal,
          progress,
          onPictures: (problems) => {
            if (problems.length === 0) return;
            print(
              `\n${count(problems.length, "picture")} could not be read (a new product shows a placeholder; one the shop has keeps its picture):`,
            );
            for (const problem of problems) print(`  ${where(problem)}: ${problem.message}`);
          },
          onPlan: (plan) => {
            if (plan.warnings.length > 0) {
              print(`\n${count(plan.warnings.length, "label")} not used:`);
              for (const warning of plan.warnings) print(`  ${where(warning)}: ${warning.message}`);
            }
            print("");
            for (const line of describePlan(plan)) print(line);
            if (request.dryRun) outcome = { message: "Dry run: nothing was changed.", exitCode: 0 };
            else if (!changesAnything(plan))
              outcome = {
                message: "The catalogue already matches the file: nothing to change.",
                exitCode: 0,
              };
            if (outcome) return false;
            const total = changedProducts(plan);
            print(
              total > 0
                ? `Writing ${count(total, "product")} in one transaction…`
                : "Writing the brands and categories in one transaction…",
            );
            writing = progress("Writing", total, "products");
            return true;
          },
          onProgress: (done) => writing?.update(done),
        },
      );
    } finally {
      writing?.stop();
    }
    if (outcome) return outcome;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const after =
      database.kind === "postgres"
        ? "Running shops show the new catalogue within a second."
        : "Start the shop (npm start) to show it.";
    return { message: `Imported ${request.file} in ${seconds} s. ${after}`, exitCode: 0 };
  } catch (error) {
    if (error instanceof ImportInterrupted) {
      return { message: "Interrupted: nothing was imported; the catalogue is as it was.", exitCode: 130 };
    }
    throw error;
  }
}

/** Reads and checks the file: every problem at once, before anything is written. */
async function readFile(request: ImportRequest, print: ImportOutput["print"]): Promise<CatalogFileReading> {
  const format = catalogFileFormat(request.file);
  if (!format)
    throw new UsageError(`${request.file}: a catalogue file ends in .csv, .json, .ndjson or .jsonl.`);
  const text = await fs.readFile(request.file, "utf8").catch((error: NodeJS.ErrnoException) => {
    const reason = error.code === "ENOENT" ? "there is no such file" : error.message;
    throw new UsageError(`${request.file} cannot be read: ${reason}.`);
  });
  const reading = await readCatalogFile(text, format);
  const kind =
    reading.kind === "shopify" ? "a Shopify product export" : `a ${format.toUpperCase()} catalogue`;
  print(`${request.file}: ${kind}, ${count(reading.productCount, "product")}.`);
  if (reading.ignoredColumns.length > 0) {
    print(`Not imported (the shop has no such product field): ${reading.ignoredColumns.join(", ")}.`);
  }
  for (const note of reading.notes) print(note);
  if (reading.problems.length > 0) {
    print(`\n${count(reading.problems.length, "problem")}:`);
    for (const problem of reading.problems) print(`  ${where(problem)}: ${problem.message}`);
    const refusal = importRefusal(
      { problemCount: reading.problems.length, readable: reading.readable },
      request.skipInvalid,
    );
    if (refusal === "unreadable") {
      throw new UsageError(
        "Nothing was imported: the file cannot be read as a whole (--skip-invalid leaves out rows, not a broken file). Fix the problem above and run again.",
      );
    }
    if (refusal === "invalid") {
      throw new UsageError(
        `Nothing was imported. Fix the ${count(reading.problems.length, "problem")} above, or run again with --skip-invalid to import the ${count(reading.rows.length, "valid row")} and leave the others out.`,
      );
    }
    print(`--skip-invalid: those rows are left out; the ${count(reading.rows.length, "valid row")} go on.`);
  }
  return reading;
}

function describePlan(plan: ImportPlan): string[] {
  const removed =
    plan.removed.length > 0 ? `, ${count(plan.removed.length, "product")} removed (not in the file)` : "";
  const lines = [
    `${count(plan.added.length, "new product")}, ${count(plan.updated.length, "updated product")}, ${count(plan.unchanged, "unchanged product")}${removed}.`,
  ];
  if (plan.ordered.length > 0) {
    lines.push(
      `Not removed, though not in the file: ${count(plan.ordered.length, "product")} an order names (ordered, so kept): ${plan.ordered.join(", ")}.`,
    );
  }
  const facets = (name: string, changes: ImportPlan["brands"]) => {
    const labelled = ({ value, label }: { value: string; label: string }) =>
      value === label ? label : `${label} (${value})`;
    if (changes.added.length > 0) lines.push(`New ${name}: ${changes.added.map(labelled).join(", ")}.`);
    if (changes.relabelled.length > 0) {
      lines.push(
        `Relabelled ${name}: ${changes.relabelled.map(({ value, label }) => `${value} → ${label}`).join(", ")}.`,
      );
    }
    if (changes.removed.length > 0)
      lines.push(`Removed ${name} (no product left): ${changes.removed.join(", ")}.`);
  };
  facets("brands", plan.brands);
  facets("categories", plan.categories);
  return lines;
}
