import { eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Database } from "~/db/client.server";
import { productPictures } from "~/db/schema";
import { apiError } from "~/utils/http.server";
import { z } from "~/utils/zod";
import { PICTURE_WIDTHS } from "../core/catalog-format";

/**
 * Pictures as the shop serves them: read from the database once, then kept
 * in memory (bounded by bytes), since every process may be asked for any.
 */
export function createPictureStore(db: Database, { maxBytes = 32 * 1024 * 1024 } = {}) {
  const cache = new LRUCache<string, { content: Buffer; contentType: string }>({
    maxSize: maxBytes,
    sizeCalculation: (picture) => picture.content.length + 64,
    fetchMethod: async (name) => {
      const [row] = await db
        .select({ content: productPictures.content, contentType: productPictures.contentType })
        .from(productPictures)
        .where(eq(productPictures.name, name));
      return row ? { content: Buffer.from(row.content), contentType: row.contentType } : undefined;
    },
  });
  return {
    /** The picture of this name, or undefined when there is none. */
    read: (name: string) => cache.fetch(name),
  };
}

export type PictureStore = ReturnType<typeof createPictureStore>;

/** A picture's name as the address gives it: its hash and one of the widths it is kept in. */
const pictureNameSchema = z
  .string()
  .regex(
    new RegExp(`^[0-9a-f]{20}-(${PICTURE_WIDTHS.join("|")})\\.webp$`),
    "There is no picture of this name.",
  );

/**
 * GET /pictures/NAME: an imported picture. Its name is its content's hash,
 * so it is the same picture for ever: browsers and CDNs keep it a year
 * without asking again.
 */
export async function pictureResponse(
  store: PictureStore,
  request: Request,
  name: string,
): Promise<Response> {
  const notFound = () =>
    apiError(404, { code: "not_found", message: "There is no picture of this name.", field: "name" });
  const parsed = pictureNameSchema.safeParse(name);
  if (!parsed.success) return notFound();
  const picture = await store.read(parsed.data);
  if (!picture) return notFound();
  const headers = {
    "Content-Type": picture.contentType,
    "Cache-Control": "public, max-age=31536000, immutable",
    ETag: `"${name}"`,
  };
  if (request.headers.get("If-None-Match")?.includes(`"${name}"`)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(new Uint8Array(picture.content), {
    headers: { ...headers, "Content-Length": String(picture.content.length) },
  });
}
