import os from "node:os";
import pLimit from "p-limit";
import type { Database } from "~/db/client.server";
import { eventLoopTurns } from "~/utils/event-loop-turns.server";
import type { CatalogFileReading, FileProblem } from "./catalog-file.server";
import type { FileVariant } from "./catalog-file-variants.server";
import type { ImportRow } from "./catalog-import.server";
import {
  hasPicture,
  PictureError,
  pictureSource,
  preparePicture,
  storePicture,
} from "./picture-import.server";

/** How the pictures of an import's rows are made ready. */
export interface PictureChoices {
  /**
   * The folder picture paths are relative to and must stay inside (the file's, or --images);
   * null for a file uploaded through the back office, which has no folder on the shop's disk.
   */
  folder: string | null;
  /** Pictures may be downloaded from loopback, private and link-local addresses (an intranet). */
  allowPrivateNetwork: boolean;
  /** A dry run makes pictures ready without storing them. */
  dryRun: boolean;
  /**
   * false: each picture's address is checked, nothing is read or downloaded, and the row keeps
   * the product's own picture (the back office's dry run, answered while the owner waits).
   */
  fetch: boolean;
}

/** A step's progress as the caller shows it: a terminal bar, a row in catalog_imports, nothing. */
interface ProgressShown {
  update(done: number): void;
  stop(): void;
}
export type ProgressStart = (step: string, total: number, unit: string) => ProgressShown;

const noProgress: ProgressStart = () => ({ update: () => {}, stop: () => {} });

const UPLOADED_FILE_PICTURE =
  "An uploaded file's pictures are web addresses (https://…) or this shop's /pictures/… addresses: the shop cannot read a file from your computer.";

/**
 * Each row's picture made ready (and stored, unless this is a dry run): a
 * picture that cannot be read is reported on its line, and the product
 * shows the placeholder.
 */
export async function prepareImportPictures(
  db: Database,
  rows: CatalogFileReading["rows"],
  choices: PictureChoices,
  { progress = noProgress, signal }: { progress?: ProgressStart; signal?: AbortSignal } = {},
): Promise<{ rows: ImportRow[]; problems: FileProblem[] }> {
  const problems: FileProblem[] = [];
  const ready: ImportRow[] = [];
  // Each picture, and where its address goes once ready: the product's, or one of its variants'.
  const withPictures: { line: number; column: string; image: string; use(image: string): void }[] = [];
  // In slices: a file of many thousand rows, and the process keeps answering meanwhile.
  const turn = eventLoopTurns();
  for (const row of rows) {
    await turn();
    const variants = row.variants?.map((variant) => ({ ...variant, image: undefined }) as FileVariant);
    const made: ImportRow = { ...row, image: undefined, ...(variants ? { variants } : {}) };
    ready.push(made);
    const { image, line } = row;
    if (image) withPictures.push({ line, column: "image", image, use: (address) => (made.image = address) });
    for (const [at, { image, line }] of (row.variants ?? []).entries()) {
      const variant = variants?.[at] as FileVariant;
      if (image)
        withPictures.push({
          line,
          column: "variant_image",
          image,
          use: (address) => (variant.image = address),
        });
    }
  }
  if (withPictures.length === 0) return { rows: ready, problems };
  const shown = progress("Pictures", withPictures.length, "pictures");
  // Resizing takes a core: as many at once as there are cores (downloads wait on the network meanwhile).
  const limit = pLimit(Math.max(2, os.availableParallelism()));
  // One picture named by many rows (a shared file, one URL) is read and resized once.
  const made = new Map<string, Promise<string | PictureError | undefined>>();
  let done = 0;
  try {
    await Promise.all(
      withPictures.map(({ line, column, image, use }) =>
        limit(async () => {
          // Ctrl-C: the pictures not yet begun are not begun.
          if (signal?.aborted) return;
          let making = made.get(image);
          if (!making) {
            making = pictureFor(db, image, choices);
            made.set(image, making);
          }
          const prepared = await making;
          // A picture that cannot be read leaves the row without one: a new product shows the
          // placeholder, and one the shop has keeps its own (a download that fails once must
          // not take a product's picture away).
          if (prepared instanceof PictureError) problems.push({ line, column, message: prepared.message });
          else if (prepared !== undefined) use(prepared);
          shown.update(++done);
        }),
      ),
    );
  } finally {
    shown.stop();
  }
  problems.sort((a, b) => a.line - b.line);
  return { rows: ready, problems };
}

async function pictureFor(
  db: Database,
  image: string,
  { folder, dryRun, allowPrivateNetwork, fetch }: PictureChoices,
): Promise<string | PictureError | undefined> {
  const known = (name: string) => hasPicture(db, name);
  // An uploaded file has no folder: any path it names is refused before it is resolved anywhere.
  const source = pictureSource(image, folder ?? "/nonexistent-uploaded-file-folder");
  if (source instanceof PictureError) return source;
  if (source.kind === "file" && folder === null) return new PictureError(UPLOADED_FILE_PICTURE);
  if (source.kind === "shop") {
    const name = source.image.startsWith("/pictures/") ? source.image.slice("/pictures/".length) : null;
    // A product shows the middle width (export writes it so); its other widths come with it.
    if (name && !(/-800\.webp$/.test(name) && (await known(name)))) {
      return new PictureError(`This shop has no picture ${source.image}.`);
    }
    return source.image;
  }
  if (!fetch) return undefined;
  try {
    const prepared = await preparePicture(source, known, { allowPrivateNetwork });
    if (!dryRun) await storePicture(db, prepared.files);
    return prepared.image;
  } catch (error) {
    if (error instanceof PictureError) return error;
    throw error;
  }
}
