import { describe, expect, it } from "vitest";
import type { ProductVariants } from "../core/product-variants.server";
import { chooseVariant } from "./variant-choice";

const variant = (id: number, values: string[], stock: number) => ({
  id,
  sku: `SHOE-${values.join("-")}`,
  values,
  priceMinor: 7499,
  compareAtMinor: null,
  weightGrams: null,
  stock,
  image: null,
});

/** Sizes 40–42 in black, 41 in blue too (sold out); 42 black sold out. */
const SHOES: ProductVariants = {
  options: [
    { name: "Size", values: [{ value: "40" }, { value: "41" }, { value: "42" }] },
    { name: "Colour", values: [{ value: "Black", swatch: "#111827" }, { value: "Blue" }] },
  ],
  variants: [
    variant(1, ["40", "Black"], 3),
    variant(2, ["41", "Black"], 5),
    variant(3, ["41", "Blue"], 0),
    variant(4, ["42", "Black"], 0),
  ],
};

const PATH = "/products/9-running-shoes";
const choose = (query: string) => chooseVariant(SHOES, new URLSearchParams(query), PATH);
const states = (query: string) =>
  choose(query).options.map((option) => option.values.map((value) => `${value.value}:${value.state}`));

describe("choosing a product page's variant", () => {
  it("shows the variant the address names, else the first in stock", () => {
    expect(choose("variant=2").chosen?.id).toBe(2);
    expect(choose("").chosen?.id).toBe(1);
    // Not one of this product's live variants: the page shows its first in stock.
    expect(choose("variant=99").chosen?.id).toBe(1);
    expect(choose("variant=2").selected).toEqual(["41", "Black"]);
  });

  it("sends the option form's values to the chosen variant's own address, keeping the others", () => {
    expect(choose("option1=41&option2=Blue&from=shop").redirectTo).toBe(`${PATH}?from=shop&variant=3`);
    expect(choose("variant=1&option1=41&option2=Black").redirectTo).toBe(`${PATH}?variant=2`);
  });

  it("shows no variant for a combination that is not made, and says so of each value", () => {
    const missing = choose("option1=40&option2=Blue");
    expect(missing).toMatchObject({ chosen: null, selected: ["40", "Blue"], redirectTo: null });
    expect(states("option1=40&option2=Blue")).toEqual([
      ["40:not-made", "41:sold-out", "42:not-made"],
      ["Black:available", "Blue:not-made"],
    ]);
  });

  it("marks the values that, with the others chosen, are sold out", () => {
    expect(states("variant=2")).toEqual([
      ["40:available", "41:available", "42:sold-out"],
      ["Black:available", "Blue:sold-out"],
    ]);
  });
});
