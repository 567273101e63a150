import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { z } from "./zod";

/**
 * How the shop's email leaves: over SMTP (nodemailer) when SMTP_URL is set,
 * otherwise into a local outbox folder (DATA_DIR/outbox), one `.eml` file per
 * message (any mail program opens it) and a `.json` twin that the local
 * demo's /dev/outbox page lists. Messages reach it through the durable queue
 * (mail-queue.server.ts), which decides when to try and what a failure means;
 * see docs/decisions/0024 and 0025.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What kind of message it is, for the log ("password-reset"); never its content. */
  kind: string;
}

export interface MailTransport {
  /** Where messages go: an SMTP server, or the local outbox folder. */
  kind: "smtp" | "outbox";
  /** Hands one message over: resolves once the SMTP server accepted it (or the file is written), throws otherwise. */
  deliver(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailTransportOptions {
  /** SMTP_URL; null writes to the outbox. */
  smtpUrl: string | null;
  /** MAIL_FROM, e.g. "Backline <no-reply@shop.example.com>". */
  from: string;
  outboxDir: string;
}

/**
 * An SMTP server that does not answer costs a send at most this long, well
 * within the queue's claim on the message (nodemailer would wait up to 2
 * minutes to connect and 10 minutes for a silent server).
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createMailTransport(options: MailTransportOptions): MailTransport {
  if (options.smtpUrl) {
    const smtp = nodemailer.createTransport(
      { url: options.smtpUrl, ...SMTP_TIMEOUTS },
      { from: options.from },
    );
    return {
      kind: "smtp",
      async deliver({ kind: _kind, ...fields }) {
        await smtp.sendMail(fields);
      },
      close: () => smtp.close(),
    };
  }
  // The outbox's .eml is the very message SMTP would carry.
  const composer = nodemailer.createTransport(
    { streamTransport: true, buffer: true, newline: "unix" },
    { from: options.from },
  );
  return {
    kind: "outbox",
    async deliver({ kind: _kind, ...fields }) {
      const { message: raw } = await composer.sendMail(fields);
      // buffer: true makes it a Buffer, never a stream.
      if (!Buffer.isBuffer(raw)) throw new Error("the composed message is not a buffer");
      await writeToOutbox(options.outboxDir, { ...fields, from: options.from }, raw);
    },
    close: () => {},
  };
}

/**
 * What a failed delivery means, from the SMTP error's codes alone (its text
 * often quotes the recipient): refused for good (a 5xx reply to the message
 * or its recipient), or worth another try later (the server busy or away,
 * a 4xx, a timeout — and a refused login, which is the shop's configuration
 * and not the message's fault).
 */
export function deliveryFailure(error: unknown): { permanent: boolean; code: string } {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const smtpCode = typeof responseCode === "number" ? responseCode : null;
  const permanent = smtpCode !== null && smtpCode >= 500 && smtpCode < 600 && code !== "EAUTH";
  const named = smtpCode !== null ? String(smtpCode) : typeof code === "string" ? code : "unknown";
  return { permanent, code: named.slice(0, 40) };
}

/** One message of the outbox, as the /dev/outbox page shows it. */
const outboxMessageSchema = z.object({
  id: z.string(),
  sentAt: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string({ multiline: true }),
});

export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

/** Each outbox folder made once per process, not once per message. */
const outboxes = new Map<string, Promise<unknown>>();
function outboxReady(dir: string): Promise<unknown> {
  let made = outboxes.get(dir);
  if (!made) {
    made = fs.mkdir(dir, { recursive: true, mode: 0o700 });
    // A failure is tried again with the next message (the folder removed meanwhile, say).
    made.catch(() => outboxes.delete(dir));
    outboxes.set(dir, made);
  }
  return made;
}

async function writeToOutbox(
  dir: string,
  message: { from: string; to: string; subject: string; text: string },
  raw: Buffer,
) {
  await outboxReady(dir);
  const sentAt = new Date().toISOString();
  // Sortable by time, unique however many are written at once.
  const id = `${sentAt.replace(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}`;
  const eml = path.join(dir, `${id}.eml`);
  await fs.writeFile(eml, raw, { mode: 0o600 }).catch(async (error: NodeJS.ErrnoException) => {
    // The folder was removed since it was made (someone emptied the outbox): made again.
    if (error.code !== "ENOENT") throw error;
    outboxes.delete(dir);
    await outboxReady(dir);
    await fs.writeFile(eml, raw, { mode: 0o600 });
  });
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
