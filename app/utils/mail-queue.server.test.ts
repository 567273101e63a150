import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { migrateDatabase } from "~/db/migrate.server";
import { mailQueue } from "~/db/schema";
import { describeWhen, postgresServer } from "../../tests/support/requirements";
import { type SmtpCapture, startSmtpCapture } from "../../tests/support/smtp-capture";
import {
  createScratchPostgres,
  openTestDatabases,
  reportPostgresSkipped,
} from "../../tests/support/test-database";
import { logger } from "./logger.server";
import { createMailTransport, type MailMessage } from "./mail.server";
import { createMailQueue, type MailQueueOptions } from "./mail-queue.server";

const engines = await openTestDatabases();

const work = fs.mkdtempSync(path.join(os.tmpdir(), "backline-mail-queue-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const message = (to: string, kind = "test"): MailMessage => ({
  kind,
  to,
  subject: "Hello from Backline",
  text: "Open http://localhost:3000/verify-email?token=abc",
  html: '<p>Open <a href="http://localhost:3000/verify-email?token=abc">the link</a></p>',
});
const newAddress = (label: string) => `${label}-${randomBytes(4).toString("hex")}@example.com`;
const FAST_RETRY = { baseMs: 20, maxMs: 100, maxAttempts: 5 };

/** A queue sending to `smtp` over SMTP, quick to retry. */
function queueTo(smtp: SmtpCapture, db: MailQueueOptions["db"], options: Partial<MailQueueOptions> = {}) {
  const transport = createMailTransport({
    smtpUrl: smtp.url,
    from: "Backline <hello@shop.example>",
    outboxDir: work,
  });
  return createMailQueue({ db, transport, retry: FAST_RETRY, ...options });
}

const received = (smtp: SmtpCapture, to: string) => smtp.received.filter((email) => email.to.includes(to));

describe.each(engines)("the mail queue on $name", (engine) => {
  it("sends a message once the transaction that added it commits, and nothing of one that failed", async () => {
    const smtp = await startSmtpCapture();
    const queue = queueTo(smtp, engine.db);
    queue.start();
    try {
      const kept = newAddress("kept");
      const lost = newAddress("rolled-back");
      await queue.transaction(async (_tx, add) => add(message(kept)));
      await expect(
        queue.transaction(async (_tx, add) => {
          await add(message(lost));
          throw new Error("what caused the email failed");
        }),
      ).rejects.toThrow("what caused the email failed");
      // Sent in order: once a later message arrives, the rolled-back one would have too.
      const marker = newAddress("marker");
      await queue.send(message(marker));
      await smtp.nextEmail(kept, /Hello/);
      await smtp.nextEmail(marker, /Hello/);
      expect(received(smtp, lost)).toEqual([]);
      expect(received(smtp, kept)).toHaveLength(1);
    } finally {
      await queue.stop();
      await smtp.close();
    }
  });

  it("an SMTP server that refuses with 421 and then accepts gets the message once", async () => {
    const to = newAddress("busy");
    let refusals = 0;
    const smtp = await startSmtpCapture(undefined, {
      refuse: (recipient) => (recipient === to && ++refusals === 1 ? 421 : null),
    });
    const queue = queueTo(smtp, engine.db);
    queue.start();
    try {
      await queue.send(message(to, "busy-test"));
      await smtp.nextEmail(to, /Hello/);
      // Stopping waits for the sender to record what it did.
      await queue.stop();
      expect(refusals).toBe(2);
      expect(received(smtp, to)).toHaveLength(1);
      const rows = await engine.db.select().from(mailQueue).where(eq(mailQueue.kind, "busy-test"));
      expect(rows).toEqual([
        expect.objectContaining({
          status: "sent",
          attempts: 2,
          lastError: "421",
          recipient: null,
          textBody: null,
        }),
      ]);
    } finally {
      await queue.stop();
      await smtp.close();
    }
  });

  it("a 550 marks the message failed and erased, never tried again; the shopper can ask again", async () => {
    const to = newAddress("refused");
    let refusals = 0;
    const smtp = await startSmtpCapture(undefined, {
      refuse: (recipient) => {
        if (recipient !== to) return null;
        refusals++;
        return 550;
      },
    });
    const queue = queueTo(smtp, engine.db);
    try {
      await queue.send(message(to, "refused-test"));
      await queue.flush();
      await queue.flush();
      expect(refusals).toBe(1);
      const rows = await engine.db.select().from(mailQueue).where(eq(mailQueue.kind, "refused-test"));
      expect(rows).toEqual([
        expect.objectContaining({
          status: "failed",
          attempts: 1,
          lastError: "550",
          recipient: null,
          textBody: null,
        }),
      ]);
      // A new request is a new message, tried afresh.
      await queue.send(message(to, "refused-test"));
      await queue.flush();
      expect(refusals).toBe(2);
    } finally {
      await queue.stop();
      await smtp.close();
    }
  });

  it("drops a message whose link expired before it could be sent", async () => {
    const smtp = await startSmtpCapture();
    const queue = queueTo(smtp, engine.db);
    const to = newAddress("late");
    try {
      await queue.send({ ...message(to, "expired-test"), expiresAt: new Date(Date.now() - 1000) });
      await queue.flush();
      expect(received(smtp, to)).toEqual([]);
      const [row] = await engine.db.select().from(mailQueue).where(eq(mailQueue.kind, "expired-test"));
      expect(row).toMatchObject({ status: "expired", recipient: null, textBody: null });
    } finally {
      await smtp.close();
    }
  });

  it("a message a dead sender had claimed goes out once its claim lapses", async () => {
    const smtp = await startSmtpCapture();
    const to = newAddress("orphan");
    const queue = queueTo(smtp, engine.db);
    try {
      await queue.send(message(to, "orphan-test"));
      // As a sender that claimed it and died would leave it: claimed, tried once, its lease over.
      await engine.db
        .update(mailQueue)
        .set({ attempts: 1, lockedUntil: sql`now() - interval '1 second'` })
        .where(eq(mailQueue.kind, "orphan-test"));
      await queue.flush();
      expect(received(smtp, to)).toHaveLength(1);
    } finally {
      await queue.stop();
      await smtp.close();
    }
  });

  it("logs a message by its kind and codes, never its recipient or text", async () => {
    const lines: string[] = [];
    const spies = (["info", "warn", "error"] as const).map((level) =>
      vi.spyOn(logger, level).mockImplementation((...args: unknown[]) => {
        lines.push(JSON.stringify(args));
      }),
    );
    const to = newAddress("private");
    let refusals = 0;
    const smtp = await startSmtpCapture(undefined, {
      refuse: (recipient) => (recipient === to && ++refusals === 1 ? 451 : null),
    });
    const queue = queueTo(smtp, engine.db);
    queue.start();
    try {
      await queue.send(message(to, "private-test"));
      await smtp.nextEmail(to, /Hello/);
      await queue.stop();
      expect(lines.join("\n")).toContain("mail.retry");
      expect(lines.join("\n")).toContain("mail.sent");
      expect(lines.join("\n")).not.toContain(to);
      expect(lines.join("\n")).not.toContain("token=abc");
    } finally {
      for (const spy of spies) spy.mockRestore();
      await smtp.close();
    }
  });
});
reportPostgresSkipped("the mail queue on $name");

