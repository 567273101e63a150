import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { germanShopDocument } from "../../tests/support/tax-setups";
import { type Destination, type QuoteLine, quoteFor, taxOf } from "./checkout-quote";
import { type TaxShippingSetup, taxShippingSetupSchema } from "./tax-shipping-setup";

/** A shop in Germany: prices include VAT, German and French rates, EU shipping with three methods. */
const germanShop = (outsideTaxZones: "no-tax" | "refuse" = "no-tax"): TaxShippingSetup =>
  taxShippingSetupSchema("EUR").parse(germanShopDocument(outsideTaxZones));

/** A shop in Ohio: tax added on top, Ohio's 5.75 % (shipping untaxed) and Oregon's 0. */
const ohioShop: TaxShippingSetup = taxShippingSetupSchema("USD").parse({
  pricesIncludeTax: false,
  outsideTaxZones: "no-tax",
  taxZones: [
    { name: "Ohio", areas: ["US-OH"], rate: 5.75, taxShipping: false },
    { name: "Oregon", areas: ["US-OR"], rate: 0 },
  ],
  shippingZones: [
    {
      name: "US",
      areas: ["US"],
      methods: [{ id: "standard", name: "Standard", estimate: "3 days", flat: 5 }],
    },
  ],
});

const line = (lineId: number, total: number, taxClass: string | null = null, grams = 500): QuoteLine => ({
  lineId,
  total,
  taxClass,
  grams,
});

/** Two shirts at 19.99 € and a book at 12.00 € (reduced rate): 51.98 €, past the free-shipping band. */
const shirtsAndBook = [line(1, 3998), line(2, 1200, "reduced")];
const oneShirt = [line(1, 1999)];

interface Case {
  name: string;
  setup: TaxShippingSetup;
  lines: QuoteLine[];
  to: Destination;
  method?: string;
  lineTaxes: number[];
  shipping: number;
  taxes: [string, number][];
  total: number;
}

const CASES: Case[] = [
  {
    name: "DE shop, prices incl. 19 %, to Germany: the VAT contained, free standard shipping from 50 €",
    setup: germanShop(),
    lines: shirtsAndBook,
    to: { country: "DE" },
    // 3998 × 19/119 = 638.34; 1200 × 7/107 = 78.50 → 79 (half-up).
    lineTaxes: [638, 79],
    shipping: 0,
    taxes: [
      ["Germany", 638],
      ["Germany (reduced)", 79],
    ],
    total: 5198,
  },
  {
    name: "DE shop to France: French VAT (20 %, reduced 5.5 %) on the same shelf prices",
    setup: germanShop(),
    lines: shirtsAndBook,
    to: { country: "FR" },
    // 3998 × 20/120 = 666.33; 1200 × 5.5/105.5 = 62.56.
    lineTaxes: [666, 63],
    shipping: 0,
    taxes: [
      ["France", 666],
      ["France (reduced)", 63],
    ],
    total: 5198,
  },
  {
    name: "DE shop to Austria, shipped to but in no tax zone (no-tax): no tax",
    setup: germanShop(),
    lines: shirtsAndBook,
    to: { country: "AT" },
    lineTaxes: [0, 0],
    shipping: 0,
    taxes: [],
    total: 5198,
  },
  {
    name: "DE shop, below the free band: standard shipping 4.90 €, its VAT at the standard rate",
    setup: germanShop(),
    lines: oneShirt,
    to: { country: "DE" },
    // 1999 × 19/119 = 319.17; shipping 490 × 19/119 = 78.24.
    lineTaxes: [319],
    shipping: 490,
    taxes: [["Germany", 397]],
    total: 2489,
  },
  {
    name: "DE shop, express: flat 14.90 €",
    setup: germanShop(),
    lines: oneShirt,
    to: { country: "DE" },
    method: "express",
    // Shipping 1490 × 19/119 = 237.90.
    lineTaxes: [319],
    shipping: 1490,
    taxes: [["Germany", 557]],
    total: 3489,
  },
  {
    name: "DE shop, freight by weight: 6 kg falls in the band up to 30 kg",
    setup: germanShop(),
    lines: [line(1, 1999, null, 6000)],
    to: { country: "DE" },
    method: "freight",
    // Shipping 2900 × 19/119 = 463.03.
    lineTaxes: [319],
    shipping: 2900,
    taxes: [["Germany", 782]],
    total: 4899,
  },
  {
    name: "US shop, prices excl. tax, to Ohio: 5.75 % added per line, half-up, shipping untaxed",
    setup: ohioShop,
    lines: [line(1, 3297), line(2, 1000)],
    to: { country: "US", region: "US-OH" },
    // 3297 × 0.0575 = 189.58; 1000 × 0.0575 = 57.5 → 58.
    lineTaxes: [190, 58],
    shipping: 500,
    taxes: [["Ohio", 248]],
    total: 5045,
  },
  {
    name: "US shop to Oregon: a 0 % zone, listed at 0",
    setup: ohioShop,
    lines: [line(1, 3297), line(2, 1000)],
    to: { country: "US", region: "US-OR" },
    lineTaxes: [0, 0],
    shipping: 500,
    taxes: [["Oregon", 0]],
    total: 4797,
  },
];

