import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { migrateDatabase } from "~/db/migrate.server";
import { auditLog, users } from "~/db/schema";
import { temporaryDataDir } from "../support/shop-process";
import { testProcessFlags } from "../support/test-node-flags";

/**
 * `npm run owner:add -- <email>` on the embedded database: it makes the
 * account an owner (an audit entry says the command line did it), says so
 * when it already is, and says plainly when there is no such account.
 */
const dataDir = temporaryDataDir();
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function ownerAdd(...args: string[]) {
  const child = spawn(
    process.execPath,
    [...testProcessFlags(), "--import", "tsx", "scripts/owner-add.ts", ...args],
    {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const [code] = await once(child, "exit");
  return { code: code as number, stdout, stderr };
}

async function withDatabase<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<T>) {
  const database = await openDatabase({ dataDir, poolSize: 1 });
  try {
    await migrateDatabase(database);
    return await work(database.db);
  } finally {
    await database.close();
  }
}

describe("npm run owner:add", () => {
  it("says plainly that there is no account, and changes nothing", async () => {
    const run = await ownerAdd("nobody@example.com");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("There is no account with the email nobody@example.com");
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("makes an existing account an owner, once, as the command line", async () => {
    await withDatabase((db) =>
      db
        .insert(users)
        .values({ id: "owner-1", name: "Olive", email: "olive@example.com", emailVerified: true }),
    );

    const first = await ownerAdd("Olive@Example.com");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("olive@example.com is now an owner");
    const again = await ownerAdd("olive@example.com");
    expect(again.stdout).toContain("olive@example.com is already an owner");

    await withDatabase(async (db) => {
      const [olive] = await db.select({ role: users.role }).from(users).where(eq(users.id, "owner-1"));
      expect(olive?.role).toBe("owner");
      const entries = await db
        .select()
        .from(auditLog)
        .where(eq(auditLog.subject, "person:olive@example.com"));
      expect(entries).toEqual([
        expect.objectContaining({ actorId: null, actorEmail: "command line", after: { role: "owner" } }),
      ]);
    });
  });

  it("asks for one email", async () => {
    const run = await ownerAdd();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("usage: npm run owner:add -- <email>");
  });
});
