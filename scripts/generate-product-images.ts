// `npm run db:generate-images`: draws every demo product's picture into
// public/images/products/<slug>-<hash8>.svg, with a JPEG twin (.jpg, 1200×900)
// for link previews — Open Graph wants a raster picture — drawn from the SVG by
// Debian's Chromium, and records slug → URL in
// app/db/seed/product-images.generated.json. The hash of the content is in the
// file name, so a changed picture gets a new URL and browsers may cache every
// picture forever. Stale pictures are deleted. Run it after editing the demo
// catalogue or the drawings, and commit the result.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { DEMO_PRODUCTS } from "../app/db/seed/demo-catalog";
import { socialImage } from "../app/features/catalog/core/catalog-format";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../tests/support/chromium";
import { renderProductImage } from "./catalog/product-image";

const root = path.resolve(import.meta.dirname, "..");
const imageDir = path.join(root, "public/images/products");
const manifestPath = path.join(root, "app/db/seed/product-images.generated.json");
/** Pictures are served to every shopper on every page: keep them tiny. */
const MAX_BYTES = 4096;

fs.mkdirSync(imageDir, { recursive: true });
const manifest: Record<string, string> = {};
const written = new Set<string>();
for (const product of DEMO_PRODUCTS) {
  const svg = renderProductImage(product);
  const bytes = Buffer.byteLength(svg);
  if (bytes > MAX_BYTES) {
    console.error(`The picture of ${product.slug} is ${bytes} bytes; keep it under ${MAX_BYTES}.`);
    process.exit(1);
  }
  const hash8 = createHash("sha256").update(svg).digest("hex").slice(0, 8);
  const fileName = `${product.slug}-${hash8}.svg`;
  fs.writeFileSync(path.join(imageDir, fileName), svg);
  written.add(fileName);
  manifest[product.slug] = `/images/products/${fileName}`;
}

// The raster twins, drawn by the browser at 1.5× the SVG's size.
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
for (const svgName of [...written]) {
  const svg = fs.readFileSync(path.join(imageDir, svgName));
  await page.setContent(
    `<body style="margin:0"><img width="1200" height="900" src="data:image/svg+xml;base64,${svg.toString("base64")}"></body>`,
  );
  await page.locator("img").evaluate((image: HTMLImageElement) => image.decode());
  const jpegName = path.basename(socialImage(`/${svgName}`));
  fs.writeFileSync(path.join(imageDir, jpegName), await page.screenshot({ type: "jpeg", quality: 82 }));
  written.add(jpegName);
}
await browser.close();

let removed = 0;
for (const fileName of fs.readdirSync(imageDir)) {
  if (!written.has(fileName)) {
    fs.rmSync(path.join(imageDir, fileName));
    removed++;
  }
}
fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(
  `Wrote ${written.size} product pictures to ${path.relative(root, imageDir)}/` +
    (removed ? ` and removed ${removed} stale one${removed === 1 ? "" : "s"}.` : "."),
);
