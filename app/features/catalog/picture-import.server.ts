import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import type { Database } from "~/db/client.server";
import { productPictures } from "~/db/schema";
import { PICTURE_WIDTHS, pictureName } from "./catalog-format";

/**
 * The owner's product pictures: read from a file or an http(s) URL once, at
 * import, cut to the pages' 4:3 frame in each width they show (WebP), and
 * kept in the database under their content's hash, so every process of the
 * shop serves them and a picture's address never changes meaning.
 */

/** A source picture may be at most this large (a camera's full-size JPEG is 5–15 MB). */
const SOURCE_MAX_BYTES = 40 * 1024 * 1024;
/** …and take at most this long to download. */
const DOWNLOAD_TIMEOUT_MS = 20_000;
/** Pixels a source may have (sharp refuses more), which bounds the memory a decode takes. */
const SOURCE_MAX_PIXELS = 100_000_000;

export class PictureError extends Error {
  override name = "PictureError";
}

/** Where a catalogue row's picture comes from. */
export type PictureSource =
  | { kind: "shop"; image: string }
  | { kind: "url"; url: URL }
  | { kind: "file"; file: string };

/**
 * What a row's `image` names: a picture already on this shop (as export
 * writes it), an http(s) URL, or a file relative to `folder`.
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
  return { kind: "file", file: path.resolve(folder, image) };
}

/** A source picture's bytes. */
async function readSource(source: Exclude<PictureSource, { kind: "shop" }>): Promise<Buffer> {
  if (source.kind === "file") {
    const stat = await fs.stat(source.file).catch(() => null);
    if (!stat?.isFile()) throw new PictureError(`No picture file at ${source.file}.`);
    if (stat.size > SOURCE_MAX_BYTES) throw new PictureError(`${source.file} is larger than 40 MB.`);
    return fs.readFile(source.file);
  }
  let response: Response;
  try {
    response = await fetch(source.url, {
      signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
      redirect: "follow",
    });
  } catch (error) {
    const reason =
      (error as Error).name === "TimeoutError" ? "no answer within 20 s" : (error as Error).message;
    throw new PictureError(`${source.url.href} could not be downloaded: ${reason}.`);
  }
  if (!response.ok)
    throw new PictureError(`${source.url.href} answered ${response.status} ${response.statusText}.`);
  const tooLarge = () => new PictureError(`${source.url.href} is larger than 40 MB.`);
  if (Number(response.headers.get("content-length") ?? 0) > SOURCE_MAX_BYTES) throw tooLarge();
  // Counted as it arrives: a server may send more than it announced, or announce nothing.
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = response.body?.getReader();
  try {
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
      const chunk = read.value;
      received += chunk.length;
      if (received > SOURCE_MAX_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    await reader?.cancel().catch(() => undefined);
    if (error instanceof PictureError) throw error;
    throw new PictureError(`${source.url.href} could not be downloaded: ${(error as Error).message}.`);
  }
  return Buffer.concat(chunks);
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
): Promise<PreparedPicture> {
  const bytes = await readSource(source);
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 20);
  const image = pictureName(hash, PICTURE_WIDTHS[1]);
  if (await known(image)) return { image: `/pictures/${image}`, files: [] };
  try {
    const decoded = sharp(bytes, { limitInputPixels: SOURCE_MAX_PIXELS, failOn: "error" }).rotate();
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
    throw new PictureError(`It is not a picture the shop can read (${(error as Error).message}).`);
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
