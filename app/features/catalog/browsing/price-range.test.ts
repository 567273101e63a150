import { describe, expect, it } from "vitest";
import type { ShopMoney } from "~/commerce/money";
import {
  priceRangeLabel,
  priceTone,
  rangeOnSlider,
  SLIDER_MAX,
  SLIDER_MIN,
  SLIDER_STEP,
} from "./price-range";

const USD: ShopMoney = { currency: "USD", locale: "en-US" };

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
    expect(priceRangeLabel(0, USD)).toBe("Any price");
  });

  it("writes the value out, so colour is never the only signal", () => {
    expect(priceRangeLabel(5, USD)).toBe("Up to $5");
    expect(priceRangeLabel(150, USD)).toBe("Up to $150");
    // A euro shop writes its own: the sign after the amount, with a no-break space.
    expect(priceRangeLabel(150, { currency: "EUR", locale: "de-DE" })).toBe("Up to 150\u00a0€");
  });

  it("steps through the specification's scale, 5 to 200 by 5, with Any price below its minimum", () => {
    const positions = Array.from(
      { length: (SLIDER_MAX - SLIDER_MIN) / SLIDER_STEP + 1 },
      (_, index) => SLIDER_MIN + index * SLIDER_STEP,
    );
    expect(positions[0]).toBe(0);
    expect(positions.slice(1, 3)).toEqual([5, 10]);
    expect(positions.at(-1)).toBe(200);
    expect(positions.map((range) => priceRangeLabel(range, USD)).slice(0, 2)).toEqual([
      "Any price",
      "Up to $5",
    ]);
  });
});

describe("rangeOnSlider", () => {
  it.each([
    [0, 0],
    [5, 5],
    [45, 45],
    [47, 45],
    [47.5, 50],
    [49.99, 50],
    [2, 5],
    [200, 200],
    [205, 200],
    [1_000_000, 200],
  ])("puts %d on the slider at %d", (range, onSlider) => {
    expect(rangeOnSlider(range)).toBe(onSlider);
  });
});
