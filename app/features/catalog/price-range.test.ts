import { describe, expect, it } from "vitest";
import { PRICE_RANGE } from "./catalog-vocabulary";
import { priceRangeLabel, priceTone, SLIDER_MAX, SLIDER_MIN, SLIDER_STEP } from "./price-range";

describe("price slider", () => {
  it("colours the value green below 50, yellow from 50 to below 150, red from 150", () => {
    expect(priceTone(5)).toBe("green");
    expect(priceTone(45)).toBe("green");
    expect(priceTone(49.99)).toBe("green");
    expect(priceTone(50)).toBe("yellow");
    expect(priceTone(145)).toBe("yellow");
    expect(priceTone(149.99)).toBe("yellow");
    expect(priceTone(150)).toBe("red");
    expect(priceTone(200)).toBe("red");
  });

  it("has no colour band at 'Any price'", () => {
    expect(priceTone(0)).toBe("any");
    expect(priceRangeLabel(0)).toBe("Any price");
  });

  it("writes the value out, so colour is never the only signal", () => {
    expect(priceRangeLabel(5)).toBe("Up to $5");
    expect(priceRangeLabel(150)).toBe("Up to $150");
  });

  it("steps through the specification's scale, with Any price below its minimum", () => {
    expect(SLIDER_MIN).toBe(0);
    expect(SLIDER_MAX).toBe(PRICE_RANGE.max);
    expect(SLIDER_STEP).toBe(PRICE_RANGE.step);
    // The first priced step is the scale's minimum.
    expect(SLIDER_MIN + SLIDER_STEP).toBe(PRICE_RANGE.min);
  });
});
