import { describe, expect, it } from "vitest";
import { DEMO_PRODUCTS } from "./demo-catalog";
import { DEMO_BUYERS, demoReviewsOf } from "./demo-reviews";

describe("the demo's reviews", () => {
  // In the order the seed inserts them: oldest first.
  const products = [...DEMO_PRODUCTS].sort((a, b) => b.daysAgo - a.daysAgo);

  it("make every demo product's rating the mean of its reviews, to one decimal, from different buyers", () => {
    products.forEach((product, position) => {
      const reviews = demoReviewsOf(position, product.ratings);
      if (product.ratings === 0) {
        expect(reviews, product.name).toEqual([]);
        return;
      }
      const mean = reviews.reduce((sum, review) => sum + review.rating, 0) / reviews.length;
      expect(Math.round(mean * 10) / 10, product.name).toBe(product.ratings);
      expect(new Set(reviews.map((review) => review.buyer.id)).size, product.name).toBe(reviews.length);
      for (const review of reviews) expect(review.rating).toBeGreaterThanOrEqual(1);
    });
  });

  it("come from buyers at addresses nobody can receive mail at", () => {
    for (const buyer of DEMO_BUYERS) expect(buyer.email).toMatch(/@backline\.invalid$/);
  });
});
