import type { OrderStatus } from "~/commerce/order-states";
import { formatAmount } from "~/commerce/shop-money.server";
import { escapeHtml } from "~/utils/escape-html";
import type { QueuedMessage } from "~/utils/mail-queue.server";

/**
 * What the shopper is told when the back office moves their order on: paid,
 * shipped (with the tracking number when there is one) or cancelled. Written
 * in the transaction of the change (order-admin.server.ts), so the email
 * exists exactly when the change does. Text and HTML say the same; what the
 * staff typed (the tracking number) is only ever text in the HTML.
 */
const SHOP_NAME = "Backline";

export interface StatusChangeToTell {
  number: string;
  email: string;
  /** Whom the parcel is for, as the address names them. */
  name: string;
  totalCents: number;
  /** What its total is in (ISO 4217). */
  currency: string;
  to: Exclude<OrderStatus, "placed" | "awaiting-payment">;
  trackingNumber: string | null;
}

export interface EmailFacts {
  /** The order's signed page, absolute (BASE_URL): whoever holds it sees the order. */
  orderUrl: string;
}

function wordsFor(change: StatusChangeToTell): { subject: string; paragraphs: string[] } {
  switch (change.to) {
    case "paid":
      return {
        subject: `Your ${SHOP_NAME} order ${change.number} is paid`,
        paragraphs: [
          `We have your payment of ${formatAmount(change.totalCents, change.currency)} for order ${change.number}. Thank you.`,
        ],
      };
    case "shipped":
      return {
        subject: `Your ${SHOP_NAME} order ${change.number} is on its way`,
        paragraphs: [
          `Your order ${change.number} has left us and is on its way to you.`,
          change.trackingNumber
            ? `The carrier's tracking number is ${change.trackingNumber}.`
            : "The carrier gave no tracking number for it.",
        ],
      };
    case "cancelled":
      return {
        subject: `Your ${SHOP_NAME} order ${change.number} is cancelled`,
        paragraphs: [
          `We have cancelled your order ${change.number}. Nothing will be sent.`,
          "If you paid for it already, we will pay you back. Reply to this email with any question.",
        ],
      };
  }
}

/** A short email about an order: a greeting, what happened, and the order's signed link. */
export interface OrderNotice {
  /** What the queue and the log call it: "order-shipped", "order-refunded", … */
  kind: string;
  email: string;
  /** Whom the parcel is for, as the address names them. */
  name: string;
  subject: string;
  paragraphs: string[];
}

export function orderStatusEmail(change: StatusChangeToTell, facts: EmailFacts): QueuedMessage {
  return orderNoticeEmail(
    { kind: `order-${change.to}`, email: change.email, name: change.name, ...wordsFor(change) },
    facts,
  );
}

export function orderNoticeEmail(notice: OrderNotice, facts: EmailFacts): QueuedMessage {
  const { subject, paragraphs } = notice;
  const greeting = notice.name ? `Hello ${notice.name},` : "Hello,";
  const linkNote = "Keep this link to yourself: whoever has it can see your order.";
  const { origin } = new URL(facts.orderUrl);
  const signature = `${SHOP_NAME} · ${origin}`;

  const text = [
    greeting,
    ...paragraphs,
    `See your order: ${facts.orderUrl}`,
    linkNote,
    `— ${signature}`,
  ].join("\n\n");

  const paragraph = (line: string) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f8fafc;color:#0f172a;font:16px/1.5 system-ui,sans-serif">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<p style="margin:0 0 16px;font-weight:800;font-size:20px">${SHOP_NAME}</p>
${[greeting, ...paragraphs].map(paragraph).join("\n")}
<p style="margin:24px 0 16px"><a href="${escapeHtml(facts.orderUrl)}" style="display:inline-block;background:#4f46e5;color:#ffffff;padding:12px 20px;border-radius:8px;font-weight:600;text-decoration:none">See your order</a></p>
<p style="margin:0 0 16px;font-size:14px;color:#475569">Or open this address: ${escapeHtml(facts.orderUrl)}</p>
${paragraph(linkNote)}
<p style="margin:24px 0 0;font-size:14px;color:#475569">${escapeHtml(signature)}</p>
</div></body></html>`;
  return { kind: notice.kind, to: notice.email, subject, text, html };
}
