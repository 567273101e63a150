import type { Database, Transaction } from "~/db/client.server";
import { auditLog } from "~/db/schema";

/**
 * The back office's audit log (docs/decisions/0029): every change made there
 * is written with who made it, what it changed, the values before and after,
 * and when — in the transaction of the change, so neither exists without the
 * other. Any feature whose service the back office calls writes through here.
 */

/** Who made a change: a signed-in owner or staff member, or the command line (`actorId` null). */
export interface Actor {
  id: string | null;
  email: string;
  name: string;
}

/** The command line (`npm run owner:add`, an import run in a terminal) as the audit log names it. */
export const COMMAND_LINE: Actor = { id: null, email: "command line", name: "Command line" };

export interface Change {
  /** What was done, in the shop's words: "product.updated", "order.shipped", "person.role-changed". */
  action: string;
  /** What it was done to: "product:42", "order:BL-7Q4K9", "person:ada@example.com", "settings". */
  subject: string;
  /**
   * What the subject is called now, as the entry will say it for good: "Steel kettle (SKU KT-1)",
   * "order BL-7Q4K9", "Ada (ada@example.com)". Written with the change, so a rename or a
   * deletion later does not change what the entry said (docs/decisions/0029).
   */
  subjectName: string;
  /** Other names the entry can be found by: a product's old name, the products an order put back. */
  names?: string[];
  before?: unknown;
  after?: unknown;
}

/** How the log names a product: its name and its SKU, the two an owner searches by. */
export function productName(product: { name: string; sku: string }): string {
  return `${product.name} (SKU ${product.sku})`;
}

/** Writes one entry, inside the caller's transaction. */
export async function recordChange(tx: Transaction | Database, actor: Actor, change: Change): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: change.action,
    subject: change.subject,
    subjectName: change.subjectName,
    searchText: [actor.email, change.subjectName, change.subject, ...(change.names ?? [])].join("\n"),
    before: change.before ?? null,
    after: change.after ?? null,
  });
}

/**
 * The fields of `before` whose values `after` changes, each side with just
 * those: what an entry keeps of an edit ("price: 12.50 → 9.99"), not two
 * whole copies of the product. Null when nothing changed.
 */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): { before: Partial<T>; after: Partial<T> } | null {
  const was: Partial<T> = {};
  const now: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (after[key] === undefined) continue;
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    was[key] = before[key];
    now[key] = after[key];
  }
  return Object.keys(now).length > 0 ? { before: was, after: now } : null;
}