/**
 * The same database opened again after the first handle is gone: the embedded
 * database's folder reopened, or a second connection pool to PostgreSQL.
 */
const restartable = [
  {
    name: "PGlite",
    async open() {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-mail-restart-"));
      return {
        connect: () => openDatabase({ dataDir }),
        drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  },
  ...(postgresServer.met
    ? [
        {
          name: "PostgreSQL",
          async open() {
            const scratch = await createScratchPostgres();
            return {
              connect: () => openDatabase({ databaseUrl: scratch.url, poolSize: 4 }),
              drop: () => scratch.drop(),
            };
          },
        },
      ]
    : []),
];

describe.each(restartable)("a restart on $name", (engine) => {
  it("a message added by a process stopped before it was sent is sent by the next process, once", async () => {
    const smtp = await startSmtpCapture();
    const database = await engine.open();
    const to = newAddress("restart");
    let first: DatabaseHandle | undefined;
    let second: DatabaseHandle | undefined;
    try {
      first = await database.connect();
      await migrateDatabase(first);
      // The request's process wrote the message, and stopped before its sender ran.
      await queueTo(smtp, first.db).transaction(async (_tx, add) => add(message(to)));
      await first.close();

      second = await database.connect();
      const queue = queueTo(smtp, second.db);
      queue.start();
      await smtp.nextEmail(to, /Hello/);
      await queue.stop();
      expect(received(smtp, to)).toHaveLength(1);
    } finally {
      await second?.close();
      await smtp.close();
      await database.drop();
    }
  });
});

describeWhen([postgresServer], "two senders on one PostgreSQL", () => {
  it("send each message once", { timeout: 60_000 }, async () => {
    const smtp = await startSmtpCapture();
    const scratch = await createScratchPostgres();
    const handles = [
      await openDatabase({ databaseUrl: scratch.url, poolSize: 4 }),
      await openDatabase({ databaseUrl: scratch.url, poolSize: 4 }),
    ];
    try {
      await migrateDatabase(handles[0] as DatabaseHandle);
      const queues = handles.map((handle) => queueTo(smtp, handle.db));
      const recipients = Array.from({ length: 40 }, (_, index) => newAddress(`pair${index}`));
      // Written by both processes, half each, then both senders run at once.
      await Promise.all(recipients.map((to, index) => queues[index % 2]?.send(message(to))));
      for (const queue of queues) queue.start();
      await Promise.all(recipients.map((to) => smtp.nextEmail(to, /Hello/)));
      await Promise.all(queues.map((queue) => queue.flush()));
      for (const queue of queues) await queue.stop();
      expect(smtp.received).toHaveLength(40);
      for (const to of recipients) expect(received(smtp, to), to).toHaveLength(1);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
      await scratch.drop();
      await smtp.close();
    }
  });
});
