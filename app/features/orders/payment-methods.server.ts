import { formatCents } from "~/utils/money";

/**
 * How a shopper pays, as a port (docs/decisions/0027, "Payment methods as a
 * port"): each method has a label, says how to pay on the order's page and
 * in its email, and decides what happens once its order is placed. Pay on
 * delivery and bank transfer need no provider; a card method (issue 25) is a
 * third implementation whose `whenPlaced` opens a Stripe Checkout session and
 * sends the shopper there, its order waiting for the signed webhook.
 */

/** What the shopper is told to do to pay. */
export interface PaymentInstructions {
  /** In a sentence or two. */
  paragraphs: string[];
  /** Lines to copy as they are (the bank's details); none when there is nothing to copy. */
  details: string[];
}

/** The shop's settings the methods read. */
export interface PaymentSettings {
  /** Where a bank transfer is paid (SHOP_BANK_DETAILS), one line each. */
  bankDetails: string[];
}

interface OrderToPay {
  number: string;
  totalCents: number;
}

interface PaymentMethod {
  /** As the checkout form names it. */
  label: string;
  /** What an order placed with it and not yet further along (status `placed`) is waiting for, in words. */
  placedStatus: string;
  instructions(order: OrderToPay, settings: PaymentSettings): PaymentInstructions;
  /**
   * Once the order is committed: where the shopper goes next. For these two,
   * the order's own page (`orderPage`): there is nothing to do before.
   */
  whenPlaced(order: OrderToPay, orderPage: string): Promise<string>;
}

const cashOnDelivery: PaymentMethod = {
  label: "Pay on delivery",
  placedStatus: "Received: we are preparing it",
  instructions: (order) => ({
    paragraphs: [`Pay the courier ${formatCents(order.totalCents)} when your order arrives.`],
    details: [],
  }),
  whenPlaced: async (_order, orderPage) => orderPage,
};

const bankTransfer: PaymentMethod = {
  label: "Bank transfer",
  placedStatus: "Received: waiting for your transfer",
  instructions: (order, settings) => ({
    paragraphs: [
      `Transfer ${formatCents(order.totalCents)} to the account below, with your order number ${order.number} as the reference.`,
      "We send your order as soon as the payment arrives.",
    ],
    details: settings.bankDetails,
  }),
  whenPlaced: async (_order, orderPage) => orderPage,
};

const METHODS: Readonly<Record<string, PaymentMethod>> = {
  "cash-on-delivery": cashOnDelivery,
  "bank-transfer": bankTransfer,
};

/** The method an order was placed with; an id the shop does not know is a fault, not a shopper's mistake. */
export function paymentMethod(id: string): PaymentMethod {
  const method = METHODS[id];
  if (!method) throw new Error(`unknown payment method ${JSON.stringify(id)}`);
  return method;
}

/**
 * Until SHOP_BANK_DETAILS is set: details that say what they are, so no
 * shopper of a demo sends money anywhere (server/services.ts warns at start-up).
 */
export const DEMO_BANK_DETAILS =
  "DEMO SHOP: not a real bank account; Account holder: Backline Demo; IBAN: XX00 DEMO 0000 0000 0000 00; BIC: DEMODEMO";

/** SHOP_BANK_DETAILS as lines: its parts are separated by ";". */
export function bankDetailLines(setting: string): string[] {
  return setting
    .split(";")
    .map((part) => part.trim())
    .filter(Boolean);
}