describe("a checkout's quote", () => {
  it.each(CASES)("$name", ({ setup, lines, to, method, lineTaxes, shipping, taxes, total }) => {
    const answer = quoteFor(setup, lines, to, method);
    if (!answer.ok) throw new Error(`refused: ${answer.refusal}`);
    const { quote } = answer;
    expect(quote.lines.map((quoted) => quoted.tax)).toEqual(lineTaxes);
    expect(quote.shipping).toBe(shipping);
    expect(quote.taxes.map((tax) => [tax.name, tax.amount])).toEqual(taxes);
    expect(quote.total).toBe(total);
    expect(quote.taxIncluded).toBe(setup.pricesIncludeTax);
  });

  it("refuses an address no shipping zone holds, and one outside every tax zone when the shop says refuse", () => {
    expect(quoteFor(germanShop(), oneShirt, { country: "US", region: "US-OH" })).toEqual({
      ok: false,
      refusal: "not-shipped",
    });
    expect(quoteFor(germanShop("refuse"), oneShirt, { country: "AT" })).toEqual({
      ok: false,
      refusal: "not-taxed",
    });
  });

  it("offers only the methods that take the parcel, and refuses one not offered", () => {
    const heavy = [line(1, 1999, null, 40_000)];
    const answer = quoteFor(germanShop(), heavy, { country: "DE" });
    expect(answer.ok && answer.quote.shippingMethods.map((offer) => offer.id)).toEqual([
      "standard",
      "express",
    ]);
    expect(quoteFor(germanShop(), heavy, { country: "DE" }, "freight")).toEqual({
      ok: false,
      refusal: "unknown-method",
    });
  });

  it("places a region's zone before its country's", () => {
    const setup: TaxShippingSetup = {
      ...ohioShop,
      taxZones: [
        { name: "United States", areas: ["US"], rate: 10_000, classRates: {}, taxShipping: false },
        ...ohioShop.taxZones,
      ],
    };
    const tax = (region: string) => {
      const answer = quoteFor(setup, [line(1, 10_000)], { country: "US", region });
      return answer.ok ? answer.quote.taxes : [];
    };
    expect(tax("US-OH")).toEqual([{ name: "Ohio", rate: 57_500, amount: 575 }]);
    expect(tax("US-CA")).toEqual([{ name: "United States", rate: 10_000, amount: 100 }]);
  });
});

describe("a tax, rounded half-up to the minor unit", () => {
  it("is the exact share rounded half-up, added or contained, for any amount and rate", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9_999_999_999_99 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.boolean(),
        (amount, rate, included) => {
          const tax = BigInt(taxOf(amount, rate, included));
          const denominator = included ? 1_000_000n + BigInt(rate) : 1_000_000n;
          // Twice the distance from the exact share: below one unit, and a tie goes up.
          const twice = 2n * (tax * denominator - BigInt(amount) * BigInt(rate));
          expect(twice > -denominator && twice <= denominator).toBe(true);
        },
      ),
    );
  });
});

describe("any cart's quote", () => {
  const carts = fc.record({
    included: fc.boolean(),
    rate: fc.integer({ min: 0, max: 300_000 }),
    reduced: fc.integer({ min: 0, max: 100_000 }),
    taxShipping: fc.boolean(),
    shippingPrice: fc.integer({ min: 0, max: 100_000 }),
    lines: fc.array(fc.record({ total: fc.integer({ min: 0, max: 10_000_000 }), reduced: fc.boolean() }), {
      minLength: 1,
      maxLength: 20,
    }),
  });

  it("has line taxes (and shipping's) that add up to its taxes per rate, and a total that adds up", () => {
    fc.assert(
      fc.property(carts, (cart) => {
        const setup: TaxShippingSetup = {
          pricesIncludeTax: cart.included,
          outsideTaxZones: "no-tax",
          taxZones: [
            {
              name: "Zone",
              areas: ["DE"],
              rate: cart.rate,
              classRates: { reduced: cart.reduced },
              taxShipping: cart.taxShipping,
            },
          ],
          shippingZones: [
            {
              name: "All",
              areas: ["DE"],
              methods: [{ id: "standard", name: "Standard", estimate: "", flat: cart.shippingPrice }],
            },
          ],
        };
        const lines = cart.lines.map((drawn, at) => line(at, drawn.total, drawn.reduced ? "reduced" : null));
        const answer = quoteFor(setup, lines, { country: "DE" });
        if (!answer.ok) throw new Error(answer.refusal);
        const { quote } = answer;
        const shippingTax = cart.taxShipping ? taxOf(quote.shipping, cart.rate, cart.included) : 0;
        const lineTaxes = quote.lines.reduce((sum, quoted) => sum + quoted.tax, 0);
        const taxTotal = quote.taxes.reduce((sum, tax) => sum + tax.amount, 0);
        expect(taxTotal).toBe(lineTaxes + shippingTax);
        for (const tax of quote.taxes) {
          const reduced = tax.name.endsWith("(reduced)");
          const ofItsLines = quote.lines
            .filter((_, at) => (cart.lines[at] as { reduced: boolean }).reduced === reduced)
            .reduce((sum, quoted) => sum + quoted.tax, 0);
          expect(tax.amount).toBe(ofItsLines + (reduced ? 0 : shippingTax));
        }
        const subtotal = lines.reduce((sum, drawn) => sum + drawn.total, 0);
        expect(quote.subtotal).toBe(subtotal);
        expect(quote.total).toBe(subtotal + quote.shipping + (cart.included ? 0 : taxTotal));
      }),
    );
  });
});
