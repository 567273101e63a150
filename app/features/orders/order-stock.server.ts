import { returnStock as returnStockLines } from "~/commerce/stock.server";
import type { Transaction } from "~/db/client.server";
import { orderLinesOf } from "./order-lines.server";

/**
 * Every line of an order back on hand (app/commerce/stock.server.ts), each
 * with the name it was sold under and the product's SKU, for the audit log
 * to say what went back.
 */
export async function returnStock(
  tx: Transaction,
  orderId: number,
): Promise<{ productId: number; name: string; sku: string; quantity: number }[]> {
  const lines = await orderLinesOf(tx, orderId);
  const skus = await returnStockLines(tx, lines);
  return lines.map(({ productId, name, quantity }) => ({
    productId,
    name,
    sku: skus.get(productId) ?? "",
    quantity,
  }));
}
