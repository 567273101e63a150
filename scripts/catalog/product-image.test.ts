import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_PRODUCTS } from "../../app/db/seed/demo-catalog";
import productImages from "../../app/db/seed/product-images.generated.json";
import { drawingOf, renderProductImage } from "./product-image";

const images: Record<string, string> = productImages;

describe("product pictures", () => {
  it("give every demo product a drawing of its own, of the object it is", () => {
    const drawings = DEMO_PRODUCTS.map((product) => drawingOf(product.name));
    expect(drawings).not.toContain(null);
    const shared = drawings.filter((drawing, index) => drawings.indexOf(drawing) !== index);
    expect(shared, "drawings used by more than one demo product").toEqual([]);
    expect(drawingOf("CampSafe Running Hydration Vest")).toBe("hydration vest");
    expect(drawingOf("BlendMaster Portable Blender Go")).toBe("portable blender");
    expect(drawingOf("BlendMaster Pro 900 Blender")).toBe("blender");
    expect(drawingOf("CampSafe Headlamp 400")).toBe("headlamp");
  });

  it("are the same bytes for the same product", () => {
    for (const product of DEMO_PRODUCTS.slice(0, 5)) {
      expect(renderProductImage(product)).toBe(renderProductImage({ ...product }));
    }
  });

  it("are small, accessible 4:3 SVGs with no external references", () => {
    for (const product of DEMO_PRODUCTS) {
      const svg = renderProductImage(product);
      expect(Buffer.byteLength(svg)).toBeLessThan(4096);
      expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 800 600"[^>]*role="img"/);
      expect(svg).toContain(`<title>${product.name}</title>`);
      expect(svg.replace('xmlns="http://www.w3.org/2000/svg"', "")).not.toMatch(
        /https?:|href|@import|url\((?!#)/,
      );
    }
  });

  it("escape the product name in the title", () => {
    const svg = renderProductImage({
      slug: "x",
      name: 'Pots & "Pans" <set>',
      bandName: "artistry",
      category: "home goods",
    });
    expect(svg).toContain("<title>Pots &#38; &#34;Pans&#34; &#60;set&#62;</title>");
  });

  it("still draw a product of an unknown category or with a name no rule knows", () => {
    const svg = renderProductImage({
      slug: "mystery",
      name: "Mystery Thing",
      bandName: "nobody",
      category: "toys",
    });
    expect(svg).toContain("<title>Mystery Thing</title>");
    expect(svg).toContain("NOBODY");
  });

  it("are committed up to date: one file per demo product, named by the hash of today's drawing", () => {
    // Fails when a drawing or the demo catalogue changed without `npm run db:generate-images`.
    expect(Object.keys(images).sort()).toEqual(DEMO_PRODUCTS.map((product) => product.slug).sort());
    for (const product of DEMO_PRODUCTS) {
      const svg = renderProductImage(product);
      const hash8 = createHash("sha256").update(svg).digest("hex").slice(0, 8);
      const url = `/images/products/${product.slug}-${hash8}.svg`;
      expect(images[product.slug]).toBe(url);
      expect(fs.readFileSync(path.join("public", url), "utf8")).toBe(svg);
    }
    // One drawing per product, and its JPEG twin for link previews (product-pictures.test.ts), nothing else.
    const files = fs.readdirSync("public/images/products");
    expect(files.filter((name) => name.endsWith(".svg"))).toHaveLength(DEMO_PRODUCTS.length);
    expect(files).toHaveLength(2 * DEMO_PRODUCTS.length);
  });
});
