import { and, desc, ilike, lt, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { escapeLike } from "~/utils/sql-like";
import { z } from "~/utils/zod";

/**
 * /admin/activity: the audit log, newest first, 50 entries a page, by cursor
 * (`before`: the last id shown) so a long log pages in constant time.
 */
const ACTIVITY_PAGE_SIZE = 50;

export const activityQuerySchema = z.object({
  /** Entries older than this id. */
  before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  /** What the entries were done to, by its start: "product:42", "order:", "person:". */
  subject: z.string().trim().max(200).optional(),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

export interface ActivityEntry {
  id: number;
  at: string;
  who: string;
  action: string;
  subject: string;
  before: unknown;
  after: unknown;
}

export async function activityPage(
  db: Database,
  query: ActivityQuery,
): Promise<{ entries: ActivityEntry[]; olderBefore: number | null }> {
  const conditions: SQL[] = [];
  if (query.before) conditions.push(lt(auditLog.id, query.before));
  if (query.subject) conditions.push(ilike(auditLog.subject, `${escapeLike(query.subject)}%`));
  const rows = await db
    .select()
    .from(auditLog)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(ACTIVITY_PAGE_SIZE + 1);
  const shown = rows.slice(0, ACTIVITY_PAGE_SIZE);
  return {
    entries: shown.map((row) => ({
      id: row.id,
      at: row.createdAt.toISOString(),
      who: row.actorEmail,
      action: row.action,
      subject: row.subject,
      before: row.before,
      after: row.after,
    })),
    olderBefore: rows.length > ACTIVITY_PAGE_SIZE ? (shown.at(-1)?.id ?? null) : null,
  };
}
