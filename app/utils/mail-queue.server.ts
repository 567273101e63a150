import { and, eq, inArray, lt, ne, sql } from "drizzle-orm";
import type { Database, Transaction } from "~/db/client.server";
import { fixedStatement } from "~/db/fixed-statement.server";
import { mailQueue } from "~/db/schema";
import { logFailure, logger } from "./logger.server";
import { deliveryFailure, type MailMessage, type MailTransport } from "./mail.server";

/**
 * The shop's outgoing email, kept in the database (`mail_queue`) until it is
 * sent, so that no crash, restart or SMTP outage loses a message
 * (docs/decisions/0025):
 *
 * - a message is written in the transaction of what causes it (a link's
 *   token and its email commit together, or neither does);
 * - every process runs a sender; a sender claims due messages with
 *   `FOR UPDATE SKIP LOCKED` and a lease (`locked_until`), so processes on
 *   one PostgreSQL never send one message twice, and one that dies while
 *   sending lets the next take it once the lease is over;
 * - the process that adds a message wakes its sender at once; every sender
 *   also looks again when the next retry falls due, and at least every poll
 *   interval (a restart's leftovers, another process's retries);
 * - a temporary failure (4xx, a timeout, no server) is tried again after a
 *   growing wait; a refusal for good (5xx) or too many tries marks it failed;
 *   a message whose link has expired is dropped, not sent;
 * - once sent, failed or expired, its recipient and text are erased (they
 *   hold a link that works), and the row itself goes after a week.
 *
 * The log names a message by its kind and the SMTP codes only, never its
 * recipient or text.
 */

export interface QueuedMessage extends MailMessage {
  /** When the message's link stops working: a message still waiting then is dropped, not sent. */
  expiresAt?: Date;
}

/** Adds a message to the transaction it was given to. */
type AddMessage = (message: QueuedMessage) => Promise<void>;

export interface MailQueue {
  /** Where messages go: an SMTP server, or the local outbox folder. */
  transport: MailTransport["kind"];
  /**
   * Runs `work` in one transaction; the messages it adds are written in that
   * transaction, and the sender is woken once it commits.
   */
  transaction<T>(work: (tx: Transaction, add: AddMessage) => Promise<T>): Promise<T>;
  /** Adds one message on its own, and wakes the sender. */
  send(message: QueuedMessage): Promise<void>;
  /** Starts this process's sender: what is due now, then on every wake and poll. */
  start(): void;
  /**
   * Stops the sender: the message being handed over finishes (a few seconds
   * at most), the others stay queued for the next process.
   */
  stop(): Promise<void>;
  /** Sends whatever is due now until nothing is (tests; the sender need not run). */
  flush(): Promise<void>;
}

export interface MailQueueOptions {
  db: Database;
  transport: MailTransport;
  /** The longest a sender waits before looking at the queue again. */
  pollMs?: number;
  /** Wait before the next try after n failures: baseMs × 2^(n−1), at most maxMs; failed after maxAttempts. */
  retry?: { baseMs: number; maxMs: number; maxAttempts: number };
  /** How long a claim on a message lasts: more than a send can take (mail.server.ts's SMTP timeouts). */
  leaseSeconds?: number;
}

const DEFAULT_RETRY = { baseMs: 5_000, maxMs: 15 * 60_000, maxAttempts: 12 };
/** Messages claimed at once by one sender. */
const BATCH = 10;
/** How long stop() waits for the message being handed over. */
const STOP_GRACE_MS = 5_000;
/** Sent, failed and expired rows (nothing personal left in them) are kept this long for the operator. */
const FINISHED_KEPT = sql`interval '7 days'`;
const SWEEP_EVERY_MS = 60 * 60_000;

type Writer = Database | Transaction;
type ClaimedMessage = Awaited<ReturnType<ReturnType<typeof queueTable>["claim"]>>[number];

/* The statements every order's email runs (written, claimed, marked sent), each built once (docs/decisions/0047). */
const insertMessage = fixedStatement<never, "kind" | "recipient" | "subject" | "text" | "html" | "expiresAt">(
  (value) => sql`
    insert into ${mailQueue} (kind, recipient, subject, text_body, html_body, expires_at)
    values (${value("kind")}, ${value("recipient")}, ${value("subject")}, ${value("text")}, ${value("html")},
            ${value("expiresAt")})`,
);

