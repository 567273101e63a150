import { formatAmount } from "~/commerce/shop-money.server";
import { escapeHtml } from "~/utils/escape-html";
import type { DemoLine, DemoSession } from "./stripe-shapes.server";

/**
 * The stand-in's payment page: what Stripe's hosted Checkout page is to a
 * real shop, saying plainly that it stands in for Stripe and takes no card,
 * with the order's lines and total and two buttons, Pay and Cancel. Plain
 * HTML that works without JavaScript, readable at 320 px, its text and
 * buttons above WCAG AA contrast.
 */

const STYLE = `*{box-sizing:border-box}body{font-family:system-ui,sans-serif;margin:0;background:#f1f5f9;color:#0f172a;line-height:1.5}
main{max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #94a3b8;border-radius:.75rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}h2{font-size:1.125rem;margin:1.5rem 0 .5rem}
.note{background:#fef3c7;border:1px solid #92400e;border-radius:.5rem;padding:.75rem;margin:0 0 1rem}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:.375rem 0;border-bottom:1px solid #cbd5e1;vertical-align:top;overflow-wrap:anywhere}
td.amount,th.amount{text-align:right;padding-left:.75rem;white-space:nowrap}
.total{font-size:1.25rem;font-weight:700;margin:1rem 0}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.5rem}
button{font:inherit;font-weight:600;padding:.7rem 1.25rem;border-radius:.5rem;cursor:pointer;border:2px solid #1e3a8a}
button.pay{background:#1d4ed8;color:#fff}button.cancel{background:#fff;color:#1e3a8a}
button:focus-visible,a:focus-visible{outline:3px solid #b45309;outline-offset:2px}
a{color:#1d4ed8}.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

const standsIn = `<p class="note"><strong>Demo:</strong> this page stands in for Stripe's payment page in Backline's local demo and tests. It asks for no card and no money moves.</p>`;

export function paymentPage(session: DemoSession, lines: DemoLine[], formAction: string): string {
  // Stripe writes a currency in small letters.
  const formatCents = (minor: number) => formatAmount(minor, session.currency.toUpperCase());
  const total = formatCents(session.amount_total);
  const rows = lines
    .map(
      (line) =>
        `<tr><td>${escapeHtml(line.name)}${line.quantity > 1 ? ` × ${line.quantity}` : ""}</td><td class="amount">${formatCents(line.unitAmount * line.quantity)}</td></tr>`,
    )
    .join("");
  const order = session.client_reference_id ? ` for order ${escapeHtml(session.client_reference_id)}` : "";
  return page(
    `Pay ${total}${order} – Stand-in for Stripe Checkout`,
    `${standsIn}<h1>Stand-in for Stripe Checkout</h1>
<p>Pay Backline ${escapeHtml(total)}${order}.</p>
<h2>What you pay for</h2>
<table><caption class="sr-only">The order's lines</caption><thead><tr><th scope="col">Item</th><th scope="col" class="amount">Amount</th></tr></thead><tbody>${rows}</tbody></table>
<p class="total">Total: ${escapeHtml(total)}</p>
<form method="post" action="${escapeHtml(formAction)}"><div class="actions">
<button class="pay" type="submit" name="action" value="pay">Pay ${escapeHtml(total)}</button>
<button class="cancel" type="submit" name="action" value="cancel">Cancel and go back to the shop</button>
</div></form>`,
  );
}

/** A session that can no longer be paid: paid already, or expired. */
export function closedPage(session: DemoSession): string {
  const paid = session.status === "complete";
  const back = paid ? session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id) : session.cancel_url;
  const title = paid ? "This payment is done" : "This payment page has expired";
  return page(
    `${title} – Stand-in for Stripe Checkout`,
    `${standsIn}<h1>${title}</h1>
<p>${paid ? "This order is paid already." : "It can no longer be paid here. Go back to the shop to pay again."}</p>
${back ? `<p><a href="${escapeHtml(back)}">Back to the shop</a></p>` : ""}`,
  );
}

export function notFoundPage(): string {
  return page(
    "No such payment – Stand-in for Stripe Checkout",
    `${standsIn}<h1>No such payment</h1><p>This address names no payment page.</p>`,
  );
}
