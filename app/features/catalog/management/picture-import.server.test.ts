import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { PictureError, pictureSource, preparePicture, preparePictureBytes } from "./picture-import.server";

describe("where a row's picture comes from", () => {
  const folder = "/home/owner/catalogue";

  it("reads a picture already on the shop, a URL, or a file next to the catalogue", () => {
    expect(pictureSource("/pictures/0123456789abcdef0123-800.webp", folder)).toEqual({
      kind: "shop",
      image: "/pictures/0123456789abcdef0123-800.webp",
    });
    expect(pictureSource("/images/products/lamp-1a2b3c4d.svg", folder)).toMatchObject({ kind: "shop" });
    expect(pictureSource("https://cdn.example.com/lamp.jpg?v=2", folder)).toMatchObject({ kind: "url" });
    expect(pictureSource("pictures/lamp.jpg", folder)).toEqual({
      kind: "file",
      image: "pictures/lamp.jpg",
      file: `${folder}/pictures/lamp.jpg`,
      folder,
    });
  });

  it("names no file outside the catalogue's folder: no absolute path, no ..", () => {
    const refused = (image: string) => (pictureSource(image, folder) as PictureError).message;
    expect(refused("/srv/photos/lamp.jpg")).toBe(
      `"/srv/photos/lamp.jpg" is an absolute path: a picture file is named relative to the catalogue file's folder (or to --images DIR).`,
    );
    // A shop path that climbs out is not the shop's, and not a file the import reads.
    expect(refused("/images/../../etc/passwd")).toMatch(/is an absolute path/);
    expect(refused("C:\\Photos\\lamp.jpg")).toMatch(/is an absolute path/);
    expect(refused("\\\\fileserver\\photos\\lamp.jpg")).toMatch(/is an absolute path/);
    for (const image of ["../lamp.jpg", "pictures/../../lamp.jpg", "pictures\\..\\..\\lamp.jpg"]) {
      expect(refused(image)).toBe(
        `"${image}" leads out of the pictures' folder: a picture file is named relative to the catalogue file's folder (or to --images DIR), without "..".`,
      );
    }
  });

  it("refuses addresses that are not http(s)", () => {
    for (const image of ["ftp://example.com/lamp.jpg", "file:///etc/passwd", "data:image/png;base64,AAAA"]) {
      const source = pictureSource(image, folder);
      expect(source).toBeInstanceOf(PictureError);
      expect((source as PictureError).message).toMatch(/files or http\(s\) URLs/);
    }
  });
});

describe("a picture made ready for the shop", () => {
  it("is cut to 4:3 WebP in each width, named by its content, and not made twice", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "backline-picture-")), "tall.png");
    await sharp({ create: { width: 500, height: 900, channels: 3, background: "#884422" } })
      .png()
      .toFile(file);
    const source = { kind: "file", image: "tall.png", file, folder: path.dirname(file) } as const;
    const made = await preparePicture(source, async () => false);
    expect(made.image).toMatch(/^\/pictures\/[0-9a-f]{20}-800\.webp$/);
    const sizes = await Promise.all(
      made.files.map(async ({ name, content }) => {
        const { format, width, height } = await sharp(content).metadata();
        return [name.replace(/^[0-9a-f]{20}/, "H"), format, width, height];
      }),
    );
    expect(sizes).toEqual([
      ["H-400.webp", "webp", 400, 300],
      ["H-800.webp", "webp", 800, 600],
      ["H-1200.webp", "webp", 1200, 900],
    ]);
    const known = await preparePicture(source, async () => true);
    expect(known).toEqual({ image: made.image, files: [] });
  });

  it("takes the formats it names, an SVG drawn into pixels among them, and refuses others naming them", async () => {
    const drawn = sharp({ create: { width: 40, height: 30, channels: 3, background: "#336699" } });
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="red"/></svg>',
    );
    const taken = [
      ...(await Promise.all(
        (["png", "jpeg", "webp", "gif", "avif"] as const).map((format) =>
          drawn.clone().toFormat(format).toBuffer(),
        ),
      )),
      svg,
    ];
    for (const bytes of taken) {
      const made = await preparePictureBytes(bytes, async () => false);
      expect(await sharp(made.files[0]?.content).metadata()).toMatchObject({ format: "webp", width: 400 });
    }
    const said = "It is not a picture the shop can read: it takes PNG, JPEG, WebP, GIF, AVIF or SVG";
    for (const bytes of [await drawn.clone().tiff().toBuffer(), Buffer.from("shopping list")]) {
      await expect(preparePictureBytes(bytes, async () => false)).rejects.toThrow(said);
    }
  });

  it("says why a file cannot be used", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "backline-picture-"));
    fs.writeFileSync(path.join(folder, "notes.jpg"), "shopping list");
    const file = (image: string) =>
      ({ kind: "file", image, file: path.join(folder, image), folder }) as const;
    await expect(preparePicture(file("notes.jpg"), async () => false)).rejects.toThrow(
      /not a picture the shop can read/,
    );
    await expect(preparePicture(file("gone.jpg"), async () => false)).rejects.toThrow(
      /No picture file at .*gone\.jpg/,
    );
    // A link inside the folder to a file outside it.
    const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "backline-outside-")), "secret.png");
    fs.copyFileSync(path.join(folder, "notes.jpg"), outside);
    fs.symlinkSync(outside, path.join(folder, "secret.png"));
    await expect(preparePicture(file("secret.png"), async () => false)).rejects.toThrow(
      `"secret.png" is a link to a file outside the pictures' folder; copy the picture into the folder instead.`,
    );
  });
});
