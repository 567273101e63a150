import { describe, expect, it } from "vitest";
import { minorOfDecimalText } from "~/commerce/money";
import { DEMO_BRANDS as BRANDS, DEMO_CATEGORIES as CATEGORIES } from "./demo-brands-and-categories";
import { DEMO_PRODUCTS } from "./demo-catalog";

describe("the demo catalogue", () => {
  it("has at least 60 products with unique kebab-case slugs and names", () => {
    expect(DEMO_PRODUCTS.length).toBeGreaterThanOrEqual(60);
    const slugs = DEMO_PRODUCTS.map((product) => product.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(new Set(DEMO_PRODUCTS.map((product) => product.name)).size).toBe(DEMO_PRODUCTS.length);
  });

  it("puts every brand in at least 3 categories and at least 10 products in every category", () => {
    for (const brand of BRANDS) {
      const categories = new Set(
        DEMO_PRODUCTS.filter((p) => p.bandName === brand.value).map((p) => p.category),
      );
      expect(categories.size, brand.label).toBeGreaterThanOrEqual(3);
    }
    for (const category of CATEGORIES) {
      expect(
        DEMO_PRODUCTS.filter((p) => p.category === category.value).length,
        category.label,
      ).toBeGreaterThanOrEqual(10);
    }
  });

  it("has prices of 5 to 200 in cents, ratings of 0 to 5 in tenths and ages within two years", () => {
    for (const product of DEMO_PRODUCTS) {
      expect(product.price).toBeGreaterThanOrEqual(5);
      expect(product.price).toBeLessThanOrEqual(200);
      // At most two decimals, read from its digits.
      expect(minorOfDecimalText(String(product.price), "USD")).toBeDefined();
      expect(product.ratings).toBeGreaterThanOrEqual(0);
      expect(product.ratings).toBeLessThanOrEqual(5);
      expect(Math.round(product.ratings * 10) / 10).toBe(product.ratings);
      expect(Number.isInteger(product.daysAgo)).toBe(true);
      expect(product.daysAgo).toBeGreaterThanOrEqual(0);
      expect(product.daysAgo).toBeLessThanOrEqual(729);
      expect(product.description.length).toBeGreaterThan(20);
    }
  });

  it("has shared prices, so sorting by price needs its tie-breaker", () => {
    const prices = DEMO_PRODUCTS.map((product) => product.price);
    expect(new Set(prices).size).toBeLessThan(prices.length);
  });

  it("has names whose words stem differently, for search tests", () => {
    const names = DEMO_PRODUCTS.map((product) => product.name);
    expect(names.some((name) => /\bRunning\b/.test(name))).toBe(true);
    expect(names.some((name) => /\bMixers\b/.test(name))).toBe(true);
  });
});
