import { returnStock as returnStockLines } from "~/commerce/stock.server";
import type { Transaction } from "~/db/client.server";
import { orderLinesOf } from "./order-lines.server";

/**
 * Every line of an order back on hand (app/commerce/stock.server.ts), each
 * with the name and SKU it was sold under, for the audit log to say what
 * went back.
 */
export async function returnStock(
  tx: Transaction,
  orderId: number,
): Promise<{ productId: number; variantId: number; name: string; sku: string; quantity: number }[]> {
  const lines = await orderLinesOf(tx, orderId);
  await returnStockLines(tx, lines);
  return lines.map(({ productId, variantId, name, sku, quantity }) => ({
    productId,
    variantId,
    name,
    sku,
    quantity,
  }));
}
