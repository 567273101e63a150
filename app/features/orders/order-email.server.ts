import { lineName } from "~/commerce/options-label";
import { formatAmount } from "~/commerce/shop-money.server";
import { escapeHtml } from "~/utils/escape-html";
import type { QueuedMessage } from "~/utils/mail-queue.server";
import { shippingMethodLabel, taxLabel } from "./order-format";
import { type PaymentSettings, paymentMethod } from "./payment-methods.server";
import type { OrderToConfirm } from "./place-order.server";
import { addressLines } from "./shipping-regions";

/**
 * The order's confirmation email, text and HTML saying the same: the lines,
 * the totals and taxes, where it goes, how to pay, and the
 * order's signed link. Unlike the account emails it quotes what the shopper
 * typed (the name and address): a confirmation that does not say where the
 * parcel goes is no confirmation. In the HTML part that text is only ever
 * text (escaped).
 */
const SHOP_NAME = "Backline";

interface EmailFacts {
  /** The order's signed page, absolute (BASE_URL): whoever holds it sees the order. */
  orderUrl: string;
  payment: PaymentSettings;
}

interface Section {
  title: string;
  lines: string[];
}

export function orderConfirmationEmail(order: OrderToConfirm, facts: EmailFacts): QueuedMessage {
  const method = paymentMethod(order.paymentMethod);
  const instructions = method.instructions(order, facts.payment);
  const lines = order.lines.map(
    (line) =>
      `${line.quantity} × ${lineName(line)} at ${formatAmount(line.unitPriceCents, order.currency)}: ${formatAmount(line.lineTotalCents, order.currency)}`,
  );
  const included = order.pricesIncludeTax;
  const taxes = order.taxes.map(
    (tax) => `${taxLabel(tax, included)}: ${formatAmount(tax.amount, order.currency)}`,
  );
  const totals = [
    `Subtotal: ${formatAmount(order.subtotalCents, order.currency)}`,
    `${shippingMethodLabel(order.shippingMethod, order.shippingMethodName)}: ${order.shippingCents === 0 ? "free" : formatAmount(order.shippingCents, order.currency)}`,
    ...(included ? [] : taxes),
    `Total: ${formatAmount(order.totalCents, order.currency)}`,
    ...(included ? taxes : []),
  ];
  const sections: Section[] = [
    { title: "Your order", lines: [...lines, "", ...totals] },
    { title: "Shipping to", lines: addressLines(order.shippingAddress) },
    { title: `Payment: ${method.label}`, lines: [...instructions.paragraphs, "", ...instructions.details] },
  ];
  // A card order is confirmed once Stripe says it is paid: its email says so from the subject on.
  const paid = order.status === "paid";
  const subject = paid
    ? `Your ${SHOP_NAME} order ${order.number}: paid by card`
    : `Your ${SHOP_NAME} order ${order.number}`;
  const intro = paid
    ? `Thank you for your order ${order.number}. We have your payment, and here is what you ordered.`
    : `Thank you for your order ${order.number}. We have it, and here is what you ordered.`;
  const linkNote = "Keep this link to yourself: whoever has it can see your order.";
  const { origin } = new URL(facts.orderUrl);
  const signature = `${SHOP_NAME} · ${origin}`;

  const text = [
    "Hello,",
    intro,
    ...sections.map((section) => [section.title, ...section.lines].join("\n").trimEnd()),
    `See your order: ${facts.orderUrl}`,
    linkNote,
    `— ${signature}`,
  ].join("\n\n");

  const paragraph = (line: string) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`;
  const block = (section: Section) =>
    `<h2 style="margin:24px 0 8px;font-size:18px">${escapeHtml(section.title)}</h2>
<p style="margin:0 0 16px">${section.lines.map((line) => (line ? escapeHtml(line) : "")).join("<br>")}</p>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f8fafc;color:#0f172a;font:16px/1.5 system-ui,sans-serif">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<p style="margin:0 0 16px;font-weight:800;font-size:20px">${SHOP_NAME}</p>
${paragraph("Hello,")}
${paragraph(intro)}
${sections.map(block).join("\n")}
<p style="margin:24px 0 16px"><a href="${escapeHtml(facts.orderUrl)}" style="display:inline-block;background:#4f46e5;color:#ffffff;padding:12px 20px;border-radius:8px;font-weight:600;text-decoration:none">See your order</a></p>
<p style="margin:0 0 16px;font-size:14px;color:#475569">Or open this address: ${escapeHtml(facts.orderUrl)}</p>
${paragraph(linkNote)}
<p style="margin:24px 0 0;font-size:14px;color:#475569">${escapeHtml(signature)}</p>
</div></body></html>`;
  return { kind: "order-confirmation", to: order.email, subject, text, html };
}
