import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { migrateDatabase } from "~/db/migrate.server";
import { orderDocuments } from "~/db/schema";
import { bareOrders } from "../support/bare-orders";
import { describeWhen, postgresServer } from "../support/requirements";
import { createScratchPostgres, type ScratchPostgres } from "../support/test-database";
import { testProcessFlags } from "../support/test-node-flags";

/**
 * Gapless invoice numbers across processes (issue 35): three processes issue
 * invoices for 200 orders at once on one PostgreSQL database; one of them is
 * killed while its transaction holds a number. The numbers issued are 1..200
 * exactly, and the killed one's order has none.
 */
let scratch: ScratchPostgres | undefined;
let handle: DatabaseHandle | undefined;
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await handle?.close();
  await scratch?.drop();
});

const YEAR = 2104;

interface Issuer {
  child: ChildProcess;
  output: () => string;
  /**
   * Its exit code once it has ended and its output is all read: listened for
   * from the start, so an issuer that ends while the test awaits another is not missed.
   */
  ended: Promise<number | null>;
}

function issuer(env: Record<string, string>): Issuer {
  const child = spawn(
    process.execPath,
    [...testProcessFlags(), "--import", "tsx", "tests/support/invoice-issuer.ts"],
    {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "warn", YEAR: String(YEAR), ...env },
    },
  );
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const ended = once(child, "close").then(([code]) => code as number | null);
  return { child, output: () => output, ended };
}

/** Resolves once the issuer has said `text`: each chunk it writes is looked at; its end without it throws. */
async function untilSaid({ child, output, ended }: Issuer, text: string): Promise<void> {
  while (!output().includes(text)) {
    // Set once it has exited, before `ended` resolves (on "close").
    if (child.exitCode !== null)
      throw new Error(`the issuer ended (${child.exitCode}) without saying ${text}: ${output()}`);
    await Promise.race([once(child.stdout as NodeJS.ReadableStream, "data"), ended]);
  }
}

describeWhen([postgresServer], "invoice numbers across three processes on PostgreSQL", () => {
  it("issues 1..200 with no gap or repeat when one process is killed holding a number", async () => {
    scratch = await createScratchPostgres();
    handle = await openDatabase({ databaseUrl: scratch.url, poolSize: 4 });
    await migrateDatabase(handle);
    const db = handle.db;
    const ids = await bareOrders(db, 201);
    const held = ids[200] as number;

    // The first process issues 20, then takes a number and holds it.
    const holder = issuer({
      DATABASE_URL: scratch.url,
      ORDER_IDS: JSON.stringify(ids.slice(0, 20)),
      HOLD_ORDER: String(held),
    });
    await untilSaid(holder, "holding 2104-000021");
    // The two others start: their first invoice waits for the held number's row.
    const others = [ids.slice(20, 110), ids.slice(110, 200)].map((slice) =>
      issuer({ DATABASE_URL: scratch?.url as string, ORDER_IDS: JSON.stringify(slice) }),
    );
    for (;;) {
      const result = await db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      const [waiting] = (result as unknown as { rows: { n: number }[] }).rows;
      if ((waiting?.n ?? 0) >= 1) break;
      // An issuer that ended before it waited would leave this loop waiting for ever: say why instead.
      for (const other of others) {
        if (other.child.exitCode !== null) throw new Error(`an issuer ended early: ${other.output()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    holder.child.kill("SIGKILL");
    for (const other of others) {
      expect(await other.ended, other.output()).toBe(0);
      expect(other.output()).toContain("done");
    }

    const issued = await db
      .select({ orderId: orderDocuments.orderId, sequence: orderDocuments.sequence })
      .from(orderDocuments)
      .where(and(eq(orderDocuments.year, YEAR), eq(orderDocuments.series, "invoice")));
    expect(issued.map((row) => row.sequence).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 200 }, (_, at) => at + 1),
    );
    expect(new Set(issued.map((row) => row.orderId)).size).toBe(200);
    expect(issued.some((row) => row.orderId === held)).toBe(false);
  });
});
