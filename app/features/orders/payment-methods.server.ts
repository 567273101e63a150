import type { OrderStatus } from "~/commerce/order-states";
import { formatAmount } from "~/commerce/shop-money.server";

/**
 * How a shopper pays, as a port (docs/decisions/0039, "Payment methods are a
 * port"): each method has a label, the status its orders start in, and says
 * how to pay on the order's page and in its email. Pay on delivery and bank
 * transfer need no provider; a card order starts `awaiting-payment` and is
 * paid on Stripe's page (card-payments/, docs/decisions/0032).
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
  /** How long a card order waits for its payment (CARD_PAYMENT_MINUTES), in words: "30 minutes". */
  cardWindow?: string;
}

interface OrderToPay {
  number: string;
  totalCents: number;
  /** What its total is in (ISO 4217). */
  currency: string;
  status: OrderStatus;
}

interface PaymentMethod {
  /** As the checkout form names it. */
  label: string;
  /** The status its orders are placed in. */
  startsAs: "placed" | "awaiting-payment";
  /** What an order placed with it and not yet further along (status `placed`) is waiting for, in words. */
  placedStatus: string;
  instructions(order: OrderToPay, settings: PaymentSettings): PaymentInstructions;
}

const cashOnDelivery: PaymentMethod = {
  label: "Pay on delivery",
  startsAs: "placed",
  placedStatus: "Received: we are preparing it",
  instructions: (order) => ({
    paragraphs: [
      `Pay the courier ${formatAmount(order.totalCents, order.currency)} when your order arrives.`,
    ],
    details: [],
  }),
};

const bankTransfer: PaymentMethod = {
  label: "Bank transfer",
  startsAs: "placed",
  placedStatus: "Received: waiting for your transfer",
  instructions: (order, settings) => ({
    paragraphs: [
      `Transfer ${formatAmount(order.totalCents, order.currency)} to the account below, with your order number ${order.number} as the reference.`,
      "We send your order as soon as the payment arrives.",
    ],
    details: settings.bankDetails,
  }),
};

/** What the shopper reads for a card order: to pay it while it waits, that it is paid once it is. */
const card: PaymentMethod = {
  label: "Card",
  startsAs: "awaiting-payment",
  placedStatus: "Paid by card",
  instructions: (order, settings) => {
    if (order.status === "awaiting-payment") {
      const window = settings.cardWindow ? ` within ${settings.cardWindow} of ordering` : "";
      return {
        paragraphs: [
          `Pay ${formatAmount(order.totalCents, order.currency)} by card on Stripe's secure page: use the Pay by card button on your order's page.`,
          `An order not paid${window} is cancelled, and nothing is charged.`,
        ],
        details: [],
      };
    }
    if (order.status === "cancelled") {
      return {
        paragraphs: [
          "This order is cancelled: nothing is due for it. A card payment made for it is refunded to its card.",
        ],
        details: [],
      };
    }
    return { paragraphs: [`Paid by card: ${formatAmount(order.totalCents, order.currency)}.`], details: [] };
  },
};

const METHODS: Readonly<Record<string, PaymentMethod>> = {
  "cash-on-delivery": cashOnDelivery,
  "bank-transfer": bankTransfer,
  card,
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
