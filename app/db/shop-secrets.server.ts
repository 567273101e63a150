import { eq } from "drizzle-orm";
import type { Database } from "./client.server";
import { shopSecrets } from "./schema";

/**
 * A secret the shop generates for itself, shared by every process on the
 * same database: the first process to need it stores `generate()`'s value,
 * every later one (at the same moment or years later) reads that same value.
 */
export async function sharedSecret(db: Database, name: string, generate: () => string): Promise<string> {
  const read = async () =>
    (await db.select({ value: shopSecrets.value }).from(shopSecrets).where(eq(shopSecrets.name, name)))[0]
      ?.value;
  const existing = await read();
  if (existing !== undefined) return existing;
  // Two processes starting at once may both get here: the first insert wins
  // and both read the winner's value.
  await db.insert(shopSecrets).values({ name, value: generate() }).onConflictDoNothing();
  const stored = await read();
  if (stored === undefined) throw new Error(`the shop secret "${name}" could not be stored`);
  return stored;
}
