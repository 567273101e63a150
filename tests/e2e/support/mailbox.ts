import fs from "node:fs";
import path from "node:path";
import { MAILBOX_DIR } from "../../../playwright.config";
import type { ReceivedEmail } from "../../support/smtp-capture";
import { expect } from "./test";

/** Every email the e2e server has sent so far (serve.mjs writes each one the SMTP server receives). */
function received(): ReceivedEmail[] {
  const names = fs.existsSync(MAILBOX_DIR)
    ? fs.readdirSync(MAILBOX_DIR).filter((name) => name.endsWith(".json"))
    : [];
  return names.sort().map((name) => JSON.parse(fs.readFileSync(path.join(MAILBOX_DIR, name), "utf8")));
}

/**
 * The newest email to `to` whose subject matches, once it has arrived; with
 * `count`, waits until that many such emails have arrived.
 */
export async function emailTo(to: string, subject: RegExp, count = 1): Promise<ReceivedEmail> {
  const matching = () => received().filter((email) => email.to.includes(to) && subject.test(email.subject));
  await expect
    .poll(() => matching().length, { message: `an email to ${to} matching ${subject}` })
    .toBeGreaterThanOrEqual(count);
  const found = matching().at(-1);
  if (!found) throw new Error(`no email to ${to}`);
  return found;
}

/** The link in an email's text to this shop's `path`. */
export function linkTo(email: ReceivedEmail, pathPrefix: string): string {
  const link = email.text.match(/https?:\/\/\S+/g)?.find((url) => new URL(url).pathname === pathPrefix);
  if (!link) throw new Error(`no link to ${pathPrefix} in "${email.subject}"`);
  return link;
}
