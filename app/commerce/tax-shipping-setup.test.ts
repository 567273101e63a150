import { describe, expect, it } from "vitest";
import { germanShopDocument } from "../../tests/support/tax-setups";
import { everywhereSetup, setupDocument, taxShippingSetupSchema } from "./tax-shipping-setup";

/** The issue's example document, as an owner would keep it in a file: a German shop selling to France too. */
const EXAMPLE = germanShopDocument();

/** The paths of a refused document's issues, as the API names them. */
function refusedPaths(document: unknown, currency = "EUR"): string[] {
  const parsed = taxShippingSetupSchema(currency).safeParse(document);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => issue.path.map(String).join("."));
}

describe("the tax and shipping setup document", () => {
  it("reads amounts as minor units and rates as millionths, and writes them back as it took them", () => {
    const setup = taxShippingSetupSchema("EUR").parse(EXAMPLE);
    expect(setup.taxZones[0]).toMatchObject({ rate: 190_000, classRates: { reduced: 70_000 } });
    expect(setup.shippingZones[0]?.methods[0]).toMatchObject({
      bySubtotal: [
        { from: 0, price: 490 },
        { from: 5000, price: 0 },
      ],
    });
    expect(setup.shippingZones[0]?.methods[1]).toMatchObject({ flat: 1490 });
    expect(setupDocument(setup, "EUR")).toEqual(EXAMPLE);
  });

  it("takes a rate of up to 4 decimals exactly (8.875 %), and yen without decimals", () => {
    const document = {
      ...EXAMPLE,
      taxZones: [{ name: "New York City", areas: ["us-ny"], rate: 8.875 }],
      shippingZones: [
        { name: "Japan", areas: ["JP"], methods: [{ id: "flat", name: "Flat", estimate: "", flat: 800 }] },
      ],
    };
    const setup = taxShippingSetupSchema("JPY").parse(document);
    expect(setup.taxZones[0]).toMatchObject({ areas: ["US-NY"], rate: 88_750, taxShipping: true });
    expect(setup.shippingZones[0]?.methods[0]).toMatchObject({ flat: 800 });
    expect(refusedPaths({ ...document, shippingZones: EXAMPLE.shippingZones }, "JPY")).toEqual([
      "shippingZones.0.methods.0.bySubtotal.0.price",
      "shippingZones.0.methods.1.flat",
      "shippingZones.0.methods.2.byWeight.0.price",
    ]);
  });

  it("names the path of every bad value", () => {
    const bad = structuredClone(EXAMPLE) as Record<string, unknown> & typeof EXAMPLE;
    Object.assign(bad.taxZones[0] as object, { rate: 119, areas: ["DE", "XX"] });
    Object.assign(bad, { outsideTaxZones: "maybe" });
    const methods = (bad.shippingZones[0] as { methods: Record<string, unknown>[] }).methods;
    Object.assign(methods[1] as object, { bySubtotal: [{ from: 0, price: 1 }] });
    Object.assign(methods[2] as object, {
      id: "standard",
      byWeight: [
        { upToGrams: 30000, price: 1 },
        { upToGrams: 5000, price: 2 },
      ],
    });
    expect(refusedPaths(bad)).toEqual([
      "outsideTaxZones",
      "taxZones.0.areas.1",
      "taxZones.0.rate",
      "shippingZones.0.methods.1.bySubtotal",
      "shippingZones.0.methods.2.byWeight",
      "shippingZones.0.methods.2.id",
    ]);
  });

  it("refuses an area in two zones of a kind, a rate of 5 decimals and a subtotal band not from 0", () => {
    const twice = {
      ...EXAMPLE,
      taxZones: [EXAMPLE.taxZones[0], { name: "Also Germany", areas: ["AT", "DE"], rate: 5.12345 }],
      shippingZones: [
        {
          ...EXAMPLE.shippingZones[0],
          methods: [{ id: "standard", name: "Standard", estimate: "", bySubtotal: [{ from: 10, price: 1 }] }],
        },
      ],
    };
    expect(refusedPaths(twice)).toEqual([
      "taxZones.1.rate",
      "shippingZones.0.methods.0.bySubtotal",
      "taxZones.1.areas.1",
    ]);
  });

  it("starts a shop that saved none with one zone, Everywhere, charging what its settings charged", () => {
    const setup = everywhereSetup({ standard: 599, freeFrom: 5000, express: 1499 });
    expect(setup).toMatchObject({ pricesIncludeTax: false, taxZones: [] });
    const [everywhere] = setup.shippingZones;
    expect(everywhere?.areas).toContain("US");
    expect(everywhere?.areas).toContain("DE");
    expect(everywhere?.methods).toEqual([
      expect.objectContaining({
        id: "standard",
        bySubtotal: [
          { from: 0, price: 599 },
          { from: 5000, price: 0 },
        ],
      }),
      expect.objectContaining({ id: "express", flat: 1499 }),
    ]);
    // Its document reads back as the same setup: a shop can save it as it stands.
    expect(taxShippingSetupSchema("USD").parse(setupDocument(setup, "USD"))).toEqual(setup);
  });
});
