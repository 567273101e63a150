import { describe, expect, it } from "vitest";
import { setupChanges } from "./tax-shipping-changes";
import { everywhereSetup, type TaxShippingSetup } from "./tax-shipping-setup";

const before: TaxShippingSetup = {
  ...everywhereSetup({ standard: 499, freeFrom: 5000, express: 1499 }),
  taxZones: [
    { name: "Germany", areas: ["DE"], rate: 190_000, classRates: { reduced: 70_000 }, taxShipping: true },
  ],
};

describe("what a new tax and shipping setup changes, as the activity log says it", () => {
  it("says nothing of a setup saved as it was, whatever the order of its keys", () => {
    const reordered = JSON.parse(JSON.stringify(before, Object.keys(before).sort())) as TaxShippingSetup;
    const sameButKeysShuffled = {
      ...reordered,
      taxZones: before.taxZones,
      shippingZones: before.shippingZones.map((zone) => ({
        methods: zone.methods.map((method) => Object.fromEntries(Object.entries(method).reverse())),
        areas: zone.areas,
        name: zone.name,
      })),
    } as TaxShippingSetup;
    expect(setupChanges(before, sameButKeysShuffled)).toEqual([]);
  });

  it("names each zone's rates, classes, areas and methods that changed, and zones added or removed", () => {
    const [everywhere] = before.shippingZones as [TaxShippingSetup["shippingZones"][number]];
    const after: TaxShippingSetup = {
      ...before,
      pricesIncludeTax: true,
      outsideTaxZones: "refuse",
      taxZones: [
        { name: "Germany", areas: ["DE", "AT"], rate: 160_000, classRates: {}, taxShipping: false },
        { name: "France", areas: ["FR"], rate: 200_000, classRates: {}, taxShipping: true },
      ],
      shippingZones: [
        { ...everywhere, methods: [{ id: "express", name: "Express", estimate: "", flat: 999 }] },
      ],
    };
    expect(setupChanges(before, after)).toEqual([
      "prices now include tax",
      "no longer sells outside its tax zones",
      "tax zone Germany: rate 19 % → 16 %, reduced rate 7 % → none, shipping no longer taxed, added AT",
      "added tax zone France",
      "shipping zone Everywhere: changed method Express, removed method Standard",
    ]);
  });
});