const claimDue = fixedStatement<
  {
    id: number;
    kind: string;
    to: string | null;
    subject: string | null;
    text: string | null;
    html: string | null;
    attempts: number;
    expired: boolean;
  },
  "leaseSeconds" | "batch"
>(
  (value) => sql`
    update ${mailQueue}
       set locked_until = now() + ${value("leaseSeconds")}::int * interval '1 second',
           attempts = ${mailQueue.attempts} + 1, updated_at = now()
     where ${mailQueue.id} in (
       select ${mailQueue.id} from ${mailQueue}
        where ${mailQueue.status} = 'pending' and ${mailQueue.nextAttemptAt} <= now()
          and (${mailQueue.lockedUntil} is null or ${mailQueue.lockedUntil} <= now())
        order by ${mailQueue.nextAttemptAt}, ${mailQueue.id}
        limit ${value("batch")}
        for update skip locked)
    returning ${mailQueue.id} as "id", ${mailQueue.kind} as "kind", ${mailQueue.recipient} as "to",
              ${mailQueue.subject} as "subject", ${mailQueue.textBody} as "text", ${mailQueue.htmlBody} as "html",
              ${mailQueue.attempts} as "attempts", coalesce(${mailQueue.expiresAt} <= now(), false) as "expired"`,
  { numbers: ["id"] },
);

/** Its outcome kept (and the last failure's code), its recipient and text erased. */
const finishMessage = fixedStatement<never, "id" | "status" | "lastError">(
  (value) => sql`
    update ${mailQueue}
       set status = ${value("status")}, last_error = coalesce(${value("lastError")}, ${mailQueue.lastError}),
           locked_until = null, recipient = null, subject = null, text_body = null, html_body = null,
           updated_at = now()
     where ${mailQueue.id} = ${value("id")}`,
);

const secondsToNextDue = fixedStatement<{ seconds: number | null }>(
  () => sql`
    select extract(epoch from min(greatest(${mailQueue.nextAttemptAt},
                                           coalesce(${mailQueue.lockedUntil}, ${mailQueue.nextAttemptAt}))) - now())::float8
           as "seconds"
      from ${mailQueue} where ${mailQueue.status} = 'pending'`,
);

/** The statements the sender runs on `mail_queue`; what is due is the database clock's call. */
function queueTable(db: Database, leaseSeconds: number) {
  return {
    insert: async (writer: Writer, message: QueuedMessage) => {
      await insertMessage(writer, {
        kind: message.kind,
        recipient: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        expiresAt: message.expiresAt?.toISOString() ?? null,
      });
    },

    /** Claims up to BATCH due messages for this sender (others skip them while they are locked, and after). */
    claim: () => claimDue(db, { leaseSeconds, batch: BATCH }),

    /** The message is done with: its outcome kept (and the last failure's code), its recipient and text erased. */
    finish: (id: number, status: "sent" | "failed" | "expired", lastError?: string) =>
      finishMessage(db, { id, status, lastError: lastError ?? null }),

    tryLater: (id: number, waitMs: number, lastError: string) =>
      db
        .update(mailQueue)
        .set({
          lockedUntil: null,
          nextAttemptAt: sql`now() + ${Math.round(waitMs)}::int * interval '1 millisecond'`,
          lastError,
          updatedAt: sql`now()`,
        })
        .where(eq(mailQueue.id, id)),

    /** Claimed but not tried (the sender is stopping): free at once, the try not counted. */
    release: (ids: number[]) =>
      db
        .update(mailQueue)
        .set({ lockedUntil: null, attempts: sql`${mailQueue.attempts} - 1` })
        .where(inArray(mailQueue.id, ids)),

    /** Finished rows (nothing personal left in them) older than a week. */
    sweep: () =>
      db
        .delete(mailQueue)
        .where(and(ne(mailQueue.status, "pending"), lt(mailQueue.updatedAt, sql`now() - ${FINISHED_KEPT}`))),

    /** Seconds until the next message falls due (a retry, or a dead sender's lease); null when none waits. */
    async secondsUntilNextDue(): Promise<number | null> {
      const [next] = await secondsToNextDue(db, {});
      return next?.seconds ?? null;
    },
  };
}

