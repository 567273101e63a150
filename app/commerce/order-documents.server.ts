import { and, asc, eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "~/db/client.server";
import { documentCounters, orderDocuments } from "~/db/schema";
import type { OrderStatus } from "./order-states";

/**
 * An order's invoice and credit note, numbered without gaps (issue 35,
 * docs/decisions/0049). Issued inside the transaction that changes the
 * order's status — the staff's "mark paid", Stripe's payment, a cancellation
 * or refund — so a document exists exactly when its change does, and a
 * number is taken only by a transaction that commits.
 */

type Series = "invoice" | "credit-note";

export interface OrderDocument {
  number: string;
  issuedAt: Date;
}

/** "2026-000042", "CN-2026-000007": the year, then the place in it, six digits (more past a million). */
export function documentNumber(series: Series, year: number, sequence: number): string {
  const text = `${year}-${String(sequence).padStart(6, "0")}`;
  return series === "credit-note" ? `CN-${text}` : text;
}

/**
 * The next number of `series` in `year`: the counter row is written (made at
 * the year's first) and stays locked until the transaction ends, so a
 * concurrent issuer waits for it and takes the one after; a rollback gives
 * the number back.
 */
async function nextSequence(tx: Transaction, series: Series, year: number): Promise<number> {
  const [row] = await tx
    .insert(documentCounters)
    .values({ series, year, last: 1 })
    .onConflictDoUpdate({
      target: [documentCounters.series, documentCounters.year],
      set: { last: sql`${documentCounters.last} + 1` },
    })
    .returning({ last: documentCounters.last });
  return (row as { last: number }).last;
}

async function documentOf(tx: Transaction, orderId: number, series: Series) {
  const [row] = await tx
    .select({ number: orderDocuments.number, issuedAt: orderDocuments.issuedAt })
    .from(orderDocuments)
    .where(and(eq(orderDocuments.orderId, orderId), eq(orderDocuments.series, series)));
  return row;
}

async function issue(
  tx: Transaction,
  orderId: number,
  series: Series,
  at: Date,
  creditsNumber: string | null,
): Promise<OrderDocument> {
  // The year the document is dated in, as the calendar in UTC reads it.
  const year = at.getUTCFullYear();
  const sequence = await nextSequence(tx, series, year);
  const number = documentNumber(series, year, sequence);
  await tx
    .insert(orderDocuments)
    .values({ orderId, series, year, sequence, number, creditsNumber, issuedAt: at });
  return { number, issuedAt: at };
}

/**
 * The order's invoice: issued now, or the one it has. The caller holds the
 * order's row lock (every status change does), so two issuers of one order
 * never both find none.
 */
export async function invoiceOrder(
  tx: Transaction,
  orderId: number,
  at = new Date(),
): Promise<OrderDocument> {
  return (await documentOf(tx, orderId, "invoice")) ?? issue(tx, orderId, "invoice", at, null);
}

/**
 * The credit note cancelling the order's invoice: issued now, or the one it
 * has; null for an order never invoiced (nothing to cancel).
 */
export async function creditOrder(
  tx: Transaction,
  orderId: number,
  at = new Date(),
): Promise<OrderDocument | null> {
  const invoice = await documentOf(tx, orderId, "invoice");
  if (!invoice) return null;
  return (
    (await documentOf(tx, orderId, "credit-note")) ?? issue(tx, orderId, "credit-note", at, invoice.number)
  );
}

/**
 * The documents a status change issues, in its transaction: paid, an invoice;
 * cancelled (by staff, a refund), the credit note of an invoiced order.
 */
export async function documentsForStatus(tx: Transaction, orderId: number, to: OrderStatus): Promise<void> {
  if (to === "paid") await invoiceOrder(tx, orderId);
  else if (to === "cancelled") await creditOrder(tx, orderId);
}

/** The order's documents as the back office lists them: "Invoice 2026-000001", "Credit note CN-…". */
export async function orderDocumentsOf(db: Pick<Database, "select">, orderId: number) {
  const rows = await db
    .select({
      series: orderDocuments.series,
      number: orderDocuments.number,
      issuedAt: orderDocuments.issuedAt,
    })
    .from(orderDocuments)
    .where(eq(orderDocuments.orderId, orderId))
    .orderBy(asc(orderDocuments.id));
  return rows.map((row) => ({
    kind: row.series === "invoice" ? ("Invoice" as const) : ("Credit note" as const),
    number: row.number,
    issuedAt: row.issuedAt.toISOString(),
  }));
}
