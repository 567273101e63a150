import type { Database } from "../../app/db/client.server";
import type { MailMessage } from "../../app/utils/mail.server";
import { createMailQueue, type MailQueue } from "../../app/utils/mail-queue.server";

/**
 * The shop's mail queue on a test database, with a transport that keeps
 * what it is handed instead of sending it, for tests of the services that
 * send email. The sender does not run: `delivered()` sends what is due and
 * resolves with every message handed over so far.
 */
export function recordingMail(db: Database): { queue: MailQueue; delivered(): Promise<MailMessage[]> } {
  const sent: MailMessage[] = [];
  const queue = createMailQueue({
    db,
    transport: {
      kind: "outbox",
      deliver: async (message) => {
        sent.push(message);
      },
      close: () => {},
    },
  });
  return {
    queue,
    async delivered() {
      await queue.flush();
      return sent;
    },
  };
}
