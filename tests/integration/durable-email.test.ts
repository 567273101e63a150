import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieClient, signUp } from "../support/http-client";
import { enginesToRun, postgresServer } from "../support/requirements";
import { freePort, startShopProcess, temporaryDataDir } from "../support/shop-process";
import { linkIn, type SmtpCapture, startSmtpCapture } from "../support/smtp-capture";
import { createScratchPostgres, reportPostgresSkipped } from "../support/test-database";

/**
 * The account emails are written to the database's queue in the transaction
 * of what causes them, and sent from there (docs/decisions/0025): a shop
 * killed before an email went out leaves it to the next process, on the
 * embedded database and on PostgreSQL.
 */
const engines = [
  { name: "PGlite", database: async () => ({ env: {}, drop: async () => {} }) },
  ...(postgresServer.met
    ? [
        {
          name: "PostgreSQL",
          database: async () => {
            const scratch = await createScratchPostgres();
            return { env: { DATABASE_URL: scratch.url }, drop: () => scratch.drop() };
          },
        },
      ]
    : []),
];
reportPostgresSkipped("durable account emails on $name");

describe.each(enginesToRun(engines))("durable account emails on $name", (engine) => {
  let smtp: SmtpCapture;
  let dataDir: string;
  let database: { env: Record<string, string>; drop(): Promise<void> };
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    dataDir = temporaryDataDir();
    database = await engine.database();
  });
  afterAll(async () => {
    await smtp?.close();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ["killed (SIGKILL)", "SIGKILL"],
    ["stopped (SIGTERM)", "SIGTERM"],
  ] as const)(
    "an email the shop could not send before it was %s goes out, once, from the next process",
    {
      timeout: 120_000,
    },
    async (_how, signal) => {
      const env = { ...database.env, DATA_DIR: dataDir, SEED_DEMO_CATALOG: "0", LOG_LEVEL: "info" };
      // Nothing listens on this port: every send fails for now, as during an SMTP outage.
      const unreachable = `smtp://127.0.0.1:${await freePort()}`;
      const first = await startShopProcess({ ...env, SMTP_URL: unreachable });
      const email = `crash-${randomBytes(4).toString("hex")}@example.com`;
      const client = new CookieClient();
      expect((await signUp(client, first.url, email)).status).toBe(302);
      // It tried, and the SMTP server was not there…
      await first.waitForOutput(/"event":"mail\.retry"/);
      // …and then the process died, or was stopped: a stopped one stops its sender cleanly and exits 0.
      first.kill(signal);
      const code = await first.exited;
      if (signal === "SIGTERM") {
        expect(code).toBe(0);
        expect(first.output()).toContain('"msg":"stopped"');
        expect(first.output()).not.toContain("mail.queue_unavailable");
      }
      expect(first.output()).not.toContain(email);

      const second = await startShopProcess({ ...env, SMTP_URL: smtp.url });
      try {
        const confirmation = await smtp.nextEmail(email, /^Confirm your email for Backline$/, {
          timeoutMs: 60_000,
        });
        expect(linkIn(confirmation, `${first.url}/verify-email?token=`)).toBeTruthy();
        // Its next poll finds nothing more to send for this address.
        await second.waitForOutput(/"event":"mail\.sent"/);
        expect(smtp.received.filter((message) => message.to.includes(email))).toHaveLength(1);
        expect(second.output()).not.toContain(email);
      } finally {
        await second.stop();
      }
    },
  );
});
