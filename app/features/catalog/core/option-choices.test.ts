import { describe, expect, it } from "vitest";
import {
  chosenOptions,
  optionFacets,
  optionValueOrder,
  pairKey,
  productChosen,
  readOptionChoice,
  valuesCounted,
} from "./option-choices";

const SHOES = [
  { Size: "40", Colour: "Blue" },
  { Size: "41", Colour: "Blue" },
  { Size: "41", Colour: "Red" },
];

describe("option choices", () => {
  it("reads Size:M as the option Size and the value M, a colon in the value kept", () => {
    expect(readOptionChoice("Size:M")).toEqual({ name: "Size", value: "M" });
    expect(readOptionChoice("Ratio:16:9")).toEqual({ name: "Ratio", value: "16:9" });
    for (const unreadable of ["Size", ":M", "Size:"]) expect(readOptionChoice(unreadable)).toBeNull();
  });

  it("keeps a product when one variant has a chosen value of every chosen option", () => {
    const chosen = chosenOptions(["Size:40", "Size:41", "Colour:Red"]);
    expect(chosen).toEqual(
      new Map([
        ["Size", new Set(["40", "41"])],
        ["Colour", new Set(["Red"])],
      ]),
    );
    expect(productChosen(SHOES, chosen ?? new Map())).toBe(true);
    // 40 is made in Blue only: 40 and Red are never one shoe.
    expect(productChosen(SHOES, chosenOptions(["Size:40", "Colour:Red"]) ?? new Map())).toBe(false);
    expect(productChosen(SHOES, chosenOptions(["Fit:Slim"]) ?? new Map())).toBe(false);
  });

  it("counts a value when a variant has it and the other options' chosen values, not its own option's", () => {
    expect(valuesCounted(SHOES, null)).toEqual(
      new Set([
        pairKey("Size", "40"),
        pairKey("Size", "41"),
        pairKey("Colour", "Blue"),
        pairKey("Colour", "Red"),
      ]),
    );
    // Red chosen: the sizes made in red count; every colour of the sizes chosen (none) counts.
    expect(valuesCounted(SHOES, chosenOptions(["Colour:Red"]))).toEqual(
      new Set([pairKey("Size", "41"), pairKey("Colour", "Blue"), pairKey("Colour", "Red")]),
    );
    // 40 and Red chosen: 40's colours (Blue) and Red's sizes (41); no variant holds both.
    expect(valuesCounted(SHOES, chosenOptions(["Size:40", "Colour:Red"]))).toEqual(
      new Set([pairKey("Size", "41"), pairKey("Colour", "Blue")]),
    );
  });

  it("lists sizes smallest first and numbers by their value, then the rest as a person reads them", () => {
    expect(["XL", "M", "s", "L", "XS"].sort(optionValueOrder)).toEqual(["XS", "s", "M", "L", "XL"]);
    expect(["100", "41", "9", "40"].sort(optionValueOrder)).toEqual(["9", "40", "41", "100"]);
    expect(["Red", "blue", "M", "Green"].sort(optionValueOrder)).toEqual(["M", "blue", "Green", "Red"]);
  });

  it("answers the counts by option name, names and values in order", () => {
    expect(
      optionFacets([
        { name: "Size", value: "L", count: 2 },
        { name: "Colour", value: "Red", count: 1 },
        { name: "Size", value: "S", count: 3 },
      ]),
    ).toEqual({
      Colour: [{ value: "Red", count: 1 }],
      Size: [
        { value: "S", count: 3 },
        { value: "L", count: 2 },
      ],
    });
  });
});
