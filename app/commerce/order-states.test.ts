import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  nextStatus,
  ORDER_STATUSES,
  type OrderAction,
  type OrderState,
  type OrderStatus,
  onlyTransition,
  possibleActions,
} from "./order-states";

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

/** The changes the shop allows, written out as a shop owner reads them: no other may ever happen. */
const ALLOWED = new Set([
  "placed→paid",
  "placed→shipped",
  "placed→cancelled",
  "paid→shipped",
  "paid→cancelled",
  "shipped→paid",
  "awaiting-payment→paid",
  "awaiting-payment→cancelled",
]);
const ACTIONS: OrderAction[] = [
  "mark-paid",
  "mark-shipped",
  "cancel",
  "card-paid",
  "payment-window-closed",
  "refund",
];
const METHODS = ["cash-on-delivery", "bank-transfer", "card"];

describe("the order state machine, any path", () => {
  it("no sequence of actions takes an order through a change the shop does not allow", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...METHODS),
        fc.array(fc.constantFrom(...ACTIONS), { maxLength: 12 }),
        (paymentMethod, actions) => {
          let state: OrderState = {
            status: paymentMethod === "card" ? "awaiting-payment" : "placed",
            paymentMethod,
            hasShipped: false,
          };
          for (const action of actions) {
            const to = nextStatus(state, action);
            if (to === null) continue;
            expect(ALLOWED.has(`${state.status}→${to}`), `${state.status}→${to} by ${action}`).toBe(true);
            state = { ...state, status: to, hasShipped: state.hasShipped || to === "shipped" };
          }
          // Never shipped twice, never back on the shelf once with the customer.
          if (state.hasShipped) expect(["shipped", "paid"]).toContain(state.status);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("cancelled is the end: no action leaves it", () => {
    for (const paymentMethod of METHODS) {
      for (const hasShipped of [false, true]) {
        for (const action of ACTIONS) {
          expect(nextStatus({ status: "cancelled", paymentMethod, hasShipped }, action)).toBeNull();
        }
      }
    }
  });

  it("only staff's actions are offered on the page; the others are one plain change each", () => {
    for (const status of ORDER_STATUSES as readonly OrderStatus[]) {
      for (const paymentMethod of METHODS) {
        const offered = possibleActions({ status, paymentMethod, hasShipped: false });
        expect(offered.every((action) => ["mark-paid", "mark-shipped", "cancel"].includes(action))).toBe(
          true,
        );
      }
    }
    expect(onlyTransition("card-paid")).toEqual({ from: "awaiting-payment", to: "paid" });
    expect(onlyTransition("payment-window-closed")).toEqual({ from: "awaiting-payment", to: "cancelled" });
    const paid = { status: "paid", hasShipped: false } as const;
    expect(nextStatus({ ...paid, paymentMethod: "card" }, "refund")).toBe("cancelled");
    expect(nextStatus({ ...paid, paymentMethod: "cash-on-delivery" }, "refund")).toBeNull();
  });
});
