/**
 * What the back office may do to an order, in one place: the statuses, the
 * actions, and which action takes an order from which status to which
 * (docs/decisions/0029). The page offers exactly the actions this allows,
 * and the server decides with the same table under the order's row lock.
 * Shared with the browser: no server imports.
 *
 * A card order (docs/decisions/0032) starts `awaiting-payment`: only
 * Stripe's verified webhook takes it to `paid` (never staff, never the
 * shopper's return from Stripe), and the shop itself cancels it once its
 * payment window has passed — the two provider rows below. Staff may cancel
 * it meanwhile; once paid it is shipped like any paid order.
 */

export const ORDER_STATUSES = ["awaiting-payment", "placed", "paid", "shipped", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const ORDER_ACTIONS = ["mark-paid", "mark-shipped", "cancel"] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/** What the rules need to know of an order. */
export interface OrderState {
  status: OrderStatus;
  paymentMethod: string;
  /** Whether it has been shipped at some point: a paid on-delivery order may have been (shipped, then paid). */
  hasShipped: boolean;
}

interface Transition {
  action: OrderAction;
  from: OrderStatus;
  to: OrderStatus;
  /** Further conditions, when the status alone does not decide. */
  when?: (order: OrderState) => boolean;
}

const paysOnDelivery = (order: OrderState) => order.paymentMethod === "cash-on-delivery";
const notYetShipped = (order: OrderState) => !order.hasShipped;

const TRANSITIONS: readonly Transition[] = [
  { action: "mark-paid", from: "placed", to: "paid" },
  // The courier collects the money: an on-delivery order is paid once it has been shipped.
  { action: "mark-paid", from: "shipped", to: "paid", when: paysOnDelivery },
  { action: "mark-shipped", from: "paid", to: "shipped", when: notYetShipped },
  // An on-delivery order is shipped before it is paid; a transfer is waited for.
  { action: "mark-shipped", from: "placed", to: "shipped", when: paysOnDelivery },
  { action: "cancel", from: "placed", to: "cancelled" },
  // A card order not paid yet: its stock comes back, its open Stripe session is expired.
  { action: "cancel", from: "awaiting-payment", to: "cancelled" },
  // Never once shipped: its units are with the customer, not back on the shelf.
  { action: "cancel", from: "paid", to: "cancelled", when: notYetShipped },
];

/**
 * What Stripe and the shop's own clock do to a card order, with the same
 * conditional update the back office's actions use (`where status = from`).
 */
export const CARD_PAYMENT_TRANSITIONS = {
  /** A verified webhook says the session is paid. */
  paid: { from: "awaiting-payment", to: "paid" },
  /** CARD_PAYMENT_MINUTES passed without a payment. */
  windowClosed: { from: "awaiting-payment", to: "cancelled" },
} as const satisfies Record<string, { from: OrderStatus; to: OrderStatus }>;

/** The status `action` takes the order to, or null when it does not fit the order now. */
export function nextStatus(order: OrderState, action: OrderAction): OrderStatus | null {
  const transition = TRANSITIONS.find(
    (candidate) =>
      candidate.action === action && candidate.from === order.status && (candidate.when?.(order) ?? true),
  );
  return transition?.to ?? null;
}

/** The actions that fit the order now, in the page's order. */
export function possibleActions(order: OrderState): OrderAction[] {
  return ORDER_ACTIONS.filter((action) => nextStatus(order, action) !== null);
}

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === "string" && (ORDER_STATUSES as readonly string[]).includes(value);
}

/** A status as the back office names it (in words, never by colour alone). */
export const STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  "awaiting-payment": "Awaiting payment",
  placed: "Placed",
  paid: "Paid",
  shipped: "Shipped",
  cancelled: "Cancelled",
};

/** The timeline's words for a change to `status`. */
export const CHANGE_WORDS: Readonly<Record<OrderStatus, string>> = {
  "awaiting-payment": "Placed, awaiting payment",
  placed: "Placed",
  paid: "Marked paid",
  shipped: "Marked shipped",
  cancelled: "Cancelled",
};
