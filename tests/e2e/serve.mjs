// Serves the production build for the end-to-end tests on a fresh embedded
// database, so every run starts from the demo catalogue and no users.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-e2e-"));
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "production";
process.env.LOG_LEVEL ??= "warn";
delete process.env.DATABASE_URL;
process.on("exit", () => fs.rmSync(dataDir, { recursive: true, force: true }));

// The shop's emails go over SMTP to a real SMTP server started here; each one
// it receives is written to E2E_MAILBOX_DIR, where the tests read it.
const mailbox = process.env.E2E_MAILBOX_DIR;
if (mailbox) {
  fs.rmSync(mailbox, { recursive: true, force: true });
  fs.mkdirSync(mailbox, { recursive: true });
  const { startSmtpCapture } = await import("../support/smtp-capture.ts");
  let received = 0;
  const smtp = await startSmtpCapture((email) => {
    received += 1;
    const name = `${String(received).padStart(6, "0")}.json`;
    fs.writeFileSync(path.join(mailbox, `${name}.part`), JSON.stringify(email));
    fs.renameSync(path.join(mailbox, `${name}.part`), path.join(mailbox, name));
  });
  process.env.SMTP_URL = smtp.url;
}
await import(pathToFileURL(path.resolve(process.env.BUILD_DIR ?? "build", "server/index.js")).href);
