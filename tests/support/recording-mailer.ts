import type { Mailer, MailMessage } from "../../app/utils/mail.server";

/** A mailer that keeps what it is asked to send, for tests of the services that send email. */
export function recordingMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    transport: "outbox",
    sent,
    send: (message) => {
      sent.push(message);
    },
    settled: async () => {},
    close: () => {},
  };
}
