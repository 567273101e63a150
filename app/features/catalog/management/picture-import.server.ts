import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import type { Database } from "~/db/client.server";
import { productPictures } from "~/db/schema";
import { PICTURE_FORMAT_NAMES, PICTURE_FORMATS, PICTURE_WIDTHS, pictureName } from "../core/catalog-format";
import { DownloadError, type DownloadOptions, downloadPicture } from "./picture-download.server";

/**
 * The owner's product pictures: read from a file or an http(s) URL
 * (picture-download.server.ts) once, at import, cut to the pages' 4:3 frame
 * in each width they show (WebP), and kept in the database under their content's hash, so every process of the
 * shop serves them and a picture's address never changes meaning.
 */

/** A source picture may be at most this large (a camera's full-size JPEG is 5–15 MB). */
const SOURCE_MAX_BYTES = 40 * 1024 * 1024;
/** Pixels a source may have (sharp refuses more), which bounds the memory a decode takes. */
const SOURCE_MAX_PIXELS = 100_000_000;

export class PictureError extends Error {
  override name = "PictureError";
}

/** Where a catalogue row's picture comes from. */
export type PictureSource =
  | { kind: "shop"; image: string }
  | { kind: "url"; url: URL }
  /** `file` is in `folder` (the catalogue file's, or --images), as the row names it. */
  | { kind: "file"; image: string; file: string; folder: string };

const RELATIVE = "a picture file is named relative to the catalogue file's folder (or to --images DIR)";

/**
 * What a row's `image` names: a picture already on this shop (as export
 * writes it), an http(s) URL, or a file inside `folder`. A catalogue file may
 * come from someone else, so it names no file outside that folder: no
 * absolute path, no "..".
 */
export function pictureSource(image: string, folder: string): PictureSource | PictureError {
  if (/^\/(pictures|images)\/[\w./-]+$/.test(image) && !image.includes("..")) return { kind: "shop", image };
  if (/^[a-z][a-z0-9+.-]*:/i.test(image) && !/^[a-z]:[\\/]/i.test(image)) {
    let url: URL;
    try {
      url = new URL(image);
    } catch {
      return new PictureError(`"${image}" is not a valid URL.`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return new PictureError(`Pictures come from files or http(s) URLs, not ${url.protocol} ones.`);
    return { kind: "url", url };
  }
  if (path.isAbsolute(image) || path.win32.isAbsolute(image))
    return new PictureError(`"${image}" is an absolute path: ${RELATIVE}.`);
  if (image.split(/[\\/]/).includes(".."))
    return new PictureError(`"${image}" leads out of the pictures' folder: ${RELATIVE}, without "..".`);
  return { kind: "file", image, file: path.resolve(folder, image), folder };
}

/** A picture file's bytes, read only when it really is inside its folder (a link may point anywhere). */
async function readPictureFile({ image, file, folder }: Extract<PictureSource, { kind: "file" }>) {
  const real = await fs.realpath(file).catch(() => null);
  const stat = real ? await fs.stat(real).catch(() => null) : null;
  if (!real || !stat?.isFile()) throw new PictureError(`No picture file at ${file}.`);
  const inside = path.relative(await fs.realpath(folder), real);
  if (inside === ".." || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) {
    throw new PictureError(
      `"${image}" is a link to a file outside the pictures' folder; copy the picture into the folder instead.`,
    );
  }
  if (stat.size > SOURCE_MAX_BYTES) throw new PictureError(`${file} is larger than 40 MB.`);
  return fs.readFile(real);
}

/** How the import may download pictures. */
export type PictureAccess = Omit<DownloadOptions, "maxBytes">;

/** A source picture's bytes. */
async function readSource(
  source: Exclude<PictureSource, { kind: "shop" }>,
  access: PictureAccess,
): Promise<Buffer> {
  if (source.kind === "file") return readPictureFile(source);
  try {
    return await downloadPicture(source.url, { ...access, maxBytes: SOURCE_MAX_BYTES });
  } catch (error) {
    if (error instanceof DownloadError) throw new PictureError(error.message);
    throw error;
  }
}

export interface PreparedPicture {
  /** The product's `image`: the middle width's address. */
  image: string;
  /** Each width's file, to be stored; empty when the shop has them already. */
  files: { name: string; content: Buffer }[];
}

/**
 * A source picture made ready for the shop: its address, and its files in
 * every width unless `known` says the shop has them (a re-import of the same
 * picture costs a hash, not a resize).
 */
export async function preparePicture(
  source: Exclude<PictureSource, { kind: "shop" }>,
  known: (image: string) => Promise<boolean>,
  access: PictureAccess = {},
): Promise<PreparedPicture> {
  return preparePictureBytes(await readSource(source, access), known);
}

/** A picture's bytes (read from a source, or uploaded in the back office) made ready for the shop, as preparePicture does. */
export async function preparePictureBytes(
  bytes: Buffer,
  known: (image: string) => Promise<boolean>,
): Promise<PreparedPicture> {
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 20);
  const image = pictureName(hash, PICTURE_WIDTHS[1]);
  if (await known(image)) return { image: `/pictures/${image}`, files: [] };
  try {
    const decoded = sharp(bytes, { limitInputPixels: SOURCE_MAX_PIXELS, failOn: "error" }).rotate();
    const { format, compression } = await decoded.metadata();
    const taken = PICTURE_FORMATS.some(
      (each) => each.format === format && (!("compression" in each) || each.compression === compression),
    );
    if (!taken) throw new Error(`a ${format?.toUpperCase() ?? "file of another kind"}`);
    const files = await Promise.all(
      PICTURE_WIDTHS.map(async (width) => ({
        name: pictureName(hash, width),
        content: await decoded
          .clone()
          .resize({
            width,
            height: (width * 3) / 4,
            fit: "cover",
            position: "attention",
            withoutEnlargement: false,
          })
          .webp({ quality: 80 })
          .toBuffer(),
      })),
    );
    return { image: `/pictures/${image}`, files };
  } catch (error) {
    throw new PictureError(
      `It is not a picture the shop can read: it takes ${PICTURE_FORMAT_NAMES} (${(error as Error).message}).`,
    );
  }
}

/** Whether the shop has a picture of this name. */
export async function hasPicture(db: Database, name: string): Promise<boolean> {
  const rows = await db
    .select({ name: productPictures.name })
    .from(productPictures)
    .where(eq(productPictures.name, name));
  return rows.length > 0;
}

/** Stores a picture's files (a picture stored before is left as it is). */
export async function storePicture(db: Database, files: PreparedPicture["files"]): Promise<void> {
  if (files.length === 0) return;
  await db
    .insert(productPictures)
    .values(files.map(({ name, content }) => ({ name, contentType: "image/webp", content })))
    .onConflictDoNothing();
}
