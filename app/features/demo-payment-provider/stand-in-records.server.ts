import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { demoPaymentProviderRecords } from "~/db/schema";
import type { DemoLine, DemoSession } from "./stripe-shapes.server";

/** A Checkout session as the stand-in keeps it: the session, its lines (for its page), whether refunded. */
export interface SessionRecord {
  session: DemoSession;
  lines: DemoLine[];
  refunded: boolean;
}

export type RecordStore = ReturnType<typeof recordStore>;

/** The stand-in's records: one JSON value per key (demo_payment_provider_records). */
export function recordStore(db: Database) {
  const table = demoPaymentProviderRecords;
  return {
    async read<T>(key: string): Promise<T | null> {
      const [row] = await db.select({ payload: table.payload }).from(table).where(eq(table.key, key));
      return (row?.payload as T | undefined) ?? null;
    },
    async write(key: string, payload: unknown): Promise<void> {
      await db
        .insert(table)
        .values({ key, payload })
        .onConflictDoUpdate({ target: table.key, set: { payload } });
    },
    async remove(key: string): Promise<void> {
      await db.delete(table).where(eq(table.key, key));
    },
    /** True for the one request that claims the key first. */
    async claim(key: string): Promise<boolean> {
      const claimed = await db
        .insert(table)
        .values({ key, payload: { pending: true } })
        .onConflictDoNothing()
        .returning({ key: table.key });
      return claimed.length > 0;
    },
    /** Writes the session only if it is still open: of two payments at once, one wins. */
    async replaceIfOpen(key: string, payload: SessionRecord): Promise<boolean> {
      const replaced = await db
        .update(table)
        .set({ payload })
        .where(sql`${table.key} = ${key} and ${table.payload} -> 'session' ->> 'status' = 'open'`)
        .returning({ key: table.key });
      return replaced.length > 0;
    },
  };
}
