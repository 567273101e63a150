import { describe, expect, it } from "vitest";
import { stockLevelOf, stockWords } from "./stock-state";

describe("stockWords", () => {
  it.each([
    [0, "Sold out", "sold-out"],
    [1, "Only 1 left", "few-left"],
    [5, "Only 5 left", "few-left"],
    [6, "In stock", "in-stock"],
    [250, "In stock", "in-stock"],
  ] as const)("says %i units as “%s”", (onHand, words, level) => {
    expect(stockWords(onHand)).toBe(words);
    expect(stockLevelOf(onHand)).toBe(level);
  });
});
