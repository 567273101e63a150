/**
 * One process issuing invoices, for tests/integration/invoice-numbers.test.ts:
 * on DATABASE_URL, an invoice for each order of ORDER_IDS (JSON), dated in
 * YEAR, each in its own transaction, four at a time. With HOLD_ORDER, it then
 * takes that order's invoice number in a transaction it never ends: it says
 * "holding <number>" and waits to be killed. Says "done" when all committed.
 */
import { invoiceOrder } from "../../app/commerce/order-documents.server";
import { openDatabase } from "../../app/db/client.server";

const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, poolSize: 4 });
const ids = JSON.parse(process.env.ORDER_IDS ?? "[]") as number[];
const at = new Date(Date.UTC(Number(process.env.YEAR), 0, 1));

let next = 0;
await Promise.all(
  Array.from({ length: 4 }, async () => {
    while (next < ids.length) {
      const id = ids[next++] as number;
      await handle.db.transaction((tx) => invoiceOrder(tx, id, at));
    }
  }),
);
const holding = process.env.HOLD_ORDER;
if (holding) {
  await handle.db.transaction(async (tx) => {
    const invoice = await invoiceOrder(tx, Number(holding), at);
    process.stdout.write(`holding ${invoice.number}\n`);
    // Killed here, its number taken and not committed.
    await new Promise(() => {});
  });
}
process.stdout.write("done\n");
await handle.close();
