import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import productImages from "../../app/db/seed/product-images.generated.json";
import { socialImage } from "../../app/features/catalog/core/catalog-format";

const publicDir = path.resolve(import.meta.dirname, "../../public");

/** A JPEG's width and height, from its frame header. */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1] as number;
    if (marker >= 0xc0 && marker <= 0xc3) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  return null;
}

describe("the demo's product pictures", () => {
  it.each(Object.entries(productImages))(
    "%s has its SVG and a 1200×900 JPEG twin for link previews",
    (_slug, url) => {
      expect(fs.existsSync(path.join(publicDir, url))).toBe(true);
      const jpeg = fs.readFileSync(path.join(publicDir, socialImage(url)));
      expect(jpegSize(jpeg)).toEqual({ width: 1200, height: 900 });
    },
  );
});
