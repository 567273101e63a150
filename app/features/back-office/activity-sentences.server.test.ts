import { describe, expect, it } from "vitest";
import { type LoggedChange, sentenceOf } from "./activity-sentences.server";

const entry = (change: Partial<LoggedChange> & Pick<LoggedChange, "action" | "subject">): LoggedChange => ({
  who: "olive@example.com",
  subjectName: "",
  before: null,
  after: null,
  ...change,
});

describe("an audit entry as a sentence", () => {
  it.each([
    [
      entry({
        action: "settings.changed",
        subject: "settings",
        subjectName: "the shop's settings",
        before: { standardShippingCents: 499, bankDetails: ["Backline Ltd", "IBAN GB00"] },
        after: { standardShippingCents: 599, bankDetails: ["Backline Ltd", "IBAN GB11"] },
      }),
      "olive@example.com changed the shop's settings: standard shipping from $4.99 to $5.99; bank details from Backline Ltd, IBAN GB00 to Backline Ltd, IBAN GB11.",
    ],
    [
      entry({
        action: "product.created",
        subject: "product:7",
        subjectName: "Kettle (SKU KT-1)",
        after: { name: "Kettle", sku: "KT-1", priceCents: 1234, stock: 7 },
      }),
      "olive@example.com added Kettle (SKU KT-1) at $12.34, 7 in stock.",
    ],
    [
      entry({
        action: "order.shipped",
        subject: "order:BL-1",
        subjectName: "order BL-1",
        after: { status: "shipped", trackingNumber: "1Z 999" },
      }),
      "olive@example.com marked order BL-1 shipped, tracking number 1Z 999.",
    ],
    [
      entry({
        action: "order.refunded",
        subject: "order:BL-1",
        subjectName: "order BL-1",
        before: { payment: "paid" },
        after: { payment: "refunded", amountCents: 2999, refundId: "re_1" },
      }),
      "olive@example.com refunded $29.99 of order BL-1 to the card (Stripe refund re_1).",
    ],
    [
      entry({
        action: "review.hidden",
        subject: "review:3",
        subjectName: "a review of Kettle (SKU KT-1)",
        after: { product: 7, hidden: true, reason: "Spam" },
      }),
      "olive@example.com hid a review of Kettle (SKU KT-1), saying “Spam”.",
    ],
    [
      entry({
        action: "brand.renamed",
        subject: "brand:campSafe",
        subjectName: "the brand CampSafe (campSafe)",
        before: { label: "Camp" },
        after: { label: "CampSafe" },
      }),
      "olive@example.com renamed the brand CampSafe (campSafe): label from Camp to CampSafe.",
    ],
    [
      entry({
        action: "category.moved",
        subject: "category:outdoor",
        subjectName: "the category Outdoor (outdoor)",
        before: { position: 3 },
        after: { position: 2 },
      }),
      "olive@example.com moved the category Outdoor (outdoor) from place 3 to 2.",
    ],
    [
      entry({
        action: "catalog.imported",
        subject: "catalog",
        subjectName: "the catalogue",
        after: { added: 3, updated: 1, unchanged: 40, removed: 0, keptAsOrdered: 0, pictureProblems: 2 },
      }),
      "olive@example.com imported a catalogue file (products: 3 added, 1 changed, 2 with a picture not read).",
    ],
  ])("%#: %s", (change, sentence) => {
    expect(sentenceOf(change)).toBe(sentence);
  });

  it("says in words what a change of a kind it does not know did, nested values too", () => {
    const sentence = sentenceOf(
      entry({
        action: "gift-card.changed",
        subject: "gift-card:9",
        before: {
          balanceCents: 1000,
          holder: { name: "Ada", email: null },
          lines: [{ productId: 4, quantity: 1 }],
        },
        after: { balanceCents: 500, holder: { name: "Ada", email: "ada@example.com" }, lines: [] },
      }),
    );
    expect(sentence).toBe(
      "olive@example.com changed gift-card 9: balance from $10.00 to $5.00; holder from name Ada, email nothing to name Ada, email ada@example.com; lines from 1 × product 4 to nothing.",
    );
    expect(sentence).not.toMatch(/object Object|—/);
  });
});
