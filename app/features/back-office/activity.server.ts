import { and, desc, ilike, inArray, lt, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog, orders, products } from "~/db/schema";
import { escapeLike } from "~/utils/sql-like";
import type { ActivityQuery } from "./activity-query";
import { sentenceOf } from "./activity-sentences.server";

/**
 * /admin/activity: the audit log, newest first, 50 entries a page, by cursor
 * (`before`: the last id shown) so a long log pages in constant time; each
 * entry as a sentence, and a search over the names each entry was written
 * with (docs/decisions/0029).
 */
const ACTIVITY_PAGE_SIZE = 50;
/** More words than this in one search are more likely a pasted paragraph than a look-up. */
const SEARCH_WORDS_MAX = 8;

export interface ActivityEntry {
  id: number;
  at: string;
  sentence: string;
  /** The back-office page of what was changed, while it exists. */
  href: string | null;
}

/** Every word must appear somewhere in an entry's names, in any case; `%` and `_` are themselves. */
function searchConditions(search: string | undefined): SQL[] {
  const words = (search ?? "").split(/\s+/).filter(Boolean).slice(0, SEARCH_WORDS_MAX);
  return words.map((word) => ilike(auditLog.searchText, `%${escapeLike(word)}%`));
}

/** The pages of the products and orders the entries name, for those still there (one query each). */
async function subjectPages(db: Database, subjects: string[]): Promise<Map<string, string>> {
  const keysOf = (kind: string) =>
    subjects
      .filter((subject) => subject.startsWith(`${kind}:`))
      .map((subject) => subject.slice(kind.length + 1));
  const productIds = keysOf("product")
    .filter((key) => /^\d{1,9}$/.test(key))
    .map(Number);
  const orderNumbers = keysOf("order");
  const [productRows, orderRows] = await Promise.all([
    productIds.length > 0
      ? db.select({ id: products.id }).from(products).where(inArray(products.id, productIds))
      : [],
    orderNumbers.length > 0
      ? db.select({ number: orders.number }).from(orders).where(inArray(orders.number, orderNumbers))
      : [],
  ]);
  return new Map([
    ...productRows.map(({ id }) => [`product:${id}`, `/admin/products/${id}`] as const),
    ...orderRows.map(({ number }) => [`order:${number}`, `/admin/orders/${number}`] as const),
  ]);
}

export async function activityPage(
  db: Database,
  query: ActivityQuery,
): Promise<{ entries: ActivityEntry[]; olderBefore: number | null }> {
  const conditions: SQL[] = searchConditions(query.search);
  if (query.before) conditions.push(lt(auditLog.id, query.before));
  const rows = await db
    .select()
    .from(auditLog)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(ACTIVITY_PAGE_SIZE + 1);
  const shown = rows.slice(0, ACTIVITY_PAGE_SIZE);
  const pages = await subjectPages(db, [...new Set(shown.map((row) => row.subject))]);
  return {
    entries: shown.map((row) => ({
      id: row.id,
      at: row.createdAt.toISOString(),
      sentence: sentenceOf({
        who: row.actorEmail,
        action: row.action,
        subject: row.subject,
        subjectName: row.subjectName,
        before: row.before,
        after: row.after,
      }),
      href: pages.get(row.subject) ?? null,
    })),
    olderBefore: rows.length > ACTIVITY_PAGE_SIZE ? (shown.at(-1)?.id ?? null) : null,
  };
}
