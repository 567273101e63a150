import { EventEmitter, once } from "node:events";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** An email as the test's SMTP server received it. */
export interface ReceivedEmail {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
}

export interface SmtpCapture {
  /** smtp://127.0.0.1:PORT, for the shop's SMTP_URL. */
  url: string;
  received: ReceivedEmail[];
  /** The next email to `to` whose subject matches (one already received counts), within `timeoutMs`. */
  nextEmail(
    to: string,
    subject: RegExp,
    options?: { after?: number; timeoutMs?: number },
  ): Promise<ReceivedEmail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on a free local port that keeps every
 * message it is sent, parsed (mailparser): the shop's mailer talks SMTP to it
 * exactly as to a provider's. `onEmail` sees each message as it arrives.
 */
export async function startSmtpCapture(
  onEmail?: (email: ReceivedEmail) => void,
  options: {
    /** An SMTP reply code (421: try later, 550: never) for a recipient to refuse, or null to accept. */
    refuse?: (to: string) => number | null;
  } = {},
): Promise<SmtpCapture> {
  const received: ReceivedEmail[] = [];
  const arrivals = new EventEmitter();
  // A test may wait for dozens of emails at once (one listener each), which is no leak.
  arrivals.setMaxListeners(0);
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on the loopback interface: no certificate to make.
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = options.refuse?.(address.address.toLowerCase()) ?? null;
      if (code === null) return callback();
      const refusal = Object.assign(new Error(`refused with ${code}`), { responseCode: code });
      callback(refusal);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const email: ReceivedEmail = {
            to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
            from: parsed.from?.text ?? "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
          };
          received.push(email);
          onEmail?.(email);
          arrivals.emit("email", email);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  const { port } = server.server.address() as AddressInfo;

  const matches = (email: ReceivedEmail, to: string, subject: RegExp) =>
    email.to.includes(to.toLowerCase()) && subject.test(email.subject);

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async nextEmail(to, subject, { after = 0, timeoutMs = 10_000 } = {}) {
      const already = received.slice(after).find((email) => matches(email, to, subject));
      if (already) return already;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          arrivals.off("email", listener);
          reject(new Error(`no email to ${to} matching ${subject} within ${timeoutMs} ms`));
        }, timeoutMs);
        const listener = (email: ReceivedEmail) => {
          if (!matches(email, to, subject)) return;
          clearTimeout(timer);
          arrivals.off("email", listener);
          resolve(email);
        };
        arrivals.on("email", listener);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in an email's text that starts with `base` (the shop's own links). */
export function linkIn(email: ReceivedEmail, base: string): string {
  const link = email.text.match(/https?:\/\/\S+/g)?.find((url) => url.startsWith(base));
  if (!link) throw new Error(`no link to ${base} in the email "${email.subject}"`);
  return link;
}
