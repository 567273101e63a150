import { describe, expect, it } from "vitest";
import { orderConfirmationEmail } from "./order-email.server";
import type { OrderToConfirm } from "./place-order.server";

const order: OrderToConfirm = {
  id: 1,
  number: "BL-7Q4K9",
  status: "placed",
  email: "ada@example.com",
  shippingAddress: {
    name: "Ada <b>Shopper</b>",
    line1: "1 High Street",
    city: "Leeds",
    postalCode: "LS1 1AA",
    country: "GB",
  },
  shippingMethod: "standard",
  shippingMethodName: "Standard",
  paymentMethod: "bank-transfer",
  lines: [
    {
      productId: 3,
      variantId: 30,
      name: "Teapot",
      sku: "TEA-1",
      options: { Size: "Large", Colour: "Blue" },
      unitPriceCents: 1250,
      quantity: 2,
      lineTotalCents: 2500,
      taxCents: 0,
    },
    {
      productId: 9,
      variantId: 90,
      name: "Cup & saucer",
      sku: "CUP-9",
      options: {},
      unitPriceCents: 10,
      quantity: 3,
      lineTotalCents: 30,
      taxCents: 0,
    },
  ],
  subtotalCents: 2530,
  shippingCents: 499,
  totalCents: 3029,
  taxCents: 0,
  taxes: [],
  pricesIncludeTax: false,
  currency: "USD",
};

const facts = {
  orderUrl: "https://shop.example.com/orders/BL-7Q4K9?token=abc",
  payment: { bankDetails: ["Backline Ltd.", "IBAN: GB33 BUKB 2020 1555 5555 55"] },
};

describe("the order's confirmation email", () => {
  it("lists the lines, the totals, the address, how to pay and the order's link", () => {
    const message = orderConfirmationEmail(order, facts);
    expect(message).toMatchObject({
      kind: "order-confirmation",
      to: "ada@example.com",
      subject: "Your Backline order BL-7Q4K9",
    });
    for (const part of [message.text, message.html]) {
      expect(part).toContain("2 × Teapot (Size Large · Colour Blue) at $12.50: $25.00");
      expect(part).toContain("Subtotal: $25.30");
      expect(part).toContain("Standard shipping: $4.99");
      expect(part).toContain("Total: $30.29");
      expect(part).not.toContain("tax");
      expect(part).toContain("1 High Street");
      expect(part).toContain("Leeds LS1 1AA");
      expect(part).toContain("United Kingdom");
      expect(part).toContain("Payment: Bank transfer");
      expect(part).toContain("with your order number BL-7Q4K9 as the reference");
      expect(part).toContain("IBAN: GB33 BUKB 2020 1555 5555 55");
    }
    // A product without options is named alone.
    expect(message.text).toContain("3 × Cup & saucer at $0.10: $0.30");
    expect(message.text).toContain(`See your order: ${facts.orderUrl}`);
    expect(message.html).toContain(`href="${facts.orderUrl}"`);
  });

  it("adds each rate's tax before the total where prices exclude it, and names the zone's method", () => {
    const ohio = {
      ...order,
      shippingMethodName: "Ground",
      taxCents: 160,
      taxes: [{ name: "Ohio", rate: 57_500, amount: 160 }],
      totalCents: 3029 + 160,
    };
    const { text } = orderConfirmationEmail(ohio, facts);
    expect(text).toContain("Ground shipping: $4.99\nTax, Ohio 5.75 %: $1.60\nTotal: $31.89");
  });

  it("says the tax each rate's prices contain after the total where prices include it", () => {
    const germany = {
      ...order,
      currency: "EUR",
      taxCents: 484,
      taxes: [
        { name: "Germany", rate: 190_000, amount: 480 },
        { name: "Germany (reduced)", rate: 70_000, amount: 4 },
      ],
      pricesIncludeTax: true,
    };
    const { text } = orderConfirmationEmail(germany, facts);
    expect(text).toContain(
      "Total: €30.29\nIncludes tax, Germany 19 %: €4.80\nIncludes tax, Germany (reduced) 7 %: €0.04",
    );
  });

  it("names the state of an address that has one after its city", () => {
    const portland = { name: "Ada", line1: "218 Harbour Street", city: "Portland", postalCode: "97204" };
    const message = orderConfirmationEmail(
      { ...order, shippingAddress: { ...portland, country: "US", region: "US-OR" } },
      facts,
    );
    for (const part of [message.text, message.html]) {
      expect(part).toContain("Portland, Oregon 97204");
      expect(part).toContain("United States");
    }
  });

  it("keeps what the shopper typed as text in the HTML part", () => {
    const { html, text } = orderConfirmationEmail(order, facts);
    expect(html).toContain("Ada &lt;b&gt;Shopper&lt;/b&gt;");
    expect(html).toContain("Cup &amp; saucer");
    expect(html).not.toContain("<b>Shopper");
    expect(text).toContain("Ada <b>Shopper</b>");
  });

  it("tells a shopper paying on delivery to pay the courier, with no bank details", () => {
    const message = orderConfirmationEmail({ ...order, paymentMethod: "cash-on-delivery" }, facts);
    expect(message.text).toContain("Payment: Pay on delivery");
    expect(message.text).toContain("Pay the courier $30.29 when your order arrives.");
    expect(message.text).not.toContain("IBAN");
  });
});
