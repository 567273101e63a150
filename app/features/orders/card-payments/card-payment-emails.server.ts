import { formatAmount } from "~/commerce/shop-money.server";
import type { QueuedMessage } from "~/utils/mail-queue.server";
import type { AddressSnapshot } from "../order-format";
import { orderPath } from "../order-link.server";
import { orderNoticeEmail } from "../order-status-email.server";

/**
 * What a card order's shopper is told besides its confirmation (which says
 * "Paid by card", order-email.server.ts): that it was cancelled because it
 * was not paid in time, that a payment came after it was cancelled and will
 * be refunded, and that a refund was made. Each is queued in the
 * transaction of what it tells.
 */

interface OrderToTell {
  number: string;
  email: string;
  shippingAddress: unknown;
  totalCents: number;
  /** What its amounts are in (ISO 4217). */
  currency: string;
}

interface Links {
  linkSecret: string;
  baseUrl: string;
}

function notice(order: OrderToTell, links: Links, kind: string, subject: string, paragraphs: string[]) {
  return orderNoticeEmail(
    {
      kind,
      email: order.email,
      name: (order.shippingAddress as AddressSnapshot).name,
      subject,
      paragraphs,
    },
    { orderUrl: new URL(orderPath(order.number, links.linkSecret), links.baseUrl).toString() },
  );
}

/**
 * Sent as a card order is placed: the shopper (a guest above all, whose only
 * way back is this link) can return to the order's page to pay, if Stripe's
 * tab was closed. Its confirmation follows once it is paid.
 */
export function awaitingCardPaymentEmail(order: OrderToTell, links: Links, window: string): QueuedMessage {
  return notice(
    order,
    links,
    "order-awaiting-payment",
    `Your Backline order ${order.number}: waiting for your card payment`,
    [
      `We have your order ${order.number} for ${formatAmount(order.totalCents, order.currency)}. It is not paid yet: to pay by card on Stripe's secure page, open your order and choose Pay by card.`,
      `An order not paid within ${window} is cancelled, and nothing is charged. Once it is paid, we send you its confirmation.`,
    ],
  );
}

export function notPaidInTimeEmail(order: OrderToTell, links: Links, window: string): QueuedMessage {
  return notice(order, links, "order-not-paid", `Your Backline order ${order.number} is cancelled`, [
    `Your order ${order.number} was not paid within ${window}, so we cancelled it and put its products back on our shelves. Nothing was charged.`,
    "You are welcome to order again at any time.",
  ]);
}

export function paidAfterCancellationEmail(order: OrderToTell, links: Links, amountCents: number) {
  return notice(
    order,
    links,
    "order-late-payment",
    `Your payment for Backline order ${order.number} will be refunded`,
    [
      `Your card payment of ${formatAmount(amountCents, order.currency)} reached us after your order ${order.number} had been cancelled, so nothing will be sent for it.`,
      "We will refund the whole payment to your card; you will get an email when we have.",
    ],
  );
}

export function paidTwiceEmail(order: OrderToTell, links: Links, amountCents: number) {
  return notice(
    order,
    links,
    "order-paid-twice",
    `A second payment for Backline order ${order.number} will be refunded`,
    [
      `Your order ${order.number} was already paid, and a second card payment of ${formatAmount(amountCents, order.currency)} reached us for it.`,
      "We will refund that second payment to your card; you will get an email when we have. Your order itself is not affected.",
    ],
  );
}

export function refundedEmail(order: OrderToTell, links: Links, amountCents: number): QueuedMessage {
  return notice(order, links, "order-refunded", `Your Backline order ${order.number}: refunded`, [
    `We have refunded ${formatAmount(amountCents, order.currency)} to your card for order ${order.number}.`,
    "Your bank may take 5 to 10 working days to show it on your statement.",
  ]);
}