/** Hands one claimed message to the transport, and records what came of it. */
async function handOver(
  table: ReturnType<typeof queueTable>,
  transport: MailTransport,
  retry: NonNullable<MailQueueOptions["retry"]>,
  message: ClaimedMessage,
) {
  const { id, kind, attempts } = message;
  if (message.expired) {
    await table.finish(id, "expired");
    logger.warn(
      { event: "mail.expired", kind, attempts },
      "email dropped: its link expired before it could be sent",
    );
    return;
  }
  try {
    await transport.deliver({
      kind,
      to: message.to ?? "",
      subject: message.subject ?? "",
      text: message.text ?? "",
      html: message.html ?? "",
    });
  } catch (error) {
    const failure = deliveryFailure(error);
    if (failure.permanent || attempts >= retry.maxAttempts) {
      await table.finish(id, "failed", failure.code);
      logger.error(
        { event: "mail.failed", kind, code: failure.code, attempts },
        failure.permanent ? "email refused by the mail server: not sent" : "email could not be sent: gave up",
      );
      return;
    }
    // base × 2^(n−1), at most max, ±10 % so processes back from an outage do not all try at once.
    const waitMs =
      Math.min(retry.baseMs * 2 ** Math.max(0, attempts - 1), retry.maxMs) * (0.9 + Math.random() * 0.2);
    await table.tryLater(id, waitMs, failure.code);
    logger.warn(
      { event: "mail.retry", kind, code: failure.code, attempts, retryInSeconds: Math.ceil(waitMs / 1000) },
      "email not sent yet: trying again later",
    );
    return;
  }
  await table.finish(id, "sent");
  if (transport.kind === "smtp") logger.info({ event: "mail.sent", kind, attempts }, "email sent");
  else logger.info({ event: "mail.written", kind }, "email written to the outbox");
}

export function createMailQueue(options: MailQueueOptions): MailQueue {
  const { db, transport } = options;
  const pollMs = options.pollMs ?? 30_000;
  const retry = options.retry ?? DEFAULT_RETRY;
  const table = queueTable(db, options.leaseSeconds ?? 120);

  let started = false;
  let stopping = false;
  let wanted = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let lastSweep = 0;

  /** One look at the queue: claims what is due and hands it over, one message after the other. */
  const pass = async (): Promise<number> => {
    if (Date.now() - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = Date.now();
      await table.sweep();
    }
    const claimed = await table.claim();
    for (const [index, message] of claimed.entries()) {
      if (stopping) {
        await table.release(claimed.slice(index).map((left) => left.id));
        break;
      }
      await handOver(table, transport, retry, message);
    }
    return claimed.length;
  };

  const schedule = (ms: number) => {
    clearTimeout(timer);
    // Never sooner than 50 ms: a message due but held by another sender is not polled in a tight loop.
    timer = setTimeout(wake, Math.max(50, ms));
    timer.unref();
  };

  const runPasses = async () => {
    let nextLook = pollMs;
    try {
      while (wanted && !stopping) {
        wanted = false;
        // A full batch: there may be more due already.
        if ((await pass()) === BATCH) wanted = true;
      }
      const seconds = stopping ? null : await table.secondsUntilNextDue();
      if (seconds !== null) nextLook = Math.min(pollMs, Math.max(0, seconds * 1000));
    } catch (error) {
      // The database is away (the pool logs its outage once): look again soon.
      logFailure(error, "mail queue: could not read or update the queue; trying again later", {
        event: "mail.queue_unavailable",
      });
      nextLook = Math.min(pollMs, 5_000);
    }
    if (!stopping) schedule(nextLook);
  };

  function wake() {
    if (!started || stopping) return;
    wanted = true;
    if (running) return;
    clearTimeout(timer);
    running = runPasses().finally(() => {
      running = null;
      // Woken while finishing: look again now rather than at the scheduled time.
      if (wanted && !stopping) wake();
    });
  }

  return {
    transport: transport.kind,

    async transaction(work) {
      let added = 0;
      const result = await db.transaction((tx) =>
        work(tx, async (message) => {
          await table.insert(tx, message);
          added++;
        }),
      );
      if (added > 0) wake();
      return result;
    },

    async send(message) {
      await table.insert(db, message);
      wake();
    },

    start() {
      if (started) return;
      started = true;
      wake();
    },

    async stop() {
      if (!started || stopping) return;
      stopping = true;
      clearTimeout(timer);
      if (running) {
        let graceTimer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => {
          graceTimer = setTimeout(resolve, STOP_GRACE_MS);
        });
        await Promise.race([running, grace]);
        clearTimeout(graceTimer);
      }
      transport.close();
    },

    async flush() {
      while ((await pass()) > 0) {
        // Until a pass finds nothing due.
      }
    },
  };
}
