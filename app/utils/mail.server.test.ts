import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSmtpCapture } from "../../tests/support/smtp-capture";
import { createMailer, type MailMessage, readOutbox } from "./mail.server";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "backline-mail-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const message = (to: string): MailMessage => ({
  kind: "test",
  to,
  subject: "Hello from Backline",
  text: "Open http://localhost:3000/verify-email?token=abc",
  html: '<p>Open <a href="http://localhost:3000/verify-email?token=abc">the link</a></p>',
});

describe("the outbox (no SMTP_URL)", () => {
  it("writes each message as an .eml and a .json that only the shop's user may read, newest first", async () => {
    const outboxDir = path.join(work, "outbox");
    const mailer = createMailer({ smtpUrl: null, from: "Backline <no-reply@localhost>", outboxDir });
    expect(mailer.transport).toBe("outbox");
    mailer.send(message("first@example.com"));
    await mailer.settled();
    mailer.send(message("second@example.com"));
    await mailer.settled();

    const names = fs.readdirSync(outboxDir).sort();
    expect(names.filter((name) => name.endsWith(".eml"))).toHaveLength(2);
    expect(names.filter((name) => name.endsWith(".json"))).toHaveLength(2);
    const eml = fs.readFileSync(
      path.join(outboxDir, names.find((name) => name.endsWith(".eml")) ?? ""),
      "utf8",
    );
    expect(eml).toMatch(/^From: Backline <no-reply@localhost>$/m);
    expect(eml).toContain("Content-Type: multipart/alternative");
    expect(fs.statSync(outboxDir).mode & 0o777).toBe(0o700);
    for (const name of names) expect(fs.statSync(path.join(outboxDir, name)).mode & 0o777).toBe(0o600);

    const listed = await readOutbox(outboxDir);
    expect(listed.map((entry) => entry.to)).toEqual(["second@example.com", "first@example.com"]);
    expect(listed[0]).toMatchObject({
      subject: "Hello from Backline",
      from: "Backline <no-reply@localhost>",
    });
  });

  it("passes over a file it cannot read, and an outbox never written to is empty", async () => {
    const outboxDir = path.join(work, "mangled");
    fs.mkdirSync(outboxDir);
    fs.writeFileSync(path.join(outboxDir, "9999-broken.json"), "{ not json");
    fs.writeFileSync(path.join(outboxDir, "9998-wrong.json"), JSON.stringify({ to: 5 }));
    expect(await readOutbox(outboxDir)).toEqual([]);
    expect(await readOutbox(path.join(work, "never"))).toEqual([]);
  });
});

describe("SMTP", () => {
  it("sends a text and an HTML part to a real SMTP server", async () => {
    const smtp = await startSmtpCapture();
    const mailer = createMailer({
      smtpUrl: smtp.url,
      from: "Backline <hello@shop.example.com>",
      outboxDir: work,
    });
    expect(mailer.transport).toBe("smtp");
    mailer.send(message("ada@example.com"));
    const received = await smtp.nextEmail("ada@example.com", /^Hello from Backline$/);
    expect(received.text).toContain("verify-email?token=abc");
    expect(received.html).toContain('href="http://localhost:3000/verify-email?token=abc"');
    await mailer.settled();
    mailer.close();
    await smtp.close();
  });

  it("tries a temporary failure again, and gives up on a permanent one at once", async () => {
    const attempts = { later: 0, never: 0 };
    const smtp = await startSmtpCapture(undefined, {
      refuse: (to) => {
        if (to.startsWith("later")) return ++attempts.later === 1 ? 421 : null;
        if (to.startsWith("never")) {
          attempts.never += 1;
          return 550;
        }
        return null;
      },
    });
    const mailer = createMailer({
      smtpUrl: smtp.url,
      from: "Backline <hello@shop.example.com>",
      outboxDir: work,
      retryDelays: [10, 10],
    });
    mailer.send(message("later@example.com"));
    mailer.send(message("never@example.com"));
    await mailer.settled();
    expect(smtp.received.map((email) => email.to[0])).toEqual(["later@example.com"]);
    expect(attempts).toEqual({ later: 2, never: 1 });
    mailer.close();
    await smtp.close();
  });
});
