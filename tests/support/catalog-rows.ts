import { expect } from "vitest";
import type { ProductRow } from "../../app/db/schema";
import { DEMO_BRANDS, DEMO_CATEGORIES } from "../../app/db/seed/demo-brands-and-categories";
import type { ShopProduct } from "../../app/features/catalog/core/catalog-format";
import type { CatalogFileRecord } from "../../app/features/catalog/management/catalog-file.server";

const DAY = 24 * 60 * 60 * 1000;

/** The moment catalogue tests load their products at: dates are judged against it. */
export const CATALOG_NOW = new Date(Date.UTC(2026, 10, 1, 12));

/**
 * A product row a shopper could be shown: a known brand and category, a price
 * of 5 to 200 dollars (in cents), a rating of 0 to 5 in tenths, added within the two
 * years before CATALOG_NOW, with a name, a description and a fingerprinted picture.
 */
export function expectValidProduct(product: ProductRow) {
  expect(DEMO_BRANDS.map((brand) => brand.value)).toContain(product.bandName);
  expect(DEMO_CATEGORIES.map((category) => category.value)).toContain(product.category);
  expect(Number.isSafeInteger(product.priceMinor)).toBe(true);
  expect(product.priceMinor).toBeGreaterThanOrEqual(500);
  expect(product.priceMinor).toBeLessThanOrEqual(20_000);
  expect(product.ratings).toBeGreaterThanOrEqual(0);
  expect(product.ratings).toBeLessThanOrEqual(5);
  expect(Math.round(product.ratings * 10) / 10).toBe(product.ratings);
  expect(product.creationDate.getTime()).toBeGreaterThan(CATALOG_NOW.getTime() - 730 * DAY);
  expect(product.creationDate.getTime()).toBeLessThanOrEqual(CATALOG_NOW.getTime());
  expect(product.name.length).toBeGreaterThan(0);
  expect(product.description.length).toBeGreaterThan(0);
  expect(product.image).toMatch(/^\/images\/products\/[a-z0-9-]+-[0-9a-f]{8}\.svg$/);
}

/** One product as the shop's cards and product page are given it (a component test's fixture). */
export const BLENDER_CARD: ShopProduct = {
  id: 7,
  name: "BlendMaster Pro 900 Blender",
  image: "/images/products/blendmaster-pro-900-blender.svg",
  price: 89.99,
  priceMax: 89.99,
  variantCount: 1,
  compareAtPrice: null,
  ratings: 4.5,
  ratingCount: 12,
  bandName: "blendMaster",
  category: "home appliances",
  creationDate: "2025-03-04T23:30:00.000Z",
  stock: 14,
  brandLabel: "BlendMaster",
  categoryLabel: "Home appliances",
};

/** A Trailhead lantern as a catalogue file's row (camping, 4 stars, no picture), with what the test changes. */
export function lanternRecord(changes: Partial<CatalogFileRecord> & { sku: string }): CatalogFileRecord {
  return {
    name: "Trailhead Lantern",
    description: "Bright for a whole night.",
    price: 12,
    stock: 3,
    rating: 4,
    brand: "trailhead",
    brand_label: "Trailhead",
    category: "camping",
    category_label: "Camping",
    created: "2026-05-01T10:00:00.000Z",
    image: "",
    ...changes,
  };
}
