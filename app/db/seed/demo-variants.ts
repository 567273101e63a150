/**
 * The demo products sold in sizes and colours (docs/decisions/0045), so a
 * fresh shop shows options, swatches, a "was" price, a "From" price and a
 * sold-out combination. Prices are amounts of the shop's currency, as the
 * demo catalogue's are.
 */
export interface DemoVariants {
  slug: string;
  options: { name: string; values: { value: string; swatch?: string }[] }[];
  variants: { values: string[]; price: number; compareAt?: number; onHand: number }[];
}

const SHOE_SIZES = ["39", "40", "41", "42", "43"];
const SHOE_COLOURS = [
  { value: "Black", swatch: "#111827" },
  { value: "Blue", swatch: "#1d4ed8" },
];

export const DEMO_VARIANTS: DemoVariants[] = [
  {
    slug: "cyclefit-running-shoes",
    options: [
      { name: "Size", values: SHOE_SIZES.map((value) => ({ value })) },
      { name: "Colour", values: SHOE_COLOURS },
    ],
    // Every size in black; blue in 40–42 only, and 41 in blue sold out.
    variants: SHOE_SIZES.flatMap((size, at) => [
      { values: [size, "Black"], price: 74.99, onHand: 4 + at * 3 },
      ...(at >= 1 && at <= 3
        ? [{ values: [size, "Blue"], price: 74.99, onHand: size === "41" ? 0 : 6 }]
        : []),
    ]),
  },
  {
    slug: "cyclefit-yoga-mat-pro",
    options: [
      {
        name: "Colour",
        values: [
          { value: "Sage", swatch: "#5f7f65" },
          { value: "Slate", swatch: "#475569" },
          { value: "Plum", swatch: "#7e3f6e" },
        ],
      },
    ],
    variants: [
      { values: ["Sage"], price: 29.99, onHand: 18 },
      { values: ["Slate"], price: 29.99, onHand: 2 },
      { values: ["Plum"], price: 24.99, compareAt: 29.99, onHand: 11 },
    ],
  },
  {
    slug: "artistry-linen-throw-pillow",
    options: [{ name: "Size", values: [{ value: "45 × 45 cm" }, { value: "60 × 60 cm" }] }],
    variants: [
      { values: ["45 × 45 cm"], price: 27.5, onHand: 20 },
      { values: ["60 × 60 cm"], price: 34.5, onHand: 9 },
    ],
  },
];

/** A demo variant's SKU: its product's key and its values ("cyclefit-running-shoes-40-blue"). */
export function demoVariantSku(slug: string, values: readonly string[]): string {
  return [slug, ...values.map((value) => value.toLowerCase().replace(/[^a-z0-9]+/g, ""))].join("-");
}
