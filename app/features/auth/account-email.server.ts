import { SHOP_CONTACT } from "~/components/layout/site-footer";
import { escapeHtml } from "~/utils/escape-html";
import type { MailMessage } from "~/utils/mail.server";

/**
 * The account emails, each with a plain-text and an HTML part that say the
 * same: which shop sent it, why, the link, how long it works, and what to do
 * if the shopper did not ask for it. Links are the shop's own pages, which
 * ask for a click before anything changes (a mail scanner that opens every
 * link must not use one up). They never quote what a shopper typed (a
 * name): the address may not be theirs, and the shop's email must not carry
 * a stranger's words to it.
 */
const SHOP_NAME = "Backline";

interface Email {
  kind: string;
  subject: string;
  /** Paragraphs before the link. */
  intro: string[];
  action: { label: string; url: string };
  /** Paragraphs after the link. */
  outro: string[];
}

/** Minutes or hours, as a person says them. */
function validity(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} minutes`;
  return `${Math.round(minutes / 60)} hours`;
}

export function emailVerificationMessage(
  to: { name: string; email: string },
  url: string,
  expiresIn: number,
) {
  return compose(to.email, {
    kind: "email-verification",
    subject: `Confirm your email for ${SHOP_NAME}`,
    intro: ["Hello,", `please confirm that ${to.email} is your email address for your ${SHOP_NAME} account.`],
    action: { label: "Confirm my email", url },
    outro: [
      `The link works once, for ${validity(expiresIn)}.`,
      `If you did not create a ${SHOP_NAME} account, ignore this email: nothing happens without the link.`,
    ],
  });
}

export function passwordResetMessage(to: { email: string }, url: string, expiresIn: number) {
  return compose(to.email, {
    kind: "password-reset",
    subject: `Reset your ${SHOP_NAME} password`,
    intro: [
      "Hello,",
      `someone (we hope you) asked to reset the password of the ${SHOP_NAME} account for ${to.email}.`,
    ],
    action: { label: "Choose a new password", url },
    outro: [
      `The link works once, for ${validity(expiresIn)}. Choosing a new password signs you out everywhere else.`,
      "If you did not ask for this, ignore this email: your password stays as it is.",
    ],
  });
}

export function emailChangeMessage(to: { email: string }, url: string, expiresIn: number) {
  return compose(to.email, {
    kind: "email-change",
    subject: `Confirm your new email for ${SHOP_NAME}`,
    intro: [
      "Hello,",
      `you asked to make ${to.email} the email of your ${SHOP_NAME} account. It changes when you confirm it here.`,
    ],
    action: { label: "Make this my email", url },
    outro: [
      `The link works once, for ${validity(expiresIn)}.`,
      `If you did not ask for this, ignore this email: nothing changes without the link.`,
    ],
  });
}

/** To the old address, after an email change: it is told, and where to turn if it was not them. */
export function emailChangedNotice(oldEmail: string, newEmail: string, baseUrl: string): MailMessage {
  return compose(oldEmail, {
    kind: "email-changed",
    subject: `The email of your ${SHOP_NAME} account has changed`,
    intro: ["Hello,", `the email of the ${SHOP_NAME} account that used ${oldEmail} is now ${newEmail}.`],
    action: { label: "Visit the shop", url: baseUrl },
    outro: [
      `If you did not make this change, reply to this email or write to ${SHOP_CONTACT.email}, and we will help you get your account back.`,
    ],
  });
}

function compose(to: string, email: Email): MailMessage {
  const { origin } = new URL(email.action.url);
  const signature = `${SHOP_NAME} · ${origin}`;
  const text = [
    ...email.intro,
    `${email.action.label}: ${email.action.url}`,
    ...email.outro,
    `— ${signature}`,
  ].join("\n\n");
  const paragraph = (line: string) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(email.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f8fafc;color:#0f172a;font:16px/1.5 system-ui,sans-serif">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<p style="margin:0 0 16px;font-weight:800;font-size:20px">${SHOP_NAME}</p>
${email.intro.map(paragraph).join("\n")}
<p style="margin:0 0 16px"><a href="${escapeHtml(email.action.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;padding:12px 20px;border-radius:8px;font-weight:600;text-decoration:none">${escapeHtml(email.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:14px;color:#475569">Or open this address: ${escapeHtml(email.action.url)}</p>
${email.outro.map(paragraph).join("\n")}
<p style="margin:24px 0 0;font-size:14px;color:#475569">${escapeHtml(signature)}</p>
</div></body></html>`;
  return { kind: email.kind, to, subject: email.subject, text, html };
}
