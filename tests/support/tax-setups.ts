import { everywhereSetup, type TaxShippingSetup } from "~/commerce/tax-shipping-setup";

/**
 * A shop in Germany as its owner writes its tax and shipping setup (issue
 * 35's example, with France beside Germany): prices include VAT; German and
 * French standard and reduced rates; one EU shipping zone with a subtotal
 * band (free from 50), a flat express and weight bands. Amounts in the
 * shop's currency, rates in percent. The tests of the document, the quote
 * and their APIs start from it.
 */
export function germanShopDocument(outsideTaxZones: "no-tax" | "refuse" = "no-tax") {
  return {
    pricesIncludeTax: true,
    outsideTaxZones,
    taxZones: [
      { name: "Germany", areas: ["DE"], rate: 19, classRates: { reduced: 7 }, taxShipping: true },
      { name: "France", areas: ["FR"], rate: 20, classRates: { reduced: 5.5 }, taxShipping: true },
    ],
    shippingZones: [
      {
        name: "EU",
        areas: ["DE", "FR", "AT"],
        methods: [
          {
            id: "standard",
            name: "Standard",
            estimate: "2-4 days",
            bySubtotal: [
              { from: 0, price: 4.9 },
              { from: 50, price: 0 },
            ],
          },
          { id: "express", name: "Express", estimate: "next day", flat: 14.9 },
          {
            id: "freight",
            name: "Freight",
            estimate: "1 week",
            byWeight: [
              { upToGrams: 5000, price: 9.9 },
              { upToGrams: 30000, price: 29 },
            ],
          },
        ],
      },
    ],
  };
}

/**
 * A setup that charges `shipping` minor units by its Standard method to any
 * country and no tax: what the placing tests that are not about taxes order with.
 */
export function flatShippingSetup(shipping: number): TaxShippingSetup {
  const everywhere = everywhereSetup({ standard: shipping, freeFrom: 0, express: 0 });
  return {
    ...everywhere,
    shippingZones: everywhere.shippingZones.map((zone) => ({
      ...zone,
      methods: [{ id: "standard", name: "Standard", estimate: "3-5 business days", flat: shipping }],
    })),
  };
}

/** A French shipping address, valid by the checkout's rules: the German shop's buyer in France. */
export const PARIS_ADDRESS = {
  name: "Ada Shopper",
  line1: "1 rue de Rivoli",
  city: "Paris",
  postalCode: "75001",
  country: "FR",
};
