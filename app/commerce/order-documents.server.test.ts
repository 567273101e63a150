import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderDocuments } from "~/db/schema";
import { bareOrders } from "../../tests/support/bare-orders";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { creditOrder, documentNumber, invoiceOrder } from "./order-documents.server";

/**
 * Invoices and credit notes (issue 35): each series numbered 1, 2, 3, … per
 * year, no gap and no repeat — however many are issued at once, and when a
 * transaction that took a number fails. Each test dates its documents in a
 * year of its own, so its series starts at 1.
 */
const engines = await openTestDatabases();

describe.each(engines)("an order's invoice and credit note on $name", (engine: TestDatabase) => {
  const { db } = engine;
  const sequences = async (year: number, series: "invoice" | "credit-note") =>
    (
      await db
        .select({ sequence: orderDocuments.sequence })
        .from(orderDocuments)
        .where(and(eq(orderDocuments.year, year), eq(orderDocuments.series, series)))
    )
      .map((row) => row.sequence)
      .sort((a, b) => a - b);

  it("numbers invoices in order, gives an order the one it has, and credits only an invoiced order", async () => {
    const at = new Date("2101-03-01T12:00:00Z");
    const [first, second, never] = (await bareOrders(db, 3)) as [number, number, number];
    const invoice = await db.transaction((tx) => invoiceOrder(tx, first, at));
    expect(invoice.number).toBe("2101-000001");
    expect((await db.transaction((tx) => invoiceOrder(tx, second, at))).number).toBe("2101-000002");
    expect((await db.transaction((tx) => invoiceOrder(tx, first, at))).number).toBe("2101-000001");

    expect(await db.transaction((tx) => creditOrder(tx, never, at))).toBeNull();
    const credit = await db.transaction((tx) => creditOrder(tx, first, at));
    expect(credit?.number).toBe("CN-2101-000001");
    expect((await db.transaction((tx) => creditOrder(tx, first, at)))?.number).toBe("CN-2101-000001");
    const [row] = await db
      .select({ creditsNumber: orderDocuments.creditsNumber })
      .from(orderDocuments)
      .where(and(eq(orderDocuments.orderId, first), eq(orderDocuments.series, "credit-note")));
    expect(row?.creditsNumber).toBe("2101-000001");
  });

  it("gives 200 orders invoiced at once the numbers 1 to 200, each once", async () => {
    const at = new Date("2102-06-01T00:00:00Z");
    const ids = await bareOrders(db, 200);
    const numbers = await Promise.all(ids.map((id) => db.transaction((tx) => invoiceOrder(tx, id, at))));
    expect(new Set(numbers.map((invoice) => invoice.number)).size).toBe(200);
    expect(await sequences(2102, "invoice")).toEqual(Array.from({ length: 200 }, (_, at) => at + 1));
  });

  it("gives the number of a transaction that failed to the next invoice: no gap", async () => {
    const at = new Date("2103-01-01T00:00:00Z");
    const [failing, next] = (await bareOrders(db, 2)) as [number, number];
    await expect(
      db.transaction(async (tx) => {
        await invoiceOrder(tx, failing, at);
        throw new Error("the payment's transaction failed after its invoice");
      }),
    ).rejects.toThrow("failed after its invoice");
    expect((await db.transaction((tx) => invoiceOrder(tx, next, at))).number).toBe("2103-000001");
    expect(await sequences(2103, "invoice")).toEqual([1]);
  });

  it("writes numbers as the year and six digits, more past a million", () => {
    expect(documentNumber("invoice", 2026, 42)).toBe("2026-000042");
    expect(documentNumber("credit-note", 2026, 7)).toBe("CN-2026-000007");
    expect(documentNumber("invoice", 2026, 1_234_567)).toBe("2026-1234567");
  });
});

reportPostgresSkipped("an order's invoice and credit note on $name");
