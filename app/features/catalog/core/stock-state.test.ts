import { describe, expect, it } from "vitest";
import { stockLevelOf, stockWords } from "./stock-state";

describe("stockWords", () => {
  it.each([
    [0, "Sold out", "sold-out"],
    [1, "Only 1 left", "few-left"],
    [5, "Only 5 left", "few-left"],
    [6, "In stock", "in-stock"],
    [250, "In stock", "in-stock"],
  ] as const)("says %i units as “%s” from the default line of 5", (onHand, words, level) => {
    expect(stockWords(onHand, 5)).toBe(words);
    expect(stockLevelOf(onHand, 5)).toBe(level);
  });

  it.each([
    [2, 3, "In stock", "in-stock"],
    [2, 2, "Only 2 left", "few-left"],
    [2, 1, "Only 1 left", "few-left"],
    [20, 20, "Only 20 left", "few-left"],
    [20, 21, "In stock", "in-stock"],
    [0, 1, "In stock", "in-stock"],
    [0, 0, "Sold out", "sold-out"],
  ] as const)("from a line of %i, says %i units as “%s”", (fewLeftAt, onHand, words, level) => {
    expect(stockWords(onHand, fewLeftAt)).toBe(words);
    expect(stockLevelOf(onHand, fewLeftAt)).toBe(level);
  });
});
