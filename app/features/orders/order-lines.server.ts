import { asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orderLines, orders } from "~/db/schema";
import type { OrderTaxes } from "./place-order.server";

/** An order's lines as they were sold, in (product, variant) order (on the shop's database or in a transaction). */
export function orderLinesOf(db: Pick<Database, "select">, orderId: number) {
  return db
    .select({
      productId: orderLines.productId,
      variantId: orderLines.variantId,
      name: orderLines.name,
      sku: orderLines.sku,
      options: orderLines.options,
      unitPriceCents: orderLines.unitPriceCents,
      quantity: orderLines.quantity,
      lineTotalCents: orderLines.lineTotalCents,
      taxCents: orderLines.taxCents,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.productId), asc(orderLines.variantId));
}

/** What every page of one order reads of it: what it is, where it goes, how it is paid, its amounts. */
export const ORDER_PAGE_COLUMNS = {
  id: orders.id,
  number: orders.number,
  status: orders.status,
  placedAt: orders.createdAt,
  shippingAddress: orders.shippingAddress,
  shippingMethod: orders.shippingMethod,
  shippingMethodName: orders.shippingMethodName,
  paymentMethod: orders.paymentMethod,
  subtotalCents: orders.subtotalCents,
  shippingCents: orders.shippingCents,
  totalCents: orders.totalCents,
  taxCents: orders.taxCents,
  taxes: orders.taxes,
  pricesIncludeTax: orders.pricesIncludeTax,
  currency: orders.currency,
};

interface SoldLine {
  productId: number;
  variantId: number;
  name: string;
  sku: string;
  options: Record<string, string>;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
  taxCents: number;
}

/** An order's lines and amounts as the shopper's and the back office's pages show them (OrderTotals). */
export function linesAndAmounts(
  order: OrderTaxes & { subtotalCents: number; shippingCents: number; totalCents: number; currency: string },
  lines: readonly SoldLine[],
) {
  return {
    lines: lines.map(
      ({ productId, variantId, name, sku, options, unitPriceCents, quantity, lineTotalCents, taxCents }) => ({
        productId,
        variantId,
        name,
        sku,
        options,
        unitPriceCents,
        quantity,
        lineTotalCents,
        taxCents,
      }),
    ),
    subtotalCents: order.subtotalCents,
    shippingCents: order.shippingCents,
    totalCents: order.totalCents,
    taxCents: order.taxCents,
    taxes: order.taxes,
    pricesIncludeTax: order.pricesIncludeTax,
    currency: order.currency,
  };
}
