/**
 * An order's states and every change between them, in one place: the list
 * of statuses (the database's CHECK is written from it, app/db/schema.ts),
 * the actions, and which action takes an order from which status to which
 * (docs/decisions/0029). Every status change in the code base is one of these
 * transitions: the back office's actions, Stripe's payment, the payment
 * window closing and a refund. The back-office page offers exactly the staff
 * actions this allows, and the server decides with the same table under the
 * order's row lock. Shared with the browser: no server imports.
 *
 * A card order (docs/decisions/0032) starts `awaiting-payment`: only
 * Stripe's verified webhook takes it to `paid` (never staff, never the
 * shopper's return from Stripe), and the shop itself cancels it once its
 * payment window has passed. Staff may cancel it meanwhile; once paid it is
 * shipped like any paid order, or cancelled to refund its payment.
 */

export const ORDER_STATUSES = ["awaiting-payment", "placed", "paid", "shipped", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** What staff do from the back office, in the page's order. */
const STAFF_ACTIONS = ["mark-paid", "mark-shipped", "cancel"] as const;
/** What happens to an order without staff choosing it from the list: Stripe, the shop's clock, a refund. */
const OTHER_ACTIONS = ["card-paid", "payment-window-closed", "refund"] as const;
export type StaffAction = (typeof STAFF_ACTIONS)[number];
export type OrderAction = StaffAction | (typeof OTHER_ACTIONS)[number];

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
const paidByCard = (order: OrderState) => order.paymentMethod === "card";

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
  // A verified Stripe webhook says the order's checkout session is paid.
  { action: "card-paid", from: "awaiting-payment", to: "paid" },
  // CARD_PAYMENT_MINUTES passed without a payment.
  { action: "payment-window-closed", from: "awaiting-payment", to: "cancelled" },
  // Staff refund a card payment before the order is sent, so it is not sent.
  {
    action: "refund",
    from: "paid",
    to: "cancelled",
    when: (order) => paidByCard(order) && notYetShipped(order),
  },
];

/** The database's list of statuses, for its CHECK constraint (app/db/schema.ts). */
export const ORDER_STATUS_LIST_SQL = ORDER_STATUSES.map((status) => `'${status}'`).join(", ");

/**
 * The one change the card payment and its window make, whatever else holds:
 * used as the conditional update's `where status = from`.
 */
export function onlyTransition(action: Exclude<OrderAction, StaffAction>): {
  from: OrderStatus;
  to: OrderStatus;
} {
  const [transition, ...more] = TRANSITIONS.filter((candidate) => candidate.action === action);
  if (!transition || more.length > 0 || transition.when)
    throw new Error(`${action} is not one plain transition`);
  return { from: transition.from, to: transition.to };
}

/** The status `action` takes the order to, or null when it does not fit the order now. */
export function nextStatus(order: OrderState, action: OrderAction): OrderStatus | null {
  const transition = TRANSITIONS.find(
    (candidate) =>
      candidate.action === action && candidate.from === order.status && (candidate.when?.(order) ?? true),
  );
  return transition?.to ?? null;
}

/** The staff actions that fit the order now, in the page's order. */
export function possibleActions(order: OrderState): StaffAction[] {
  return STAFF_ACTIONS.filter((action) => nextStatus(order, action) !== null);
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
