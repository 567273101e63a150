import { describe, expect, it } from "vitest";
import { nextStatus, type OrderAction, type OrderState, possibleActions } from "./order-status";

const order = (status: OrderState["status"], paymentMethod: string, hasShipped = status === "shipped") => ({
  status,
  paymentMethod,
  hasShipped,
});

describe("what the back office may do to an order", () => {
  it.each<[OrderState, OrderAction, string | null]>([
    [order("placed", "bank-transfer"), "mark-paid", "paid"],
    [order("placed", "bank-transfer"), "mark-shipped", null],
    [order("placed", "bank-transfer"), "cancel", "cancelled"],
    [order("paid", "bank-transfer"), "mark-shipped", "shipped"],
    [order("paid", "bank-transfer"), "mark-paid", null],
    [order("paid", "bank-transfer"), "cancel", "cancelled"],
    [order("shipped", "bank-transfer"), "mark-paid", null],
    [order("shipped", "bank-transfer"), "cancel", null],
    [order("placed", "cash-on-delivery"), "mark-shipped", "shipped"],
    [order("placed", "cash-on-delivery"), "mark-paid", "paid"],
    [order("shipped", "cash-on-delivery"), "mark-paid", "paid"],
    [order("shipped", "cash-on-delivery"), "cancel", null],
    // Paid on delivery, after it was shipped: done with.
    [order("paid", "cash-on-delivery", true), "mark-shipped", null],
    [order("paid", "cash-on-delivery", true), "cancel", null],
    [order("paid", "cash-on-delivery", false), "mark-shipped", "shipped"],
    [order("cancelled", "bank-transfer"), "mark-paid", null],
    [order("cancelled", "bank-transfer"), "mark-shipped", null],
    [order("cancelled", "cash-on-delivery"), "cancel", null],
    // A card order is paid by Stripe's webhook alone, never marked paid by staff.
    [order("awaiting-payment", "card"), "mark-paid", null],
    [order("awaiting-payment", "card"), "mark-shipped", null],
    [order("awaiting-payment", "card"), "cancel", "cancelled"],
    [order("paid", "card"), "mark-shipped", "shipped"],
    [order("paid", "card"), "cancel", "cancelled"],
  ])("%o, %s: %s", (state, action, expected) => {
    expect(nextStatus(state, action)).toBe(expected);
  });

  it("offers on the page exactly the actions the rules allow", () => {
    expect(possibleActions(order("placed", "bank-transfer"))).toEqual(["mark-paid", "cancel"]);
    expect(possibleActions(order("placed", "cash-on-delivery"))).toEqual([
      "mark-paid",
      "mark-shipped",
      "cancel",
    ]);
    expect(possibleActions(order("shipped", "cash-on-delivery"))).toEqual(["mark-paid"]);
    expect(possibleActions(order("cancelled", "bank-transfer"))).toEqual([]);
    expect(possibleActions(order("awaiting-payment", "card"))).toEqual(["cancel"]);
  });
});
