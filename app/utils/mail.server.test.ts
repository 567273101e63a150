import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSmtpCapture } from "../../tests/support/smtp-capture";
import { createMailTransport, deliveryFailure, type MailMessage, readOutbox } from "./mail.server";

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
    const transport = createMailTransport({
      smtpUrl: null,
      from: "Backline <no-reply@localhost>",
      outboxDir,
    });
    expect(transport.kind).toBe("outbox");
    await transport.deliver(message("first@example.com"));
    await transport.deliver(message("second@example.com"));

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
    const transport = createMailTransport({
      smtpUrl: smtp.url,
      from: "Backline <hello@shop.example.com>",
      outboxDir: work,
    });
    expect(transport.kind).toBe("smtp");
    await transport.deliver(message("ada@example.com"));
    const received = await smtp.nextEmail("ada@example.com", /^Hello from Backline$/);
    expect(received.text).toContain("verify-email?token=abc");
    expect(received.html).toContain('href="http://localhost:3000/verify-email?token=abc"');
    transport.close();
    await smtp.close();
  });

  it("tells a refusal for good (5xx) from one worth trying again (4xx, no server), by codes only", async () => {
    const smtp = await startSmtpCapture(undefined, {
      refuse: (to) => (to.startsWith("later") ? 421 : to.startsWith("never") ? 550 : null),
    });
    const transport = createMailTransport({ smtpUrl: smtp.url, from: "Backline <a@b.c>", outboxDir: work });
    const failureOf = (to: string) =>
      transport.deliver(message(to)).then(
        () => null,
        (error: unknown) => deliveryFailure(error),
      );
    expect(await failureOf("later@example.com")).toEqual({ permanent: false, code: "421" });
    expect(await failureOf("never@example.com")).toEqual({ permanent: true, code: "550" });
    transport.close();
    await smtp.close();
    const nobody = createMailTransport({ smtpUrl: smtp.url, from: "Backline <a@b.c>", outboxDir: work });
    expect(await nobody.deliver(message("ada@example.com")).catch(deliveryFailure)).toMatchObject({
      permanent: false,
    });
    nobody.close();
    // A refused login is the shop's configuration, not the message's fault: tried again later.
    expect(deliveryFailure(Object.assign(new Error("x"), { code: "EAUTH", responseCode: 535 }))).toEqual({
      permanent: false,
      code: "535",
    });
  });
});
