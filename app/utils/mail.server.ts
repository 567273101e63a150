import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { logger } from "./logger.server";
import { z } from "./zod";

/**
 * The shop's email: over SMTP (nodemailer) when SMTP_URL is set, otherwise
 * into a local outbox folder (DATA_DIR/outbox), one `.eml` file per message
 * (any mail program opens it) and a `.json` twin that the local demo's
 * /dev/outbox page lists. See docs/decisions/0024.
 *
 * Messages are sent in the background: the page that asked for one answers
 * at once, as fast whether or not a message went out, so no timing tells a
 * visitor whether an email has an account. A failed send is tried twice more
 * and then logged — without the address or the message, which hold a link
 * that signs someone in.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What kind of message it is, for the log ("password-reset"); never its content. */
  kind: string;
}

export interface Mailer {
  /** Where messages go: an SMTP server, or the local outbox folder. */
  transport: "smtp" | "outbox";
  /** Queues a message; it goes out in the background. */
  send(message: MailMessage): void;
  /** Resolves once every queued message has been sent or given up on (shutdown, tests). */
  settled(): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  /** SMTP_URL; null writes to the outbox. */
  smtpUrl: string | null;
  /** MAIL_FROM, e.g. "Backline <no-reply@shop.example.com>". */
  from: string;
  outboxDir: string;
  /** Waits between tries of a failed send, in ms. */
  retryDelays?: number[];
}

const RETRY_DELAYS_MS = [2_000, 10_000];

export function createMailer(options: MailerOptions): Mailer {
  const transport = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl, { from: options.from })
    : null;
  // The outbox's .eml is the very message SMTP would carry.
  const composer = nodemailer.createTransport(
    { streamTransport: true, buffer: true, newline: "unix" },
    { from: options.from },
  );
  const pending = new Set<Promise<void>>();
  const delays = options.retryDelays ?? RETRY_DELAYS_MS;

  const deliver = async (message: MailMessage) => {
    const { kind, ...fields } = message;
    if (!transport) {
      const { message: raw } = await composer.sendMail(fields);
      // buffer: true makes it a Buffer, never a stream.
      if (!Buffer.isBuffer(raw)) throw new Error("the composed message is not a buffer");
      await writeToOutbox(options.outboxDir, { ...fields, from: options.from }, raw);
      logger.info({ event: "mail.written", kind }, "email written to the outbox");
      return;
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await transport.sendMail(fields);
        logger.info({ event: "mail.sent", kind }, "email sent");
        return;
      } catch (error) {
        // An SMTP error's message often quotes the recipient: only its codes are logged.
        const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
        const permanent = typeof responseCode === "number" && responseCode >= 500;
        if (permanent || attempt >= delays.length) {
          logger.error({ event: "mail.failed", kind, code, responseCode }, "email could not be sent");
          return;
        }
        logger.warn({ event: "mail.retry", kind, code, responseCode }, "email not sent yet: trying again");
        await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
      }
    }
  };

  return {
    transport: transport ? "smtp" : "outbox",
    send(message) {
      const sending = deliver(message)
        .catch((error: unknown) => {
          logger.error(
            { event: "mail.failed", kind: message.kind, err: error },
            "email could not be written",
          );
        })
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    async settled() {
      while (pending.size > 0) await Promise.all(pending);
    },
    close() {
      transport?.close();
    },
  };
}

/** One message of the outbox, as the /dev/outbox page shows it. */
const outboxMessageSchema = z.object({
  id: z.string(),
  sentAt: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
});

export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

async function writeToOutbox(
  dir: string,
  message: { from: string; to: string; subject: string; text: string },
  raw: Buffer,
) {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const sentAt = new Date().toISOString();
  // Sortable by time, unique however many are written at once.
  const id = `${sentAt.replace(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}`;
  await fs.writeFile(path.join(dir, `${id}.eml`), raw, { mode: 0o600 });
  const entry: OutboxMessage = { id, sentAt, ...message };
  await fs.writeFile(path.join(dir, `${id}.json`), JSON.stringify(entry), { mode: 0o600 });
}

/** The outbox's newest messages first (at most `limit`); an outbox never written to is empty. */
export async function readOutbox(dir: string, limit = 50): Promise<OutboxMessage[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const newest = names
    .filter((name) => name.endsWith(".json"))
    .sort()
    .reverse()
    .slice(0, limit);
  const messages: OutboxMessage[] = [];
  for (const name of newest) {
    // A file being written or mangled by hand is passed over, not a failed page.
    const parsed = outboxMessageSchema.safeParse(
      await fs
        .readFile(path.join(dir, name), "utf8")
        .then((text) => JSON.parse(text) as unknown)
        .catch(() => null),
    );
    if (parsed.success) messages.push(parsed.data);
  }
  return messages;
}
