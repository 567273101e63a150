import { describe, expect, it } from "vitest";
import { pairKey } from "../core/option-choices";
import { OptionIndexBuilder } from "./option-index";

/**
 * The option index keeps pair numbers in 16 bits while the shop has fewer
 * than 65,535 (name, value) pairs and in 32 bits past that: a shop's filter
 * and counts answer the same either way.
 */
function shop(colours: number) {
  const builder = new OptionIndexBuilder();
  // A shirt in two sizes × two colours, a product without options, then products of one colour
  // each, as many as it takes to reach `colours` colours.
  builder.add({
    names: ["Size", "Colour"],
    values: [
      ["S", "Red"],
      ["M", "Red"],
      ["S", "Blue"],
    ],
  });
  builder.add(null);
  for (let colour = 2; colour < colours; colour++) {
    builder.add({ names: ["Colour"], values: [[`Colour ${colour}`]] });
  }
  const size = colours;
  return { index: builder.build(Array.from({ length: size }, (_, at) => at)), size };
}

const positionsOf = (bits: Uint32Array) =>
  Array.from({ length: bits.length * 32 }, (_, at) => at).filter(
    (at) => ((bits[at >>> 5] as number) >>> (at & 31)) & 1,
  );

describe.each([
  ["fewer than 65,535 pairs (16 bits)", 1_000],
  ["more than 65,535 pairs (32 bits)", 70_000],
])("the option index with %s", (_, colours) => {
  const { index, size } = shop(colours);

  it("finds the products with a variant in the chosen values, and none for a combination not made", () => {
    const chosen = (entries: [string, string[]][]) =>
      new Map(entries.map(([name, values]) => [name, new Set(values)]));
    expect(positionsOf(index.matching(chosen([["Colour", ["Blue"]]]), size))).toEqual([0]);
    expect(
      positionsOf(
        index.matching(
          chosen([
            ["Size", ["M"]],
            ["Colour", ["Blue"]],
          ]),
          size,
        ),
      ),
    ).toEqual([]);
    expect(positionsOf(index.matching(chosen([["Colour", [`Colour ${colours - 1}`]]]), size))).toEqual([
      colours - 1,
    ]);
  });

  it("counts each product once per value, and nothing for the product without options", () => {
    const counts = index.newCounts();
    for (let position = 0; position < size; position++) index.addPosition(counts, position, 1);
    const byKey = index.byKey(counts);
    expect(byKey.get(pairKey("Size", "S"))).toBe(1);
    expect(byKey.get(pairKey("Colour", "Red"))).toBe(1);
    expect(byKey.get(pairKey("Colour", `Colour ${colours - 1}`))).toBe(1);
    expect(byKey.size).toBe(2 + 2 + (colours - 2));
  });
});
